package org.raidb.controller.group;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jgroups.Address;
import org.jgroups.MergeView;
import org.jgroups.View;

/**
 * A merge of parts that ran apart, from its view until every member of it has said what it held (its
 * {@link GroupMessage.Announce} sent in the merged view); a member that leaves first is left out of
 * its part. Every member collects the same reports (they are in the total order), so every member
 * decides alike ({@link MergeRule}).
 *
 * @param viewId the merged view's number
 * @param parts the subgroups that merged, by member name
 * @param members the merged view's members in order
 * @param reports what each member said, as it comes
 */
record PendingMerge(
        long viewId, List<List<String>> parts, List<String> members, Map<String, MergeRule.Report> reports) {

    static PendingMerge of(MergeView merge) {
        List<List<String>> parts = new ArrayList<>();
        for (View part : merge.getSubgroups()) {
            parts.add(names(part.getMembers()));
        }
        return new PendingMerge(
                merge.getViewId().getId(), parts, new ArrayList<>(names(merge.getMembers())), new LinkedHashMap<>());
    }

    private static List<String> names(List<Address> members) {
        return new ArrayList<>(members.stream().map(Address::toString).toList());
    }

    /** Members that left before saying what they held: the decision does without them. */
    void left(List<String> left) {
        members.removeAll(left);
        parts.forEach(p -> p.removeAll(left));
        reports.keySet().removeAll(left);
    }

    /** Every member of the merged view still in it has said what it held. */
    boolean complete() {
        return reports.keySet().containsAll(members);
    }

    /** The members not heard from yet. */
    List<String> missing() {
        return members.stream().filter(m -> !reports.containsKey(m)).toList();
    }
}
