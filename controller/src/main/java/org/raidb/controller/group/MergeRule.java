package org.raidb.controller.group;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Which part of the group goes on when parts that ran apart merge (a partition healed, or a member that
 * started alone found the others), decided from what the parts hold and never from who JGroups makes
 * the merged view's coordinator (the member with the lowest address, often one that has just started).
 *
 * <p>Every member applies it to the same reports (each member's {@link GroupMessage.Announce} sent in
 * the merged view) and so reaches the same decision. A part is ranked by, in turn:
 *
 * <ol>
 *   <li>whether it has a member that is not stale: a part of stale members only (they have not caught up
 *       since they were stopped, {@link GroupHistory}) never goes on beside a part that can give them
 *       the group's data;
 *   <li>the most writes a member of it that is not stale had delivered before the merge: the part that
 *       wrote more goes on (a part whose members have had no write since they started ranks last among
 *       those with a member that is not stale);
 *   <li>on a tie, the part whose first member comes first in the merged view.
 * </ol>
 */
final class MergeRule {
    /** What one member said of itself in the merged view. */
    record Report(long delivered, boolean stale) {}

    /** What a member does once the merge is decided. */
    enum Outcome {
        /** Its part goes on. */
        GOES_ON,
        /** Stale: it does not serve yet and catches up from the part that goes on. */
        CATCHES_UP,
        /** Its part lost and neither it nor the part that goes on had writes: nothing differs. */
        KEEPS,
        /** Its part lost and it or the part that goes on had writes the other lacks: its backends are disabled. */
        DISABLES
    }

    private MergeRule() {}

    /**
     * The part that goes on.
     *
     * @param parts the merged view's subgroups, as JGroups lists them
     * @param merged the merged view's members in order
     * @param reports each member's report; a member without one (it left before saying) counts as stale
     */
    static List<String> winner(List<List<String>> parts, List<String> merged, Map<String, Report> reports) {
        Comparator<List<String>> rank = Comparator.<List<String>, Boolean>comparing(p -> hasLiveMember(p, reports))
                .thenComparingLong(p -> writes(p, reports))
                .thenComparing(p -> -first(p, merged))
                .reversed();
        return parts.stream().min(rank).orElse(List.of());
    }

    /** What {@code member} does: its part goes on, or it catches up, keeps its backends, or disables them. */
    static Outcome outcome(String member, List<List<String>> parts, List<String> merged, Map<String, Report> reports) {
        List<String> winner = winner(parts, merged, reports);
        if (winner.contains(member)) {
            return Outcome.GOES_ON;
        }
        Report own = reports.get(member);
        if (own == null || own.stale()) {
            return Outcome.CATCHES_UP;
        }
        return own.delivered() > 0 || writes(winner, reports) > 0 ? Outcome.DISABLES : Outcome.KEEPS;
    }

    private static boolean hasLiveMember(List<String> part, Map<String, Report> reports) {
        return part.stream().map(reports::get).anyMatch(r -> r != null && !r.stale());
    }

    /** The most writes a member of the part that is not stale had delivered before the merge. */
    static long writes(List<String> part, Map<String, Report> reports) {
        return part.stream()
                .map(reports::get)
                .filter(r -> r != null && !r.stale())
                .mapToLong(Report::delivered)
                .max()
                .orElse(0);
    }

    private static int first(List<String> part, List<String> merged) {
        return part.stream().mapToInt(merged::indexOf).filter(i -> i >= 0).min().orElse(Integer.MAX_VALUE);
    }
}
