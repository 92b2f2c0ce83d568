package org.raidb.controller.cache;

import java.util.List;

/**
 * The versions of what a read depends on, taken before it ran. A result cached with them is fresh
 * while every counter still has its version.
 */
public final class ReadVersions {
    private final List<VersionCounter> counters;
    private final long[] versions;

    ReadVersions(List<VersionCounter> counters, long[] versions) {
        this.counters = counters;
        this.versions = versions;
    }

    boolean fresh() {
        for (int i = 0; i < versions.length; i++) {
            if (counters.get(i).version() != versions[i]) {
                return false;
            }
        }
        return true;
    }

    /** When the result became stale (the earliest move of a counter since); only for a result not {@link #fresh}. */
    long staleSince() {
        long since = Long.MAX_VALUE;
        for (int i = 0; i < versions.length; i++) {
            if (counters.get(i).version() != versions[i]) {
                since = Math.min(since, counters.get(i).staleSince(versions[i]));
            }
        }
        return since;
    }
}
