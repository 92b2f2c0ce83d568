package org.raidb.recovery;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes batches of log operations to the store, each batch one store transaction: new statement texts
 * first, then the entries referring to them, then outcomes, and now and then the log's tail. Owns the
 * store connection, the statement ids and the tail: exactly one thread calls it (the writer thread, or
 * the store thread behind a {@link LogJournal}).
 */
final class StoreWriter implements AutoCloseable {

    private final Connection connection;
    private final LogEntryRows rows;
    private final LogTail tail;
    private final String saveTailSql;
    private final int vdbId;
    private final int inlineLimit;
    private final StatementIds statementIds;
    /** Null unless the store is an embedded H2 database. */
    private final H2Compaction compaction;

    private final AtomicLong storeCommits = new AtomicLong();
    private volatile long lastStoredPosition;
    private long tailSavedAt;

    private PreparedStatement insert;
    private PreparedStatement update;
    private PreparedStatement insertStatement;
    private PreparedStatement saveTail;

    StoreWriter(
            Connection connection,
            LogEntryRows rows,
            LogTail tail,
            long lastStatementId,
            String saveTailSql,
            int vdbId,
            int inlineLimit)
            throws SQLException {
        this.connection = connection;
        this.rows = rows;
        this.tail = tail;
        this.tailSavedAt = tail.position();
        this.lastStoredPosition = tail.position();
        this.saveTailSql = saveTailSql;
        this.vdbId = vdbId;
        this.inlineLimit = inlineLimit;
        this.statementIds = new StatementIds(lastStatementId, tail.position());
        this.compaction = H2Compaction.of(connection);
        connection.setAutoCommit(false);
    }

    /** Whether the store is an embedded H2 database (the only kind a {@link LogJournal} sits in front of). */
    boolean embeddedH2() {
        return compaction != null;
    }

    /** Which statement rows entries still refer to: the purge asks it. */
    StatementIds statementIds() {
        return statementIds;
    }

    long storeCommits() {
        return storeCommits.get();
    }

    /** The highest position in the store (or in the log's tail when it was opened). */
    long lastStoredPosition() {
        return lastStoredPosition;
    }

    /**
     * Writes the appends and outcomes of {@code batch} in one store transaction (other operations are
     * ignored here). {@code last}: the log closes after it, so the tail is saved and a restart reads
     * nothing. On failure the transaction is rolled back and the exception thrown; the caller stops.
     */
    void write(List<GroupCommitWriter.Operation> batch, boolean last) throws SQLException {
        long highest = -1;
        int appended = 0;
        try {
            // Prepared once: parsing them for every batch was a good part of a one-entry commit.
            if (insert == null) {
                insert = connection.prepareStatement(rows.insert);
                update = connection.prepareStatement(rows.updateOutcome);
                insertStatement = connection.prepareStatement(rows.insertStatement);
                saveTail = connection.prepareStatement(saveTailSql);
            }
            int updates = 0;
            int newStatements = 0;
            for (GroupCommitWriter.Operation op : batch) {
                if (op instanceof GroupCommitWriter.Append a) {
                    LogEntry e = a.entry();
                    Long statementId = null;
                    if (e.sql() != null) {
                        String key = LogEntryRows.statementKey(e);
                        statementId = statementIds.known(key, e.position());
                        if (statementId == null) {
                            statementId = statementIds.add(key, e.position());
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
                    // Within the batch too: one store write from a journal may carry tens of thousands.
                    if (tail.position() - tailSavedAt >= LogTail.SNAPSHOT_EVERY) {
                        saveTail();
                    }
                } else if (op instanceof GroupCommitWriter.SetOutcome s) {
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
            if (last && tail.position() > tailSavedAt) {
                saveTail();
            }
            connection.commit();
            statementIds.committed();
        } catch (SQLException | RuntimeException | Error e) {
            statementIds.rolledBack();
            try {
                connection.rollback();
            } catch (SQLException ignored) {
                // The store is gone; the failure itself is what the callers need to see.
            }
            throw e instanceof SQLException q
                    ? q
                    : new SQLException("the log writer failed: " + e, RecoveryLogException.SYSTEM_ERROR, e);
        }
        storeCommits.incrementAndGet();
        if (compaction != null) {
            try {
                compaction.afterCommit();
            } catch (RuntimeException e) {
                // Only the file's size suffers; the next round tries again.
            }
        }
        if (highest > lastStoredPosition) {
            lastStoredPosition = highest;
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

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
