package org.raidb.controller.cache;

import java.util.List;

/**
 * A write's hold on the versions it moves: taken before the write runs anywhere, given back once every
 * backend answered. Until then no read of what it may change is cached.
 */
public final class Invalidation {
    static final Invalidation NONE = new Invalidation(List.of());

    private final List<VersionCounter> counters;
    private boolean finished;

    Invalidation(List<VersionCounter> counters) {
        this.counters = counters;
    }

    /** The write ended on every backend (or failed before it ran): called once; later calls do nothing. */
    public void finished() {
        synchronized (this) {
            if (finished) {
                return;
            }
            finished = true;
        }
        long now = System.nanoTime();
        for (VersionCounter c : counters) {
            c.writeEnded(now);
        }
    }
}
