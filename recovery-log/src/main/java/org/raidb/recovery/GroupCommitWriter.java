package org.raidb.recovery;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one thread that makes log operations durable. Appenders queue operations and wait on a future;
 * the writer takes everything queued so far (up to {@code maxBatchEntries}), makes it durable in one go
 * and completes the futures. While one batch is being written the next accumulates, so N concurrent
 * appenders cost about one write, not N: that is the group commit.
 *
 * <p>Durable means: committed in the store, or, for an embedded H2 store, written to its {@link
 * LogJournal}, from which a {@link JournalStoreThread} moves operations into the store about once a second
 * (or sooner when a checkpoint or a replay needs them there).
 *
 * <p>A failed write fails every operation in it and every later one: once the store has refused a
 * write the log cannot promise durability any more, and the controller must stop acknowledging writes
 * rather than carry on with a hole in the log.
 */
final class GroupCommitWriter implements AutoCloseable {

    /** What the writer can be asked to do. */
    sealed interface Operation permits Append, SetOutcome, Barrier, Stop {}

    /**
     * Writes one entry. A class rather than a record: its parameters are an array, which a record would
     * compare and hash by identity while seeming to compare by value.
     */
    static final class Append implements Operation {
        private final LogEntry entry;
        private final byte[] parameters;
        private final CompletableFuture<Long> durable;

        /**
         * {@code parameters}: the entry's parameters as stored, encoded by the appender (null when it has none);
         * {@code durable}: null for an entry read back from the journal.
         */
        Append(LogEntry entry, byte[] parameters, CompletableFuture<Long> durable) {
            this.entry = entry;
            this.parameters = parameters;
            this.durable = durable;
        }

        LogEntry entry() {
            return entry;
        }

        byte[] parameters() {
            return parameters;
        }

        CompletableFuture<Long> durable() {
            return durable;
        }
    }

    record SetOutcome(long position, Outcome outcome, CompletableFuture<Void> durable) implements Operation {}

    /** Completes once every operation queued before it is in the store (not only in the journal). */
    record Barrier(CompletableFuture<Void> reached) implements Operation {}

    private record Stop() implements Operation {}

    /** How long a deferred successful outcome waits for a write before it gets one of its own. */
    private static final long DEFERRED_FLUSH_MILLIS = 200;
    /** With a journal: how long operations stay in it before the store takes them. */
    static final long STORE_EVERY_MILLIS = 1000;
    /** With a journal: operations handed to the store at once at most. */
    static final int STORE_EVERY_OPERATIONS = 5_000;
    /** With a journal: the writer waits for the store while this many operations are handed and not stored. */
    static final int MAX_UNSTORED_OPERATIONS = 20_000;

    private final BlockingQueue<Operation> queue = new LinkedBlockingQueue<>();
    private final String vdb;
    private final StoreWriter store;
    private final int maxBatchEntries;
    private final long maxWaitNanos;
    private final Thread thread;
    private volatile long lastDurablePosition;
    private volatile SQLException failure;
    /** Set once the writer has stopped (closed or interrupted): nothing queued after that would ever be written. */
    private volatile boolean stopped;

    /** Null unless the store is an embedded H2 file: then the journal and its store thread. */
    private final LogJournal journal;

    private final JournalStoreThread storeThread;
    private final AtomicLong journalWrites = new AtomicLong();
    private final AtomicLong entriesWritten = new AtomicLong();
    // The writer thread's own, with a journal: the segment appended to, and what it holds that the store
    // thread has not been handed yet (barriers are handed at once, with it).
    private int segment;
    private List<Operation> unhanded = new ArrayList<>();
    private long firstUnhandedNanos;

    /** {@code journal}: null to make every batch durable by a store commit. */
    GroupCommitWriter(RecoveryLogConfig config, StoreWriter store, LogJournal journal, long lastPosition) {
        this.vdb = config.virtualDatabase();
        this.store = store;
        this.journal = journal;
        this.maxBatchEntries = config.maxBatchEntries();
        this.maxWaitNanos = TimeUnit.MICROSECONDS.toNanos(config.maxWaitMicros());
        this.lastDurablePosition = lastPosition;
        this.storeThread = journal == null ? null : new JournalStoreThread(vdb, store, journal, f -> failure = f);
        thread = new Thread(this::run, "raidb-recovery-log-writer-" + vdb);
        thread.setDaemon(true);
        thread.start();
    }

    /** Queues an operation; fails at once if the store has already failed. */
    void submit(Operation op) throws RecoveryLogException {
        SQLException f = failure;
        if (f != null) {
            throw new RecoveryLogException(
                    "The recovery log of " + vdb + " is out of service after a store failure (" + rootCause(f) + "): "
                            + f.getMessage() + ". " + AFTER_STORE_FAILURE,
                    RecoveryLogException.IO_ERROR,
                    f);
        }
        queue.add(op);
        if (stopped) {
            // The writer may have drained the queue just before this operation arrived: fail what is left.
            failLeftovers();
        }
    }

    /** Store transactions committed so far: with group commit, far fewer than entries written. */
    long storeCommits() {
        return store.storeCommits();
    }

    /** Records written to the journal (0 without one): each made a batch of appenders' operations durable. */
    long journalWrites() {
        return journalWrites.get();
    }

    /** Entries made durable so far. */
    long entriesWritten() {
        return entriesWritten.get();
    }

    StatementIds statementIds() {
        return store.statementIds();
    }

    /** With a journal: how long the writer waited for the store thread to catch up, in all (0 without one). */
    long storeWaitNanos() {
        return storeThread == null ? 0 : storeThread.waitedNanos();
    }

    /** The journal's bytes on disk (0 without one). */
    long journalBytes() {
        return journal == null ? 0 : journal.bytes();
    }

    /** The last position durable (in the journal or the store). */
    long lastDurablePosition() {
        return lastDurablePosition;
    }

    /** The last position committed in the store: what queries on the store can see. */
    long lastStoredPosition() {
        return store.lastStoredPosition();
    }

    private void run() {
        List<Operation> batch = new ArrayList<>(maxBatchEntries);
        // Successful outcomes wait for the next write made for another reason: nobody waits for them,
        // and a write of their own per statement would double the log's work. A crash that loses them
        // only makes those writes look in doubt, which restart treats conservatively.
        List<Operation> deferred = new ArrayList<>();
        try {
            while (true) {
                long waitNanos = Long.MAX_VALUE;
                if (!deferred.isEmpty()) {
                    waitNanos = TimeUnit.MILLISECONDS.toNanos(DEFERRED_FLUSH_MILLIS);
                }
                if (!unhanded.isEmpty()) {
                    waitNanos = Math.min(
                            waitNanos,
                            Math.max(
                                    0,
                                    firstUnhandedNanos
                                            + TimeUnit.MILLISECONDS.toNanos(STORE_EVERY_MILLIS)
                                            - System.nanoTime()));
                }
                Operation first =
                        waitNanos == Long.MAX_VALUE ? queue.take() : queue.poll(waitNanos, TimeUnit.NANOSECONDS);
                if (first == null) {
                    if (!deferred.isEmpty()) {
                        write(deferred, false);
                        deferred.clear();
                    }
                    if (!unhanded.isEmpty()
                            && System.nanoTime() - firstUnhandedNanos
                                    >= TimeUnit.MILLISECONDS.toNanos(STORE_EVERY_MILLIS)) {
                        handOver(false, List.of());
                    }
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, maxBatchEntries - 1);
                if (maxWaitNanos > 0) {
                    waitForMore(batch);
                }
                boolean stop = batch.get(batch.size() - 1) instanceof Stop;
                if (!stop
                        && batch.stream().allMatch(GroupCommitWriter::deferrable)
                        && deferred.size() + batch.size() < maxBatchEntries) {
                    deferred.addAll(batch);
                    batch.clear();
                    continue;
                }
                batch.addAll(deferred);
                deferred.clear();
                write(batch, stop);
                batch.clear();
                if (stop) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            stopped = true;
            failAll(
                    deferred,
                    new SQLException("the recovery log of " + vdb + " stopped", RecoveryLogException.IO_ERROR));
            failLeftovers();
        }
    }

    /** Operations queued once the writer has stopped fail instead of waiting forever for a commit. */
    private void failLeftovers() {
        List<Operation> left = new ArrayList<>();
        queue.drainTo(left);
        failAll(left, new SQLException("the recovery log of " + vdb + " is closed", RecoveryLogException.IO_ERROR));
    }

    private static boolean deferrable(Operation op) {
        return op instanceof SetOutcome s && s.outcome().status() == Outcome.Status.SUCCESS;
    }

    private void waitForMore(List<Operation> batch) throws InterruptedException {
        long deadline = System.nanoTime() + maxWaitNanos;
        while (batch.size() < maxBatchEntries && !(batch.get(batch.size() - 1) instanceof Stop)) {
            long left = deadline - System.nanoTime();
            Operation next = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
            if (next == null) {
                return;
            }
            batch.add(next);
            queue.drainTo(batch, maxBatchEntries - batch.size());
        }
    }

    /** {@code last}: the writer stops after this batch, which saves the tail so that a restart reads nothing. */
    private void write(List<Operation> batch, boolean last) throws InterruptedException {
        if (failure != null) {
            failAll(batch, failure);
            releaseStoreThreadIfLast(last);
            return;
        }
        try {
            if (journal == null) {
                store.write(batch, last);
            } else {
                journal.append(segment, batch);
                journalWrites.incrementAndGet();
            }
        } catch (SQLException | IOException | RuntimeException | Error e) {
            // Whatever went wrong, the thread lives on to fail this batch and every later operation: were it
            // to die, every appender would wait for its durability forever.
            failure = e instanceof SQLException q
                    ? q
                    : new SQLException("the log writer failed: " + e, RecoveryLogException.IO_ERROR, e);
            failAll(batch, failure);
            releaseStoreThreadIfLast(last);
            return;
        }
        long highest = -1;
        int appended = 0;
        for (Operation op : batch) {
            if (op instanceof Append a) {
                highest = a.entry().position();
                appended++;
            }
        }
        entriesWritten.addAndGet(appended);
        if (highest >= 0) {
            lastDurablePosition = highest;
        }
        List<Barrier> barriers = new ArrayList<>();
        for (Operation op : batch) {
            if (op instanceof Append a) {
                a.durable().complete(a.entry().position());
            } else if (op instanceof SetOutcome s) {
                s.durable().complete(null);
            } else if (op instanceof Barrier b) {
                if (journal == null) {
                    b.reached().complete(null);
                } else {
                    barriers.add(b);
                }
            }
        }
        if (journal != null) {
            for (Operation op : batch) {
                if (op instanceof Append || op instanceof SetOutcome) {
                    if (unhanded.isEmpty()) {
                        firstUnhandedNanos = System.nanoTime();
                    }
                    unhanded.add(op);
                }
            }
            if (last || !barriers.isEmpty() || unhanded.size() >= STORE_EVERY_OPERATIONS) {
                handOver(last, barriers);
            }
        }
    }

    /**
     * Hands what the journal holds beyond what the store thread has to it, moving on to the other segment
     * when that one is free (else appending goes on in this one, emptied with a later hand-over).
     */
    private void handOver(boolean last, List<Barrier> barriers) throws InterruptedException {
        int clear = -1;
        if (last) {
            clear = segment;
        } else if (storeThread.take(1 - segment)) {
            clear = segment;
            segment = 1 - segment;
        }
        storeThread.submit(new JournalStoreThread.Request(unhanded, clear, barriers, last));
        unhanded = new ArrayList<>();
        if (!last) {
            storeThread.awaitUnstoredAtMost(MAX_UNSTORED_OPERATIONS);
        }
    }

    /** After a failure the store thread stores nothing more; the writer's last batch still lets it end. */
    private void releaseStoreThreadIfLast(boolean last) {
        if (last && storeThread != null) {
            storeThread.submit(new JournalStoreThread.Request(List.of(), -1, List.of(), true));
        }
    }

    static RecoveryLogException failureOf(String vdb, SQLException cause) {
        return new RecoveryLogException(
                "The recovery log of " + vdb + " could not write to its store (" + rootCause(cause) + "): "
                        + cause.getMessage() + ". " + AFTER_STORE_FAILURE,
                RecoveryLogException.IO_ERROR,
                cause);
    }

    /**
     * What a store failure means for the user and what to do: the log fails every later operation, so that
     * no write is acknowledged without being logged.
     */
    static final String AFTER_STORE_FAILURE = "No further write is acknowledged: make room for the recovery log's"
            + " store (free disk space) or repair it, then restart the controller (writes acknowledged so far are"
            + " kept)";

    /**
     * The innermost cause's message ("File too large", "No space left on device"): what the store's own
     * message often hides behind its wording ("Writing to ... failed").
     */
    private static String rootCause(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    }

    private void failAll(List<Operation> batch, SQLException cause) {
        RecoveryLogException e = failureOf(vdb, cause);
        for (Operation op : batch) {
            if (op instanceof Append a) {
                a.durable().completeExceptionally(e);
            } else if (op instanceof SetOutcome s) {
                s.durable().completeExceptionally(e);
            } else if (op instanceof Barrier b) {
                b.reached().completeExceptionally(e);
            }
        }
    }

    /** Writes what is queued (with a journal: into the store too), then stops the threads. */
    @Override
    public void close() throws SQLException {
        queue.add(new Stop());
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (storeThread != null) {
            storeThread.close();
        }
        try {
            if (journal != null) {
                journal.close();
            }
        } catch (IOException e) {
            // Everything in it is in the store by now (or stays for the next start); nothing to report.
        } finally {
            store.close();
        }
    }
}
