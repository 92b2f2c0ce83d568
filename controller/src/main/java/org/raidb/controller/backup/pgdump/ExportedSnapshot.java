package org.raidb.controller.backup.pgdump;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.raidb.controller.backup.BackendEndpoint;
import org.raidb.controller.backup.BackupException;

/**
 * A source transaction whose snapshot pg_dump adopts ({@code --snapshot}), kept open until the dump
 * ends. Counting rows inside it gives exact totals for the progress and the dump result: the rows
 * counted are the rows pg_dump writes, even while the source takes writes.
 */
final class ExportedSnapshot implements AutoCloseable {

    // quote_ident quotes exactly as the server needs, for the count below.
    private static final String USER_TABLES =
            "SELECT n.nspname || '.' || c.relname, quote_ident(n.nspname) || '.' || quote_ident(c.relname)"
                    + " FROM pg_class c"
                    + " JOIN pg_namespace n ON n.oid = c.relnamespace"
                    + " WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema')"
                    + " AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'"
                    + " ORDER BY 1, 2";

    private final Connection connection;
    private final String id;

    private ExportedSnapshot(Connection connection, String id) {
        this.connection = connection;
        this.id = id;
    }

    static ExportedSnapshot open(BackendEndpoint source) throws SQLException {
        Connection connection;
        try {
            connection = DriverManager.getConnection(source.jdbcUrl(), source.credentials());
        } catch (SQLException e) {
            throw BackupException.unreachable(source, e);
        }
        try {
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            connection.setReadOnly(true);
            try (Statement s = connection.createStatement();
                    ResultSet rs = s.executeQuery("SELECT pg_export_snapshot()")) {
                rs.next();
                return new ExportedSnapshot(connection, rs.getString(1));
            }
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
    }

    /** What pg_dump's {@code --snapshot} takes. */
    String id() {
        return id;
    }

    /**
     * Rows of every table of the database outside the system schemas, keyed as pg_dump's verbose
     * output names them: {@code schema.table}, unquoted.
     */
    Map<String, Long> rowsPerTable() throws SQLException {
        Map<String, String> quotedNames = new LinkedHashMap<>();
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery(USER_TABLES)) {
            while (rs.next()) {
                quotedNames.put(rs.getString(1), rs.getString(2));
            }
        }
        Map<String, Long> rows = new LinkedHashMap<>();
        for (Map.Entry<String, String> table : quotedNames.entrySet()) {
            // ONLY: inheritance children are tables of their own, counted once.
            try (Statement s = connection.createStatement();
                    ResultSet rs = s.executeQuery("SELECT count(*) FROM ONLY " + table.getValue())) {
                rs.next();
                rows.put(table.getKey(), rs.getLong(1));
            }
        }
        return rows;
    }

    /** Ends the transaction; pg_dump must be done with the snapshot by then. */
    @Override
    public void close() throws SQLException {
        try {
            connection.rollback();
        } finally {
            connection.close();
        }
    }
}
