package org.raidb.recovery;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one thread that writes the log. Appenders queue operations and wait on a future; the writer
 * takes everything queued so far (up to {@code maxBatchEntries}), writes it in one store transaction
 * and completes the futures after the commit. While one commit is in progress the next batch
 * accumulates, so N concurrent appenders cost about one commit, not N: that is the group commit.
 *
 * <p>A failed store transaction fails every operation in it and every later one: once the store has
 * refused a write the log cannot promise durability any more, and the controller must stop
 * acknowledging writes rather than carry on with a hole in the log.
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

        /** {@code parameters}: the entry's parameters as stored, encoded by the appender (null when it has none). */
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

    /** Completes once every operation queued before it is durable. */
    record Barrier(CompletableFuture<Void> reached) implements Operation {}

    private record Stop() implements Operation {}

    /** How long a deferred successful outcome waits for a commit before it gets one of its own. */
    private static final long DEFERRED_FLUSH_MILLIS = 200;

    private final BlockingQueue<Operation> queue = new LinkedBlockingQueue<>();
    private final Connection connection;
    private final String vdb;
    private final LogEntryRows rows;
    private final int maxBatchEntries;
    private final long maxWaitNanos;
    private final Thread thread;
    private final AtomicLong storeCommits = new AtomicLong();
    private final AtomicLong entriesWritten = new AtomicLong();
    private volatile long lastDurablePosition;
    private volatile SQLException failure;
    /** Set once the writer has stopped (closed or interrupted): nothing queued after that would ever be written. */
    private volatile boolean stopped;

    private PreparedStatement insert;
    private PreparedStatement update;
    private PreparedStatement insertStatement;
    private PreparedStatement saveTail;

    private final LogTail tail;
    private final String saveTailSql;
    private final int vdbId;
    private final int inlineLimit;
    private final StatementIds statementIds;
    private long tailSavedAt;
    /** Null unless the store is an embedded H2 database. */
    private final H2Compaction compaction;

    GroupCommitWriter(
            Connection connection,
            RecoveryLogConfig config,
            LogEntryRows rows,
            long lastPosition,
            LogTail tail,
            long lastStatementId,
            String saveTailSql,
            int vdbId,
            int inlineLimit)
            throws SQLException {
        this.connection = connection;
        this.vdb = config.virtualDatabase();
        this.rows = rows;
        this.tail = tail;
        this.tailSavedAt = tail.position();
        this.saveTailSql = saveTailSql;
        this.vdbId = vdbId;
        this.inlineLimit = inlineLimit;
        this.statementIds = new StatementIds(lastStatementId);
        this.compaction = H2Compaction.of(connection);
        this.maxBatchEntries = config.maxBatchEntries();
        this.maxWaitNanos = TimeUnit.MICROSECONDS.toNanos(config.maxWaitMicros());
        this.lastDurablePosition = lastPosition;
        connection.setAutoCommit(false);
        thread = new Thread(this::run, "raidb-recovery-log-writer-" + vdb);
        thread.setDaemon(true);
        thread.start();
    }

    /** Queues an operation; fails at once if the store has already failed. */
    void submit(Operation op) throws RecoveryLogException {
        SQLException f = failure;
        if (f != null) {
            throw new RecoveryLogException(
                    "The recovery log of " + vdb + " is out of service after a store failure: " + f.getMessage(),
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
        return storeCommits.get();
    }

    long entriesWritten() {
        return entriesWritten.get();
    }

    long lastDurablePosition() {
        return lastDurablePosition;
    }

    private void run() {
        List<Operation> batch = new ArrayList<>(maxBatchEntries);
        // Successful outcomes wait for the next commit made for another reason: nobody waits for them,
        // and a commit of their own per write would double the store's work. A crash that loses them
        // only makes those writes look in doubt, which restart treats conservatively.
        List<Operation> deferred = new ArrayList<>();
        try {
            while (true) {
                Operation first =
                        deferred.isEmpty() ? queue.take() : queue.poll(DEFERRED_FLUSH_MILLIS, TimeUnit.MILLISECONDS);
                if (first == null) {
                    write(deferred, false);
                    deferred.clear();
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
    private void write(List<Operation> batch, boolean last) {
        if (failure != null) {
            failAll(batch, failure);
            return;
        }
        long highest = -1;
        int appended = 0;
        try {
            // Prepared once per writer: parsing them for every batch was a good part of a one-entry commit.
            if (insert == null) {
                insert = connection.prepareStatement(rows.insert);
                update = connection.prepareStatement(rows.updateOutcome);
                insertStatement = connection.prepareStatement(rows.insertStatement);
                saveTail = connection.prepareStatement(saveTailSql);
            }
            int updates = 0;
            int newStatements = 0;
            for (Operation op : batch) {
                if (op instanceof Append a) {
                    LogEntry e = a.entry();
                    Long statementId = null;
                    if (e.sql() != null) {
                        String key = LogEntryRows.statementKey(e);
                        statementId = statementIds.known(key);
                        if (statementId == null) {
                            statementId = statementIds.add(key);
                            insertStatement.setLong(1, statementId);
                            insertStatement.setString(2, e.sql());
                            insertStatement.setString(
                                    3, e.tablesWritten().isEmpty() ? null : String.join(",", e.tablesWritten()));
                            insertStatement.addBatch();
                            newStatements++;
                        }
                    }
                    tail.accept(
                            e.position(),
                            e.kind(),
                            e.transactionId(),
                            e.outcome().status());
                    LogEntryRows.bindInsert(insert, e, statementId, a.parameters(), inlineLimit);
                    insert.addBatch();
                    highest = e.position();
                    appended++;
                } else if (op instanceof SetOutcome s) {
                    tail.outcome(s.position(), s.outcome().status());
                    LogEntryRows.bindOutcome(update, s.position(), s.outcome());
                    update.addBatch();
                    updates++;
                }
            }
            // Statements before the entries that name them; inserts before updates is safe: an outcome is
            // always queued after its entry.
            if (newStatements > 0) {
                insertStatement.executeBatch();
            }
            if (appended > 0) {
                insert.executeBatch();
            }
            if (updates > 0) {
                update.executeBatch();
            }
            if (tail.position() - tailSavedAt >= LogTail.SNAPSHOT_EVERY || (last && tail.position() > tailSavedAt)) {
                saveTail();
            }
            connection.commit();
            statementIds.committed();
        } catch (SQLException | RuntimeException | Error e) {
            // Whatever went wrong, the thread lives on to fail this batch and every later operation: were it
            // to die, every appender would wait for its durability forever.
            statementIds.rolledBack();
            failure = e instanceof SQLException q
                    ? q
                    : new SQLException("the log writer failed: " + e, RecoveryLogException.SYSTEM_ERROR, e);
            try {
                connection.rollback();
            } catch (SQLException ignored) {
                // The store is gone; the failure above is what the callers need to see.
            }
            failAll(batch, failure);
            return;
        }
        storeCommits.incrementAndGet();
        if (compaction != null) {
            try {
                compaction.afterCommit();
            } catch (RuntimeException e) {
                // Only the file's size suffers; the next round tries again.
            }
        }
        entriesWritten.addAndGet(appended);
        if (highest >= 0) {
            lastDurablePosition = highest;
        }
        for (Operation op : batch) {
            if (op instanceof Append a) {
                a.durable().complete(a.entry().position());
            } else if (op instanceof SetOutcome s) {
                s.durable().complete(null);
            } else if (op instanceof Barrier b) {
                b.reached().complete(null);
            }
        }
    }

    /** Saves the tail in the batch's store transaction: what a restart reads starts there. */
    private void saveTail() throws SQLException {
        saveTail.setInt(1, vdbId);
        saveTail.setLong(2, tail.position());
        saveTail.setLong(3, tail.maxTransactionId());
        saveTail.setLong(4, tail.oldestPending());
        saveTail.setString(5, tail.encodeOpenTransactions());
        saveTail.executeUpdate();
        tailSavedAt = tail.position();
    }

    private void failAll(List<Operation> batch, SQLException cause) {
        RecoveryLogException e = new RecoveryLogException(
                "The recovery log of " + vdb + " could not write to its store: " + cause.getMessage(),
                RecoveryLogException.IO_ERROR,
                cause);
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

    /** Writes what is queued, then stops the thread. */
    @Override
    public void close() throws SQLException {
        queue.add(new Stop());
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connection.close();
    }
}
