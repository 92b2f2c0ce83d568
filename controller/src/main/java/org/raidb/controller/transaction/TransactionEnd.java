package org.raidb.controller.transaction;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.raidb.controller.analysis.SchemaChange;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.driver.protocol.SqlStates;

/**
 * Commit and rollback: a transaction ends on every backend it joined, in one phase or, where a
 * backend could otherwise keep what another refused, in two ({@link TwoPhaseCommit}). The client is
 * answered when the completion policy is met; each backend's connection goes back to its pool once
 * the transaction has ended there; what the transaction held is released once every backend is done.
 */
public final class TransactionEnd {
    private final TransactionPath path;
    private final BetweenCommitPhases betweenCommitPhases;
    private final SerializableCommit serializableCommit;

    /**
     * Ends transactions through {@code path}.
     *
     * @param betweenCommitPhases run after every backend prepared a two-phase commit (a test's crash point)
     */
    public TransactionEnd(TransactionPath path, BetweenCommitPhases betweenCommitPhases) {
        this.path = path;
        this.betweenCommitPhases = betweenCommitPhases;
        this.serializableCommit = new SerializableCommit(path);
    }

    public void commit(SessionState s) throws SQLException {
        Transaction tx = s.currentTransaction();
        s.endTransaction();
        if (tx == null) {
            return;
        }
        SQLException aborted = tx.abortCause();
        if (aborted != null) {
            try {
                end(tx, s, false);
            } finally {
                s.transactionEnded(aborted.getSQLState()); // a victim's retry keeps its age
            }
            throw new SQLException(
                    "the transaction was rolled back, not committed, because an earlier statement in it failed ("
                            + aborted.getSQLState() + ": " + aborted.getMessage() + "); run the transaction again",
                    SqlStates.isTransactionRollback(aborted.getSQLState())
                            ? aborted.getSQLState()
                            : SqlStates.IN_FAILED_TRANSACTION,
                    aborted);
        }
        try {
            end(tx, s, true);
        } catch (SQLException e) {
            s.transactionEnded(e.getSQLState()); // a serializable commit refused: a victim too
            throw e;
        }
        s.transactionEnded(null);
    }

    /** The client's rollback: the session's next transaction is a new one, with a fresh priority stamp. */
    public void rollback(SessionState s) throws SQLException {
        rollback(s, null);
    }

    /** @param victimState the SQLState that made the transaction a victim; null for the client's rollback */
    private void rollback(SessionState s, String victimState) throws SQLException {
        Transaction tx = s.currentTransaction();
        s.endTransaction();
        if (tx != null) {
            try {
                end(tx, s, false);
            } finally {
                s.transactionEnded(victimState);
            }
        }
    }

    /**
     * A transaction chosen as a deadlock or serialization victim (SQLState class 40), by the scheduler or
     * by any backend, is rolled back on every backend at once: the same victim everywhere, and its locks
     * freed for the transaction it was in the way of. The session keeps the victim's priority stamp
     * for its retry. Returns {@code e}, for the caller to throw.
     */
    public SQLException rollBackVictim(SessionState s, SQLException e) {
        String state = e.getSQLState();
        if (SqlStates.isTransactionRollback(state) && s.currentTransaction() != null) {
            try {
                rollback(s, state);
            } catch (SQLException ignored) {
                // the rollback's own failures were handled by the resolver; the client hears about the victim
            }
        }
        return e;
    }

    /** A statement of a transaction that failed earlier is refused until the client rolls it back. */
    public void refuseIfAborted(SessionState s) throws SQLException {
        Transaction tx = s.currentTransaction();
        SQLException cause = tx == null ? null : tx.abortCause();
        if (cause == null) {
            return;
        }
        if (SqlStates.isTransactionRollback(cause.getSQLState())) {
            // A backend chose it as a victim after the client had its answer (completion first or majority, READ
            // COMMITTED): the victim is rolled back everywhere now, and the client told to run it again.
            throw rollBackVictim(s, new SQLException(cause.getMessage(), cause.getSQLState(), cause));
        }
        throw new SQLException(
                "current transaction is aborted, commands ignored until end of transaction block " + "(it failed on: "
                        + cause.getMessage() + "); roll back",
                SqlStates.IN_FAILED_TRANSACTION);
    }

    private void end(Transaction tx, SessionState s, boolean commit) throws SQLException {
        List<BackendLane> lanes = new ArrayList<>(tx.lanes());
        if (lanes.isEmpty()) {
            // Nothing can commit where no backend is left: what the log holds of it is rolled back.
            endRolledBack(tx, s, lanes);
            return;
        }
        String gid = commit && inTwoPhases(tx, lanes) ? TwoPhaseCommit.gid(path.virtualDatabase(), tx.id()) : null;
        if (gid != null) {
            try {
                TwoPhaseCommit.prepare(lanes, gid, path.backendThreads());
            } catch (SQLException refused) {
                endRolledBack(tx, s, lanes);
                throw refused;
            }
        }
        LoggedCommand logged;
        try {
            logged = path.logEnd(tx, s, commit, lanes);
            if (gid != null) {
                logged.awaitDurable(); // the decision: from here on a restarted controller commits what is prepared
                betweenCommitPhases.reached();
            }
        } catch (SQLException e) {
            // Without its COMMIT in the log the transaction cannot be acknowledged: it is rolled back.
            if (gid != null) {
                for (BackendLane lane : lanes) {
                    try {
                        TwoPhaseCommit.finish(lane.connection(), false, gid);
                    } catch (SQLException ignored) {
                        // left prepared without a COMMIT in the log: rolled back at the next restart
                    }
                }
                endRolledBack(tx, s, lanes);
            } else if (commit) {
                end(tx, s, false);
            }
            throw e;
        }
        // Before any lock is released: the next writer of a table this transaction altered must see its defaults.
        Runnable catalogUndo = commit ? path.committing(tx) : () -> {};
        LoggedCommand.LaneWork work = c -> {
            if (gid != null) {
                TwoPhaseCommit.finish(c, true, gid);
            } else if (commit) {
                c.commit();
            } else {
                c.rollback();
            }
            giveBackEnded(tx, s, lanes, c);
        };
        // Every lane commits on its own: RAIDb-1 and -2 lanes hold copies of the same writes; a RAIDb-0
        // transaction that wrote on several backends was prepared on each above and commits the prepared one.
        try {
            // REPEATABLE READ and SERIALIZABLE: the commit is answered once every backend's outcome is known.
            boolean waitForAll = commit && path.keepsOneSnapshot(tx);
            logged.run(
                    commit ? "COMMIT" : "ROLLBACK", work, commit ? tx : null, () -> release(tx, s, lanes), waitForAll);
        } catch (SQLException e) {
            undoSchemaChanges(tx);
            catalogUndo.run();
            if (commit) {
                throw e;
            }
            // A rollback that fails leaves nothing applied; a dead backend was disabled by the resolver.
        }
        if (!commit) {
            undoSchemaChanges(tx);
        }
    }

    /**
     * Where the level asks for it (RAIDb-0), a transaction that wrote on several backends commits in two
     * phases. So does a SERIALIZABLE one, which a backend may refuse at commit while the others apply it.
     */
    private boolean inTwoPhases(Transaction tx, List<BackendLane> lanes) throws SQLException {
        return tx.writtenBackends().size() > 1
                && (path.commitsInTwoPhases() || serializableCommit.inTwoPhases(tx, lanes));
    }

    /** A transaction that did not commit created, dropped or renamed nothing after all. */
    private static void undoSchemaChanges(Transaction tx) {
        for (Map.Entry<DatabaseBackend, SchemaChange> c : tx.schemaChangesToUndo()) {
            c.getKey().tables().apply(c.getValue().inverse());
        }
    }

    /**
     * A backend on which the transaction has ended gives its connection back at once, not when the
     * last backend has: with completion first or majority, clients go on while a slow or hung backend
     * finishes, and the connections the other backends hold for the transactions waiting on it would
     * otherwise run their pools dry (53300). The transaction's conflict classes stay until every
     * backend is done ({@link #release}).
     */
    private void giveBackEnded(Transaction tx, SessionState s, List<BackendLane> lanes, Connection c) {
        for (BackendLane lane : lanes) {
            if (lane.connection() == c && tx.forget(lane.backend()) != null) {
                path.giveBack(c, s);
            }
        }
    }

    /** A transaction undone before its end was logged: its ROLLBACK is logged and what it held released. */
    private void endRolledBack(Transaction tx, SessionState s, List<BackendLane> lanes) throws SQLException {
        try {
            path.logEnd(tx, s, false, List.of()).awaitDurable();
        } finally {
            release(tx, s, lanes);
        }
    }

    /** The transaction has ended: its connections go back to their pools, its locks and log unit are freed. */
    private void release(Transaction tx, SessionState s, List<BackendLane> lanes) {
        for (BackendLane lane : lanes) {
            if (tx.forget(lane.backend()) != null) {
                path.giveBack(lane.connection(), s);
            }
        }
        path.ended(tx);
        tx.closeLogUnit();
    }
}
