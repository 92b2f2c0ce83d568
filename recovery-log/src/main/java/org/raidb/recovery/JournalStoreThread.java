package org.raidb.recovery;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Behind a {@link LogJournal}: the thread that moves journaled operations into the store, many per
 * store commit, and empties a journal segment once all it holds is committed. Requests are done in the
 * order given, so a barrier completes once everything handed before it is in the store.
 */
final class JournalStoreThread implements AutoCloseable {

    /**
     * {@code clearSegment}: the segment to empty after this commit (its last operations are in it), or -1;
     * {@code last}: the log closes after it.
     */
    record Request(
            List<GroupCommitWriter.Operation> operations,
            int clearSegment,
            List<GroupCommitWriter.Barrier> barriers,
            boolean last) {}

    private final BlockingQueue<Request> requests = new LinkedBlockingQueue<>();
    private final String vdb;
    private final StoreWriter store;
    private final LogJournal journal;
    private final Consumer<SQLException> onFailure;
    private final Thread thread;
    /** Segment i is being appended to, or holds operations not yet committed in the store. */
    private final boolean[] inUse = {true, false};
    /** Operations handed over and not yet committed: the writer waits when too many are. */
    private int unstored;

    private long waitedNanos;

    private volatile SQLException failure;

    JournalStoreThread(String vdb, StoreWriter store, LogJournal journal, Consumer<SQLException> onFailure) {
        this.vdb = vdb;
        this.store = store;
        this.journal = journal;
        this.onFailure = onFailure;
        thread = new Thread(this::run, "raidb-recovery-log-store-" + vdb);
        thread.setDaemon(true);
        thread.start();
    }

    /** Whether {@code segment} is empty and free to append to; if so it is taken for appending. */
    synchronized boolean take(int segment) {
        if (inUse[segment]) {
            return false;
        }
        inUse[segment] = true;
        return true;
    }

    synchronized void submit(Request request) {
        unstored += request.operations().size();
        requests.add(request);
    }

    /** Waits while more than {@code max} operations are handed over and not in the store yet. */
    synchronized void awaitUnstoredAtMost(int max) throws InterruptedException {
        if (unstored <= max) {
            return;
        }
        long t0 = System.nanoTime();
        while (unstored > max && failure == null && thread.isAlive()) {
            wait(100);
        }
        waitedNanos += System.nanoTime() - t0;
    }

    /** How long the writer has waited for this thread in all (acknowledgements stop meanwhile). */
    synchronized long waitedNanos() {
        return waitedNanos;
    }

    private void run() {
        while (true) {
            Request r;
            try {
                r = requests.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            SQLException failed = failure;
            if (failed == null) {
                try {
                    store.write(r.operations(), r.last());
                    if (r.clearSegment() >= 0) {
                        journal.clear(r.clearSegment());
                        synchronized (this) {
                            inUse[r.clearSegment()] = false;
                        }
                    }
                } catch (SQLException | IOException | RuntimeException e) {
                    // The journal keeps what was not stored: a restart stores it. Until then the log
                    // acknowledges nothing more (the writer is told).
                    failed = e instanceof SQLException q
                            ? q
                            : new SQLException(
                                    "the recovery log's store thread failed: " + e, RecoveryLogException.IO_ERROR, e);
                    failure = failed;
                    onFailure.accept(failed);
                }
            }
            for (GroupCommitWriter.Barrier b : r.barriers()) {
                if (failed == null) {
                    b.reached().complete(null);
                } else {
                    b.reached().completeExceptionally(GroupCommitWriter.failureOf(vdb, failed));
                }
            }
            synchronized (this) {
                unstored -= r.operations().size();
                notifyAll();
            }
            if (r.last()) {
                return;
            }
        }
    }

    /** Waits for the last request to be done (the writer submits it when it stops). */
    @Override
    public void close() {
        try {
            thread.join(TimeUnit.SECONDS.toMillis(60));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
