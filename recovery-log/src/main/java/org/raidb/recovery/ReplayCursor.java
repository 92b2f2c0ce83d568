package org.raidb.recovery;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a backend that stopped at a checkpoint must re-apply, in write order, read from the log in
 * pages while clients keep writing.
 *
 * <p>Rules (the reasoning is in docs/recovery-log.md): an auto-commit write after the checkpoint is
 * one item; a transaction is one item, released when its COMMIT is read and placed at the COMMIT's
 * position, with every write it made (including writes logged before the checkpoint: they were
 * not committed on the backend when it stopped); rolled-back transactions, FAILED entries, and
 * writes undone by ROLLBACK TO SAVEPOINT are skipped; a transaction without COMMIT yet stays
 * pending. Only durable entries are read.
 */
public final class ReplayCursor implements AutoCloseable {

    private static final int PAGE_POSITIONS = 2000;

    private final RecoveryLog log;
    private final Connection connection;
    private final PreparedStatement page;
    private final long checkpointPosition;
    private final Set<Long> alreadyApplied;
    private final Map<Long, TransactionBuffer> open = new HashMap<>();
    private final ArrayDeque<ReplayItem> ready = new ArrayDeque<>();
    private long nextToRead;

    ReplayCursor(
            RecoveryLog log,
            Connection connection,
            String selectRange,
            long checkpointPosition,
            long scanStart,
            Set<Long> alreadyApplied)
            throws SQLException {
        this.log = log;
        this.connection = connection;
        this.page = connection.prepareStatement(selectRange);
        this.checkpointPosition = checkpointPosition;
        this.nextToRead = scanStart;
        this.alreadyApplied = Set.copyOf(alreadyApplied);
    }

    /** Up to {@code max} items in replay order; empty when nothing more is committed yet. */
    public List<ReplayItem> nextBatch(int max) throws SQLException {
        while (ready.size() < max && readPage()) {
            // keep reading until the batch is full or the durable end of the log is reached
        }
        List<ReplayItem> batch = new ArrayList<>(Math.min(max, ready.size()));
        while (batch.size() < max && !ready.isEmpty()) {
            batch.add(ready.poll());
        }
        return batch;
    }

    /** Transactions begun but neither committed nor rolled back in what has been read. */
    public int pendingTransactions() {
        return open.size();
    }

    /**
     * True when every durable entry has been read and handed out. With writes paused and no
     * transaction pending, the backend is then identical to the others.
     */
    public boolean caughtUp() {
        return ready.isEmpty() && nextToRead > log.lastDurablePosition();
    }

    /** Last log position read so far (for progress with {@link RecoveryLog#entriesBetween}). */
    public long lastPosition() {
        return nextToRead - 1;
    }

    public long checkpointPosition() {
        return checkpointPosition;
    }

    private boolean readPage() throws SQLException {
        long end = log.lastStoredPosition();
        if (nextToRead > end) {
            // At the store's end: what is durable but still only in the journal is stored first.
            long durable = log.lastDurablePosition();
            if (nextToRead > durable) {
                return false;
            }
            log.awaitStored(durable);
            end = durable;
        }
        long upTo = Math.min(nextToRead + PAGE_POSITIONS, end + 1);
        page.setLong(1, nextToRead);
        page.setLong(2, upTo);
        try (ResultSet rs = page.executeQuery()) {
            while (rs.next()) {
                accept(LogEntryRows.read(rs));
            }
        }
        nextToRead = upTo;
        return true;
    }

    private void accept(LogEntry e) throws RecoveryLogException {
        if (e.outcome().status() == Outcome.Status.IN_DOUBT
                && e.position() > checkpointPosition
                && !alreadyApplied.contains(e.position())) {
            throw new RecoveryLogException(
                    "Cannot replay past log position " + e.position() + " (" + e.kind() + " "
                            + e.sql()
                            + "): a controller crash left it in doubt, so whether the backend must apply it is unknown."
                            + " Restore this backend from a dump taken after that position, or add it again as a new backend.",
                    RecoveryLogException.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
        if (e.outcome().failed()) {
            if (e.kind() == EntryKind.COMMIT) {
                // A commit that failed everywhere left nothing to replay.
                open.remove(e.transactionId());
            }
            return;
        }
        switch (e.kind()) {
            case AUTOCOMMIT_WRITE -> releaseIfAfterCheckpoint(new ReplayItem(e.position(), 0, e.login(), List.of(e)));
            case BEGIN -> open.put(e.transactionId(), new TransactionBuffer(e.transactionId(), e.login()));
            case COMMIT -> {
                TransactionBuffer tx = open.remove(e.transactionId());
                if (tx != null && !tx.writes.isEmpty()) {
                    releaseIfAfterCheckpoint(
                            new ReplayItem(e.position(), tx.transactionId, tx.login, List.copyOf(tx.writes)));
                }
            }
            case ROLLBACK -> open.remove(e.transactionId());
            default -> {
                if (e.transactionId() == 0) {
                    // DDL outside a transaction.
                    releaseIfAfterCheckpoint(new ReplayItem(e.position(), 0, e.login(), List.of(e)));
                } else {
                    // computeIfAbsent: the BEGIN may precede the scan start if the controller logs none.
                    open.computeIfAbsent(e.transactionId(), id -> new TransactionBuffer(id, e.login()))
                            .apply(e);
                }
            }
        }
    }

    private void releaseIfAfterCheckpoint(ReplayItem item) {
        // Everything at or before the checkpoint is already on the backend (or in its dump), and so is
        // what the checkpoint lists as applied after it.
        if (item.orderPosition() > checkpointPosition && !alreadyApplied.contains(item.orderPosition())) {
            ready.add(item);
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            page.close();
        } finally {
            connection.close();
        }
    }
}
