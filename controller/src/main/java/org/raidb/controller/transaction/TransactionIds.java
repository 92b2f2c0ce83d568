package org.raidb.controller.transaction;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The ids of one virtual database's transactions and auto-commit writes: one id space, because both
 * own conflict classes in the scheduler and entries in the recovery log. Each virtual database has its
 * own, seeded above the largest id its recovery log holds, so that ids stay unique across restarts.
 */
public final class TransactionIds {
    private final AtomicLong last = new AtomicLong();

    /** A fresh id for a transaction or an auto-commit statement. */
    public long next() {
        return last.incrementAndGet();
    }

    /** New ids will be larger than {@code id} (one already in the recovery log). */
    public void above(long id) {
        last.accumulateAndGet(id, Math::max);
    }
}
