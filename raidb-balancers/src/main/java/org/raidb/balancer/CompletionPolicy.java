package org.raidb.balancer;

import java.util.Locale;

/** How many of the backends a write was sent to must answer before the client gets its answer. */
public enum CompletionPolicy {
    FIRST,
    MAJORITY,
    ALL;

    /** Answers needed out of {@code targets} backends (at least one). */
    public int required(int targets) {
        return switch (this) {
            case FIRST -> Math.min(1, targets);
            case MAJORITY -> targets / 2 + 1;
            case ALL -> targets;
        };
    }

    /** Parses the configuration spelling: first, majority, all. */
    public static CompletionPolicy byName(String name) {
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown completion policy '" + name + "': use first, majority or all");
        }
    }
}
