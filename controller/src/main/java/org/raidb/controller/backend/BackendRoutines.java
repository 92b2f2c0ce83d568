package org.raidb.controller.backend;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.raidb.controller.determinism.SqlDialect;

/**
 * What one backend's catalogue says about the functions a SELECT may call: which may write and which
 * only read. PostgreSQL: a user function (any schema but {@code pg_catalog} and {@code
 * information_schema}) with a {@code VOLATILE} overload ({@code pg_proc.provolatile = 'v'}, the
 * default) may write, one whose overloads are all {@code STABLE} or {@code IMMUTABLE} only reads; a
 * built-in that is stable or immutable only reads, and a volatile built-in is left to the built-in
 * list. MariaDB: a routine declared {@code NO SQL} or {@code READS SQL DATA} only reads, any other
 * ({@code CONTAINS SQL}, the default, or {@code MODIFIES SQL DATA}) may write; MariaDB does not check
 * the declaration. Names are lower-case and unqualified: overloads and schemas are merged, the
 * writing one winning.
 *
 * <p>Read when the backend starts or is enabled, and again after function DDL; a catalogue that
 * cannot be read is empty, so that every function not on the built-in list may write. Reads are
 * lock-free; reloads are serialized so that an older read never replaces a newer one.
 */
public final class BackendRoutines {
    private static final String POSTGRESQL =
            "SELECT lower(p.proname), n.nspname IN ('pg_catalog', 'information_schema'),"
                    + " bool_or(p.provolatile = 'v') FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace"
                    + " GROUP BY 1, 2";
    private static final String MARIADB = "SELECT LOWER(ROUTINE_NAME), SQL_DATA_ACCESS IN ('NO SQL', 'READS SQL DATA')"
            + " FROM information_schema.ROUTINES"
            + " WHERE ROUTINE_SCHEMA NOT IN ('mysql', 'sys', 'information_schema', 'performance_schema')";

    /** Name to "may write"; a name not here is not known to this backend. */
    private volatile Map<String, Boolean> mayWrite = Map.of();

    /** TRUE: may write here; FALSE: only reads here; null: this backend's catalogue does not say. */
    public Boolean mayWrite(String name) {
        return mayWrite.get(name);
    }

    /** Replaces what is known by the catalogue of the connection's database; empty if it cannot be read. */
    public synchronized void readFrom(Connection c) throws SQLException {
        forget(); // while it is read, and if it cannot be: user functions may write
        SqlDialect dialect = SqlDialect.of(c.getMetaData().getDatabaseProductName());
        Map<String, Boolean> read = new HashMap<>();
        if (dialect == SqlDialect.POSTGRESQL) {
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(POSTGRESQL)) {
                while (rs.next()) {
                    boolean builtIn = rs.getBoolean(2);
                    boolean volatileOverload = rs.getBoolean(3);
                    if (!builtIn || !volatileOverload) {
                        record(read, rs.getString(1), !builtIn && volatileOverload);
                    }
                }
            }
        } else if (dialect == SqlDialect.MARIADB) {
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(MARIADB)) {
                while (rs.next()) {
                    record(read, rs.getString(1), !rs.getBoolean(2));
                }
            }
        }
        mayWrite = Map.copyOf(read);
    }

    /** Nothing is known any more: the catalogue could not be read. */
    public synchronized void forget() {
        mayWrite = Map.of();
    }

    /** How many function names the catalogue told about, for logs and tests. */
    public int size() {
        return mayWrite.size();
    }

    private static void record(Map<String, Boolean> read, String name, boolean writes) {
        read.merge(name, writes, Boolean::logicalOr);
    }
}
