package org.raidb.controller.recovery;

import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * Which logged items one backend has applied, so that when it leaves the array the checkpoint is
 * exactly where it stopped. An item is an auto-commit write or a transaction's COMMIT, known by its
 * log position. Non-conflicting items run in parallel, so a backend that fails has a ragged edge:
 * everything up to some position applied, then a few later items applied and a few not.
 *
 * <p>All positions sent to the backend and not yet answered are {@code unsettled}; those that failed
 * there are {@code missed}; those applied above the lowest unsettled or missed one are kept in
 * {@code appliedAbove} (everything below it is summed up by that lowest position). The sets stay as
 * small as the number of writes in flight.
 *
 * <p>Of the missed ones, those during which the backend's connection broke are also {@code inDoubt}:
 * the server may have committed them and lost only its answer. So are those still unsettled when the
 * edge is taken. A replay must not take them for certainly missing.
 */
final class BackendProgress {
    private final NavigableSet<Long> unsettled = new ConcurrentSkipListSet<>();
    private final NavigableSet<Long> missed = new ConcurrentSkipListSet<>();
    private final NavigableSet<Long> appliedAbove = new ConcurrentSkipListSet<>();
    private final NavigableSet<Long> inDoubt = new ConcurrentSkipListSet<>();
    /** The log's last position when the backend was disabled; -1 while it is enabled. */
    private volatile long frozenAt = -1;

    /** Called under the write log's order lock, as the item is logged for this backend. */
    void sent(long position) {
        unsettled.add(position);
    }

    void applied(long position) {
        if (unsettled.remove(position)) {
            appliedAbove.add(position);
            forgetBelowEdge();
            signalIfSettled();
        }
    }

    void missed(long position) {
        missed(position, false);
    }

    /**
     * @param maybeApplied the backend's connection broke while the item ran: it may hold it anyway
     */
    void missed(long position, boolean maybeApplied) {
        // Into missed before out of unsettled: a concurrent forgetBelowEdge must never see it in neither.
        if (unsettled.contains(position)) {
            if (maybeApplied) {
                inDoubt.add(position);
            }
            missed.add(position);
            unsettled.remove(position);
            signalIfSettled();
        }
    }

    /**
     * The item failed on every backend (the client's error): there is nothing to replay, so it is no
     * gap in what the backend holds.
     */
    void failedEverywhere(long position) {
        notNeeded(position);
    }

    /** The item failed here but needs no replay (its tables were disabled on this backend): no gap either. */
    void notNeeded(long position) {
        if (missed.remove(position)) {
            inDoubt.remove(position);
            appliedAbove.add(position);
            forgetBelowEdge();
        }
    }

    private void signalIfSettled() {
        if (frozenAt >= 0 && unsettled.isEmpty()) {
            synchronized (this) {
                notifyAll();
            }
        }
    }

    /** Waits until every item sent to the (frozen) backend was answered, or the deadline passes. */
    synchronized void awaitSettled(long deadlineNanos) throws InterruptedException {
        while (!unsettled.isEmpty()) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return;
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    /** Called under the order lock when the backend is disabled: nothing logged later reaches it. */
    void freeze(long lastLogged) {
        frozenAt = lastLogged;
    }

    /** Called under the order lock when the backend is enabled again, in step with the log. */
    void reset() {
        unsettled.clear();
        missed.clear();
        appliedAbove.clear();
        inDoubt.clear();
        frozenAt = -1;
    }

    /**
     * Where the backend stopped, once it is frozen and settled (items still unsettled count as
     * missed, and in doubt): the last position up to which it holds every item, the items above it
     * that it holds too, and those it may hold.
     */
    Edge edge() {
        long lowestMissing = lowestMissing();
        long checkpoint = lowestMissing == Long.MAX_VALUE ? frozenAt : lowestMissing - 1;
        List<Long> above = appliedAbove.tailSet(checkpoint, false).stream().toList();
        NavigableSet<Long> doubtful = new TreeSet<>(inDoubt.tailSet(checkpoint, false));
        doubtful.addAll(unsettled); // still running on the backend when its edge was taken
        return new Edge(checkpoint, above, List.copyOf(doubtful));
    }

    /** Applied items below every unsettled and missed one need not be remembered one by one. */
    private void forgetBelowEdge() {
        long lowest = lowestMissing();
        if (lowest == Long.MAX_VALUE) {
            appliedAbove.clear();
        } else {
            appliedAbove.headSet(lowest, false).clear();
        }
    }

    /** The lowest position unsettled or missed, MAX_VALUE if none; safe while other threads change the sets. */
    private long lowestMissing() {
        Long u = unsettled.ceiling(Long.MIN_VALUE);
        Long m = missed.ceiling(Long.MIN_VALUE);
        return Math.min(u == null ? Long.MAX_VALUE : u, m == null ? Long.MAX_VALUE : m);
    }

    /** A checkpoint position, the items after it the backend already holds, and those it may hold. */
    record Edge(long position, List<Long> appliedAfter, List<Long> inDoubt) {
        Edge(long position, List<Long> appliedAfter) {
            this(position, appliedAfter, List.of());
        }
    }
}
