package org.raidb.controller.request;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.raidb.balancer.NoBackendAvailableException;
import org.raidb.balancer.Request;
import org.raidb.balancer.RequestKind;
import org.raidb.controller.advisory.LockBackend;
import org.raidb.controller.advisory.LockDialect;
import org.raidb.controller.advisory.SessionLocks;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backend.FailureClassifier;
import org.raidb.controller.transaction.BackendLane;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.transaction.Transaction;
import org.raidb.controller.transaction.TransactionEnd;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.recovery.DisableCause;

/**
 * The path of a statement that calls advisory-lock functions: it runs on the {@link LockBackend}
 * only, on the session's own connection there, so that locks behave as on one server (a key taken
 * by one session is refused to every other, a lock is released on the connection that took it).
 *
 * <p>Which connection: in a transaction, its lane on the lock backend (transaction-level locks end
 * with it); in auto-commit mode, the session's pinned connection if it holds session-level locks,
 * else a pooled one. After the statement, and when a transaction's part on the lock backend is
 * given back, the connection is asked whether it still holds locks: if so the session keeps it,
 * else it goes back to its pool holding none. At the end of the session its locks are released.
 *
 * <p>When the lock backend leaves the array, its locks are gone: the holding session's next statement
 * fails once with 40001, its transaction is rolled back, and the next lock backend takes over.
 */
final class AdvisoryLockPath {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(AdvisoryLockPath.class);
    /** How long an ended session waits for its last transaction's part on the lock backend to end. */
    private static final Duration SETTLE_AT_END = Duration.ofSeconds(30);

    private final BackendArray vdb;
    private final BackendConnections connections;
    private final BackendLanes lanes;
    private final SnapshotReads snapshots;
    private final TransactionEnd ends;
    private final LockBackend lockBackend;

    AdvisoryLockPath(
            BackendArray vdb,
            BackendConnections connections,
            BackendLanes lanes,
            SnapshotReads snapshots,
            TransactionEnd ends) {
        this.vdb = vdb;
        this.connections = connections;
        this.lanes = lanes;
        this.snapshots = snapshots;
        this.ends = ends;
        this.lockBackend = new LockBackend(vdb.backends());
    }

    StatementResult execute(SessionState s, AnalyzedStatement a, ExecuteRequest r) throws SQLException {
        if (a.kind() != StatementKind.READ && a.kind() != StatementKind.CALL) {
            throw new SQLException(
                    "advisory-lock functions " + a.advisoryLocks().functions() + " called in a statement that"
                            + " writes would lock on every backend: call them in a SELECT of their own, before or after the write",
                    SqlStates.FEATURE_NOT_SUPPORTED);
        }
        Transaction tx = s.transaction();
        return tx == null ? autoCommit(s, a, r) : inTransaction(s, a, r, tx);
    }

    private StatementResult autoCommit(SessionState s, AnalyzedStatement a, ExecuteRequest r) throws SQLException {
        SessionLocks locks = s.advisoryLocks();
        locks.awaitSettled(); // the last transaction's part on the lock backend may still be given back
        SQLException lastFailure = null;
        for (int attempt = 0; attempt < vdb.backends().size(); attempt++) {
            refuseIfLost(s); // the lock backend may have changed under the pinned connection since the session's check
            DatabaseBackend b = lockBackend(a, null);
            Connection pinned = locks.pinned();
            Connection c = pinned;
            b.requestStarted();
            try {
                c = pinned != null ? connections.preparedPin(pinned, s) : connections.borrow(b, s);
                StatementResult result = connections.runner().run(c, r, false, () -> {}, s.running());
                afterAutoCommit(s, a, b, c);
                return result;
            } catch (SQLException e) {
                if (c == null) { // no connection to be had
                    if (!FailureClassifier.isBackendFailure(e)) {
                        throw e;
                    }
                    vdb.disableWithoutWaiting(b, DisableCause.failure("cannot open a connection: " + e.getMessage()));
                    lastFailure = e;
                    continue;
                }
                if (!FailureClassifier.isBackendFailure(e)) {
                    afterAutoCommit(s, a, b, c); // a statement that failed after taking a lock keeps it
                    throw e;
                }
                if (pinned != null) {
                    lostWith(s, b, c, e);
                    throw lost(s);
                }
                vdb.disableWithoutWaiting(b, DisableCause.failure("advisory-lock call failed: " + e.getMessage()));
                connections.discard(c);
                lastFailure = e; // the session held nothing there: the next lock backend answers
            } catch (RuntimeException e) {
                if (pinned == null && c != null) {
                    connections.giveBack(c, s);
                }
                throw e;
            } finally {
                b.requestEnded();
            }
        }
        throw Errors.noBackendLeft(vdb, lastFailure);
    }

    /** After an auto-commit lock call: the session keeps the connection while it holds locks on it. */
    private void afterAutoCommit(SessionState s, AnalyzedStatement a, DatabaseBackend b, Connection c) {
        SessionLocks locks = s.advisoryLocks();
        locks.called(a.advisoryLocks());
        boolean wasPinned = locks.pinned() == c;
        boolean holds;
        try {
            // Transaction-level locks of an auto-commit statement ended with it: nothing else changed.
            holds = a.advisoryLocks().changesSessionLocks()
                    ? LockDialect.of(b).holdsLocks(c, locks.mayHoldMariaDbLocks())
                    : wasPinned;
        } catch (SQLException e) {
            lostWith(s, b, c, e);
            if (a.advisoryLocks().changesSessionLocks()) {
                locks.lost(b); // it may have just taken a lock that went with the connection
            }
            return;
        }
        if (holds && !wasPinned) {
            locks.pin(b, c, BackendConnections.settingsOf(s));
            connections.keepOnReturn(c, returned -> keptAfterTransaction(s, b, returned));
        } else if (!holds) {
            locks.unpinIf(c);
            connections.stopKeeping(c);
            connections.giveBack(c, s);
        }
    }

    private StatementResult inTransaction(SessionState s, AnalyzedStatement a, ExecuteRequest r, Transaction tx)
            throws SQLException {
        SessionLocks locks = s.advisoryLocks();
        DatabaseBackend b = lockBackend(a, tx);
        DatabaseBackend snapshot = snapshots.backend(tx);
        if (snapshot != null && snapshot != b && !a.tablesRead().isEmpty()) {
            throw new SQLException(
                    "advisory locks are taken on backend " + b.name() + ", but this transaction reads its "
                            + "snapshot on " + snapshot.name()
                            + ": take the lock in a statement that reads no table, or before the "
                            + "transaction's first read",
                    SqlStates.FEATURE_NOT_SUPPORTED);
        }
        BackendLane lane = lanes.joinTransaction(tx, b, s);
        Connection c = lane.connection();
        locks.lockedIn(tx.id(), b);
        locks.settling(tx.id());
        connections.keepOnReturn(c, returned -> keptAfterTransaction(s, b, returned));
        lane.idle().join(); // the transaction's earlier writes on this backend come first
        b.requestStarted();
        try {
            StatementResult result = connections.runner().run(c, r, false, () -> {}, s.running());
            snapshots.readFrom(tx, b);
            return result;
        } catch (SQLException e) {
            if (FailureClassifier.isBackendFailure(e)) {
                vdb.disableWithoutWaiting(b, DisableCause.failure("advisory-lock call failed: " + e.getMessage()));
                lanes.leaveTransaction(tx, b);
                locks.lost(b);
                throw lost(s);
            }
            tx.abort(e); // PostgreSQL refuses the rest of the transaction, as after any failed statement
            throw e;
        } finally {
            locks.called(a.advisoryLocks());
            b.requestEnded();
        }
    }

    /**
     * A connection that ran lock calls is given back (its transaction ended, or its backend left the
     * transaction): it stays the session's if it still holds locks. Runs on whichever thread gives it back.
     */
    private boolean keptAfterTransaction(SessionState s, DatabaseBackend b, Connection c) {
        SessionLocks locks = s.advisoryLocks();
        try {
            if (!c.getAutoCommit()) {
                c.rollback(); // already ended, unless its backend left the transaction
                c.setAutoCommit(true);
            }
            // Out of the array, its locks are no one's any more: its pools are closed with it.
            boolean enabled = b.isEnabled();
            boolean holds = enabled && LockDialect.of(b).holdsLocks(c, locks.mayHoldMariaDbLocks());
            if (!enabled) {
                locks.failed(b, c);
            }
            if (holds) {
                locks.pin(b, c, null); // given back with RESET ALL: prepared again before its next use
            } else {
                locks.unpinIf(c);
                connections.stopKeeping(c);
            }
            return holds;
        } catch (SQLException | RuntimeException e) {
            locks.failed(b, c);
            connections.stopKeeping(c);
            return false;
        } finally {
            locks.settle();
        }
    }

    /** The connection failed while the session may have held locks on it. */
    private void lostWith(SessionState s, DatabaseBackend b, Connection c, SQLException e) {
        if (FailureClassifier.isBackendFailure(e)) {
            vdb.disableWithoutWaiting(b, DisableCause.failure("advisory-lock call failed: " + e.getMessage()));
        }
        s.advisoryLocks().failed(b, c);
        connections.stopKeeping(c);
        connections.discard(c);
    }

    /** As {@link #refuseIfLost}, rolling back the transaction the session is told to run again. */
    void refuseIfLocksLost(SessionState s) throws SQLException {
        try {
            refuseIfLost(s);
        } catch (SQLException e) {
            throw ends.rollBackVictim(s, e);
        }
    }

    /**
     * Fails the statement about to run if the session's locks were lost with their backend since its
     * last statement: the client must not go on as if it still held them. Once: the session is usable.
     */
    void refuseIfLost(SessionState s) throws SQLException {
        SessionLocks locks = s.advisoryLocks();
        if (locks.isEmpty()) {
            return;
        }
        Transaction tx = s.currentTransaction();
        DatabaseBackend gone = locks.pinnedOn();
        boolean pinGone =
                gone != null && (!gone.isEnabled() || lockBackend.current() != gone || closed(locks.pinned()));
        DatabaseBackend txOn = locks.lockingTransactionOn(tx == null ? 0 : tx.id());
        if (pinGone || (txOn != null && (!txOn.isEnabled() || tx.lane(txOn) == null))) {
            locks.lost(pinGone ? gone : txOn);
        }
        if (locks.pinnedOn() != null && locks.pinnedOn() == locks.lostBackend()) {
            Connection c = locks.unpin();
            connections.stopKeeping(c);
            connections.discard(c); // its backend is out of the array: its pool is closed with it
        }
        if (locks.lostBackend() != null) {
            throw lost(s);
        }
    }

    /** The session has ended: its locks are released and its connection goes back to the pool. */
    void sessionEnded(SessionState s) {
        SessionLocks locks = s.advisoryLocks();
        if (!locks.awaitSettled(SETTLE_AT_END)) {
            log.warn(
                    "session {}: its connection to the lock backend was not given back within {}: its advisory locks are "
                            + "released when that connection closes",
                    s.id(),
                    SETTLE_AT_END);
            return;
        }
        DatabaseBackend b = locks.pinnedOn();
        Connection c = locks.unpin();
        if (c == null) {
            return;
        }
        connections.stopKeeping(c);
        try {
            LockDialect.of(b).releaseAll(c);
        } catch (SQLException e) {
            // a broken connection holds nothing any more; the pool checks it before lending it again
        }
        connections.giveBack(c, s);
    }

    private SQLException lost(SessionState s) {
        DatabaseBackend b = s.advisoryLocks().takeLost();
        boolean inTransaction = s.currentTransaction() != null;
        return new SQLException(
                "the advisory locks this session held on backend " + b.name() + " were released: the backend"
                        + " left the array (the lock backend is now " + nameOf(lockBackend.current()) + "). "
                        + (inTransaction
                                ? "The transaction was rolled back: take the locks again and run the transaction again"
                                : "Take the locks again before going on"),
                SqlStates.SERIALIZATION_FAILURE);
    }

    /** The lock backend, which must be able to run the statement. */
    private DatabaseBackend lockBackend(AnalyzedStatement a, Transaction tx) throws SQLException {
        DatabaseBackend b = lockBackend.current();
        if (b == null) {
            throw Errors.noBackendLeft(vdb, null);
        }
        Request request = new Request(
                RequestKind.READ,
                a.tablesRead(),
                Set.of(),
                false,
                tx == null ? 0 : tx.id(),
                tx == null ? Set.of() : tx.backendNames(),
                tx != null && tx.hasWritten());
        try {
            return vdb.balancer().readBackend(request, List.of(b));
        } catch (NoBackendAvailableException e) {
            throw new SQLException(
                    "advisory locks are taken on backend " + b.name() + ", the lock backend, which cannot run"
                            + " this statement (" + e.getMessage()
                            + "): take the lock in a statement that reads no table",
                    SqlStates.FEATURE_NOT_SUPPORTED,
                    e);
        }
    }

    private static boolean closed(Connection pooled) {
        try {
            // The pool aborts the connections of a backend it closes, without closing their handles.
            return pooled.unwrap(Connection.class).isClosed();
        } catch (SQLException e) {
            return true;
        }
    }

    private static String nameOf(DatabaseBackend b) {
        return b == null ? "none: no backend is enabled" : b.name();
    }
}
