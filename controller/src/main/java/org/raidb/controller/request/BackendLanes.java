package org.raidb.controller.request;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backend.FailureClassifier;
import org.raidb.controller.transaction.BackendLane;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.transaction.Transaction;
import org.raidb.driver.protocol.SqlStates;

/**
 * The lanes statements run on: a transaction's own connection per backend, joined on first use and
 * left when the backend fails, or a borrowed connection for an auto-commit write. Reads, writes,
 * advisory-lock calls and transaction commands all take their lanes here.
 */
final class BackendLanes {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(BackendLanes.class);
    private final BackendArray vdb;
    private final BackendConnections connections;

    BackendLanes(BackendArray vdb, BackendConnections connections) {
        this.vdb = vdb;
        this.connections = connections;
    }

    /**
     * A lane per target: the transaction's own, or a fresh one on a borrowed connection for an
     * auto-commit write. A backend that cannot give a connection because it is down is disabled here
     * and left out.
     */
    List<BackendLane> lanes(List<DatabaseBackend> targets, SessionState s, Transaction tx) throws SQLException {
        List<BackendLane> lanes = new ArrayList<>(targets.size());
        SQLException lastFailure = null;
        try {
            for (DatabaseBackend b : targets) {
                try {
                    lanes.add(
                            tx != null
                                    ? joinTransaction(tx, b, s)
                                    : new BackendLane(b, patiently(b, () -> connections.borrow(b, s))));
                } catch (SQLException e) {
                    if (!b.isEnabled()) {
                        lastFailure = e; // disabled while the write waited for it (hung): the write goes on without it
                        continue;
                    }
                    if (!FailureClassifier.isBackendFailure(e)) {
                        throw e;
                    }
                    vdb.disableFailed(b, "cannot open a connection", e);
                    if (b.isEnabled()) {
                        throw e; // kept (no other backend answers either): a write cannot leave out an enabled backend
                    }
                    lastFailure = e;
                }
            }
        } catch (SQLException | RuntimeException e) {
            if (tx == null) {
                lanes.forEach(l -> connections.giveBack(l.connection(), s));
            }
            throw e;
        }
        if (lanes.isEmpty()) {
            throw Errors.noBackendLeft(vdb, lastFailure);
        }
        return lanes;
    }

    BackendLane joinTransaction(Transaction tx, DatabaseBackend b, SessionState s) throws SQLException {
        BackendLane lane = tx.lane(b);
        if (lane == null) {
            lane = new BackendLane(b, patiently(b, () -> connections.borrowForTransaction(b, s, tx)));
            tx.join(lane);
        }
        return lane;
    }

    /** Borrows a connection from a backend's pool. */
    @FunctionalInterface
    private interface Borrowing {
        Connection borrow() throws SQLException;
    }

    /**
     * A write cannot leave out an enabled backend, so when that backend's pool is busy (53300: every
     * connection in use, the backend answering its probe) the write waits again rather than failing: with
     * completion {@code first} or {@code majority} the slowest backend falls behind and its pool fills
     * with the work queued for it, and it must pace the writers, not refuse them. A backend that hangs
     * instead is disabled by the health monitor meanwhile, and the wait ends. Bounded by the scheduler's
     * lock timeout, like any wait of a write for others.
     */
    private Connection patiently(DatabaseBackend b, Borrowing borrowing) throws SQLException {
        long deadline = System.nanoTime()
                + TimeUnit.MILLISECONDS.toNanos(vdb.scheduler().lockTimeoutMillis());
        while (true) {
            try {
                return borrowing.borrow();
            } catch (SQLException e) {
                if (!SqlStates.TOO_MANY_CONNECTIONS.equals(e.getSQLState())
                        || !b.isEnabled()
                        || System.nanoTime() - deadline > 0) {
                    throw e;
                }
            }
        }
    }

    /** A backend that failed or was outvoted leaves the transaction: its connection is closed, rolling back its part. */
    void leaveTransaction(Transaction tx, DatabaseBackend b) {
        BackendLane lane = tx == null ? null : tx.forget(b);
        if (lane != null) {
            lane.idle().thenRun(() -> connections.discard(lane.connection())).exceptionally(e -> {
                log.error("closing the connection of backend {} that left a transaction failed", b.name(), e);
                return null;
            });
        }
    }
}
