package org.raidb.controller.transaction;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Executor;
import org.raidb.controller.determinism.SqlDialect;

/**
 * What ending a transaction needs of the request path above it (logging, running a command on
 * every lane, giving connections back, dropping what the transaction held), given by the request
 * path so that this package does not depend on it.
 */
public interface TransactionPath {
    /** The virtual database's name, part of a two-phase commit's global transaction id. */
    String virtualDatabase();

    /** The level asks for it: a transaction that wrote on several backends commits in two phases (RAIDb-0). */
    boolean commitsInTwoPhases();

    /** The SQL dialect of the backends, which says whether they can prepare a transaction. */
    SqlDialect dialect() throws SQLException;

    /** Where work on several backends runs at once. */
    Executor backendThreads();

    /** Whether {@code tx} runs at REPEATABLE READ or SERIALIZABLE: its end waits for every backend. */
    boolean keepsOneSnapshot(Transaction tx) throws SQLException;

    /** Logs the end of {@code tx} on {@code lanes}; the returned command runs it there. */
    LoggedCommand logEnd(Transaction tx, SessionState s, boolean commit, List<BackendLane> lanes) throws SQLException;

    /**
     * Joins {@code tx} to every enabled backend (a savepoint must exist wherever it may write later)
     * and logs the savepoint command; the returned command runs it there.
     */
    LoggedCommand logSavepoint(Transaction tx, SessionState s, String command, String name) throws SQLException;

    /** What a committing transaction's DDL changed becomes what every session sees; returns how to undo that. */
    Runnable committing(Transaction tx);

    /** Gives a connection of the transaction back to its pool. */
    void giveBack(Connection c, SessionState s);

    /** The transaction has ended everywhere: what it held above the backends (keys, locks, catalogue views) goes. */
    void ended(Transaction tx);
}
