package org.raidb.controller.advisory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.determinism.SqlDialect;

/** How to ask a lock backend's connection about its advisory locks, and release them, per product. */
public enum LockDialect {
    /** pg_locks lists a connection's advisory locks, session- and transaction-level alike. */
    POSTGRESQL(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid())",
            "SELECT pg_advisory_unlock_all()"),
    /**
     * MariaDB lists user locks only with a plugin that is not loaded by default, so whether a
     * connection may hold some is followed from the calls themselves ({@link SessionLocks}).
     */
    MARIADB(null, "SELECT RELEASE_ALL_LOCKS()");

    private final String holdsQuery;
    private final String releaseAll;

    LockDialect(String holdsQuery, String releaseAll) {
        this.holdsQuery = holdsQuery;
        this.releaseAll = releaseAll;
    }

    public static LockDialect of(DatabaseBackend b) {
        return b.productInfo() != null && SqlDialect.of(b.productInfo().name()) == SqlDialect.MARIADB
                ? MARIADB
                : POSTGRESQL;
    }

    /**
     * Whether the connection holds advisory locks. Asked outside any transaction, so that what it holds
     * is what outlives one: session-level locks.
     *
     * @param mayHold for MariaDB, whether the session's calls may have left it holding some
     */
    public boolean holdsLocks(Connection c, boolean mayHold) throws SQLException {
        if (holdsQuery == null) {
            return mayHold;
        }
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(holdsQuery)) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    /** Releases every advisory lock of the connection, before it goes back to its pool. */
    public void releaseAll(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(releaseAll);
        }
    }
}
