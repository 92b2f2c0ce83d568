package org.raidb.controller.scheduler;

/** What waiting for conflict classes has cost: changed and read under the {@link ClassLockManager}'s lock. */
public final class WaitCounts {
    long waits;
    long waitNanos;
    long deadlocks;
    long timeouts;

    Snapshot snapshot() {
        return new Snapshot(waits, waitNanos, deadlocks, timeouts);
    }

    /**
     * The counts at one moment.
     *
     * @param waits acquisitions that had to wait for another transaction's class
     * @param waitNanos the time those waits took, in total
     * @param deadlocks transactions chosen as the victim of a deadlock among conflict classes (40P01)
     * @param timeouts waits given up after the scheduler's lockTimeout (55P03)
     */
    public record Snapshot(long waits, long waitNanos, long deadlocks, long timeouts) {}
}
