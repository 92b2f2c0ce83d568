package org.raidb.controller.config;

import java.util.List;
import java.util.Locale;

/**
 * {@code <controllerGroup>}: the controllers that serve one virtual database together, each with its
 * own backends, writes delivered to all in one total order (docs/architecture.md, "Between
 * controllers").
 *
 * @param name the JGroups cluster name; controllers with the same name and stack form one group
 * @param stack the JGroups stack file: {@code tcp-loopback.xml} or {@code udp.xml} (shipped), or a path
 *     (relative to the working directory)
 * @param completion when the controller a client talks to answers it about a write
 * @param bindAddress the address the group's transport binds
 * @param bindPort the group transport's port; 0 for any free one (the others must then be told it)
 * @param members {@code host:port} of the members to contact at start (TCP stack)
 * @param joinTimeoutMillis how long a starting controller looks for members
 * @param whenAlone what a controller that found no member at start does
 */
public record GroupConfig(
        String name,
        String stack,
        Completion completion,
        String bindAddress,
        int bindPort,
        List<String> members,
        int joinTimeoutMillis,
        WhenAlone whenAlone) {

    /** When a write is answered: its controller's backends done, most controllers done, or all. */
    public enum Completion {
        LOCAL,
        MAJORITY,
        ALL;

        static Completion parse(String s) {
            return valueOf(s.strip().toUpperCase(Locale.ROOT));
        }

        /** How many of {@code members} controllers must have applied a write before its client hears. */
        public int required(int members) {
            return switch (this) {
                case LOCAL -> 1;
                case MAJORITY -> members / 2 + 1;
                case ALL -> members;
            };
        }
    }

    /** What a controller that finds no member at start does: serve alone (and say so), or keep looking. */
    public enum WhenAlone {
        /** Serve alone, and say so in the log; others join later. */
        START,
        /** Keep looking for a member; serve only once one answers. */
        WAIT,
        /**
         * {@link #WAIT} when this controller's data directory shows it served the group beside other
         * members and did not leave it as the last one: its backends may lack what the group wrote since,
         * and serving alone would fork the data. {@link #START} otherwise (a first start, or the last
         * member of the group stopped cleanly).
         */
        AUTO;

        static WhenAlone parse(String s) {
            return valueOf(s.strip().toUpperCase(Locale.ROOT));
        }
    }

    public GroupConfig {
        members = List.copyOf(members);
    }
}
