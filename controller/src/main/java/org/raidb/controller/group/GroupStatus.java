package org.raidb.controller.group;

import java.util.List;

/**
 * The controller group as one member sees it ({@code show controllers}, the admin API).
 *
 * @param group the group's name
 * @param viewId JGroups' view id: it changes whenever a member joins or leaves
 * @param completion when a client's write is answered
 * @param members every member of the view, the coordinator (the sequencer) first
 */
public record GroupStatus(String group, String viewId, String completion, List<Member> members) {
    /**
     * One controller of the view.
     *
     * @param name the controller's name in the group (its JGroups address)
     * @param self whether it is the controller that answered
     * @param backends its backends, each "name (state)"; empty when it did not answer in time
     * @param delivered writes delivered to it in the group's order since it joined
     * @param applied writes it has finished on its backends
     * @param answered whether it answered the status question in time
     */
    public record Member(
            String name, boolean self, List<String> backends, long delivered, long applied, boolean answered) {}
}
