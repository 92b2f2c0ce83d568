package org.raidb.controller.request;

import java.sql.Connection;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.transaction.Transaction;
import org.raidb.driver.protocol.Protocol;

/**
 * Borrowing and returning pooled backend connections on behalf of a session, so that a session's
 * settings follow it onto every connection it uses and never leak to the next borrower.
 */
public final class BackendConnections {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(BackendConnections.class);
    private static final String APPLICATION_NAME = Protocol.APPLICATION_NAME;
    /** Statements kept open on this virtual database's backend connections, and what runs them. */
    private final StatementCache statements = new StatementCache();

    private final StatementRunner runner = new StatementRunner(statements);
    /**
     * The name of each backend's pooled connections before any session named one (every connection of a
     * pool is made with the same properties), read from the first one lent: what a session without a name
     * puts back.
     */
    private final Map<DatabaseBackend, String> poolNames = new ConcurrentHashMap<>();
    /**
     * Connections a session may keep when they are given back, with what decides it: those that ran
     * advisory-lock calls ({@link AdvisoryLockPath}). Empty unless some session locks.
     */
    private final Map<Connection, Predicate<Connection>> keptOnReturn = new ConcurrentHashMap<>();

    /** Runs client statements on this virtual database's backend connections. */
    StatementRunner runner() {
        return runner;
    }

    /** A DDL statement or a SET ran: result descriptions kept so far may be stale. */
    void schemaChanged() {
        statements.schemaChanged();
    }

    public Connection borrow(DatabaseBackend b, SessionState s) throws SQLException {
        Connection c = b.connection(s.virtualUser());
        try {
            if (!s.settings().isEmpty()) {
                statements.forget(c); // kept under the default settings: not for this session's
            }
            s.prepare(c);
            name(b, c, s.applicationName());
            return c;
        } catch (SQLException e) {
            discard(c);
            throw e;
        }
    }

    /**
     * Gives the connection the session's ApplicationName, or the pool's own when the session has none,
     * so that pg_stat_activity shows whose work it runs. The name stays on the connection when it goes
     * back to the pool (as PgBouncer leaves it): the next borrower names it again only if its name
     * differs, so that sessions of one application (every pgbench or service instance) borrow without
     * a round trip to the backend, where naming and unnaming each time cost two for every read. pgjdbc
     * knows the name the server holds and sends nothing when it is already the one asked. A name the
     * backend refuses leaves the connection as it was: it is for monitoring, and must not cost the
     * session its statements.
     */
    private void name(DatabaseBackend b, Connection c, String applicationName) throws SQLException {
        String now = c.getClientInfo(APPLICATION_NAME);
        String held = now == null ? "" : now;
        String own = poolNames.computeIfAbsent(b, first -> held);
        String wanted = applicationName == null || applicationName.isEmpty() ? own : applicationName;
        if (!wanted.equals(held)) {
            try {
                c.setClientInfo(APPLICATION_NAME, wanted);
            } catch (SQLClientInfoException refused) {
                log.debug("backend refused application name [{}]: {}", wanted, refused.getMessage());
            }
        }
    }

    /**
     * Rolls back what is left of a transaction and turns auto-commit on: what runs next on the connection
     * (undoing the session's settings) must not be in a transaction that the pool rolls back when the
     * connection returns to it.
     */
    private static void outOfTransaction(Connection c) throws SQLException {
        if (!c.getAutoCommit()) {
            c.rollback();
            c.setAutoCommit(true);
        }
    }

    /**
     * Runs a read in auto-commit mode on a pooled connection, once the session's last write to the
     * backend is done (read your own writes). A result that fits in one batch costs one round trip and
     * the connection goes back at once; a larger one streams through a cursor, and its connection goes
     * back when the cursor is closed.
     *
     * @param mayFitOneBatch false when the result is known to be larger than one batch
     */
    StatementResult readAutoCommit(DatabaseBackend b, SessionState s, ExecuteRequest r, boolean mayFitOneBatch)
            throws SQLException {
        awaitLastWrite(b, s);
        Connection c = borrow(b, s);
        try {
            StatementResult small = mayFitOneBatch ? runner.runWithinOneBatch(c, r, s.running()) : null;
            if (small != null) {
                giveBack(c, s);
                return small;
            }
            c.setAutoCommit(false); // backends stream rows only inside a transaction (pgjdbc cursor fetch)
            StatementResult result = runner.run(c, r, true, () -> finishRead(c, s), s.running());
            if (!result.isCursor()) {
                finishRead(c, s); // nothing left open on the connection
            }
            return result;
        } catch (SQLException | RuntimeException e) {
            giveBack(c, s);
            throw e;
        }
    }

    /** Waits until the session's last auto-commit write is done on {@code b}, so that the session reads it there. */
    static void awaitLastWrite(DatabaseBackend b, SessionState s) {
        CompletableFuture<?> lastWrite = s.lastWrites().get(b);
        if (lastWrite != null) {
            lastWrite.handle((x, e) -> null).join();
        }
    }

    /** Ends an auto-commit read: its connection was put in a transaction only so that rows could stream. */
    public void finishRead(Connection c, SessionState s) {
        try {
            c.commit();
        } catch (SQLException ignored) {
            // the read is complete; the pool validates the connection before lending it again
        }
        giveBack(c, s);
    }

    /** Returns a connection to its pool, undoing the session's settings first. */
    public void giveBack(Connection c, SessionState s) {
        if (c == null) {
            return;
        }
        try {
            outOfTransaction(c);
            if (!s.settings().isEmpty()) {
                statements.forget(c); // kept under this session's settings: not for the next borrower
                try (Statement st = c.createStatement()) {
                    st.execute("RESET ALL");
                }
            }
        } catch (SQLException ignored) {
            // closing below still returns it; HikariCP rolls back and checks it before reuse
        }
        discard(c);
    }

    public void discard(Connection c) {
        if (c == null) {
            return;
        }
        Predicate<Connection> keep = keptOnReturn.isEmpty() ? null : keptOnReturn.get(c);
        if (keep != null && keep.test(c)) {
            return; // still its session's: it holds that session's advisory locks
        }
        try {
            c.close();
        } catch (SQLException | RuntimeException ignored) {
            // A connection of a dead backend, or of a pool closed since it was borrowed (HikariCP then
            // fails with a NullPointerException): nothing is left to release either way.
        }
    }

    /**
     * A connection for a transaction joining a backend, in transaction mode with the transaction's own
     * modes (BEGIN ISOLATION LEVEL …): the session's pinned connection there if it has one (its
     * session-level advisory locks and its transaction must share one backend session, as on one
     * server), else a pooled one.
     */
    Connection borrowForTransaction(DatabaseBackend b, SessionState s, Transaction tx) throws SQLException {
        Connection pinned = s.advisoryLocks().lend(b, tx.id());
        Connection c = pinned != null ? preparedPin(pinned, s) : borrow(b, s);
        try {
            c.setAutoCommit(false);
            if (tx.modes() != null) {
                try (Statement st = c.createStatement()) {
                    st.execute("SET TRANSACTION " + tx.modes());
                }
            }
            return c;
        } catch (SQLException | RuntimeException e) {
            if (pinned != null) {
                giveBack(c, s); // back to the session: a failure here reaches it through its next lock call
            } else {
                discard(c);
            }
            throw e;
        }
    }

    /**
     * The session's pinned connection, carrying the session's current settings: it was prepared when
     * it was borrowed, and the session may have run SET since.
     */
    Connection preparedPin(Connection pinned, SessionState s) throws SQLException {
        Object now = settingsOf(s);
        if (!now.equals(s.advisoryLocks().preparedFor())) {
            statements.forget(pinned);
            try (Statement st = pinned.createStatement()) {
                st.execute("RESET ALL");
            } catch (SQLException notPostgresql) {
                // MariaDB has no RESET ALL: the session's settings are set again over the old ones
            }
            pinned.setReadOnly(s.readOnly());
            s.prepare(pinned);
            s.advisoryLocks().preparedFor(now);
        }
        return pinned;
    }

    /** What a connection prepared for the session carries: compared to know whether a kept one is still right. */
    static Object settingsOf(SessionState s) {
        return List.of(List.copyOf(s.settings()), s.isolation(), s.readOnly());
    }

    /** {@code c} goes back to its pool only if {@code keep} says no when it is given back (or discarded). */
    void keepOnReturn(Connection c, Predicate<Connection> keep) {
        keptOnReturn.put(c, keep);
    }

    /** {@code c} goes back to its pool when given back, as any other. */
    void stopKeeping(Connection c) {
        keptOnReturn.remove(c);
    }
}
