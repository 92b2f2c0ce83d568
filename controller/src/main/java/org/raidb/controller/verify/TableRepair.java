package org.raidb.controller.verify;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.driver.protocol.SqlStates;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes one backend's copy of a table the reference backend's: in one transaction on the wrong backend, its rows
 * are deleted and the reference's copied in. The caller holds writes meanwhile, so both copies stand at the same
 * point of the write order, and checks the checksums again before letting them go.
 */
final class TableRepair {
    private static final Logger log = LoggerFactory.getLogger(TableRepair.class);
    private static final int BATCH = 1000;

    private TableRepair() {}

    /** Returns the rows copied. */
    static long copy(String table, DatabaseBackend reference, DatabaseBackend wrong) throws SQLException {
        try (Connection from = reference.directConnection(null);
                Connection to = wrong.directConnection(null)) {
            String source = quoted(from, table, reference);
            String target = quoted(to, table, wrong);
            withoutForeignKeyChecks(to, wrong);
            to.setAutoCommit(false);
            try {
                try (Statement delete = to.createStatement()) {
                    delete.executeUpdate("DELETE FROM " + target);
                }
                long rows = copyRows(from, source, to, target);
                to.commit();
                return rows;
            } catch (SQLException | RuntimeException e) {
                to.rollback();
                throw e;
            }
        }
    }

    private static String quoted(Connection c, String table, DatabaseBackend b) throws SQLException {
        return TableChecksum.quotedName(c, table)
                .orElseThrow(() -> new SQLException(
                        "table " + table + " is not on backend " + b.name() + " any more: it was dropped meanwhile",
                        SqlStates.UNDEFINED_TABLE));
    }

    /**
     * The wrong copy's rows may be referenced, or reference rows not copied yet: the copy is taken as it is, as a
     * restore would. Needs a superuser on PostgreSQL ({@code session_replication_role}); without, the checks stay on
     * and a copy they refuse fails and changes nothing.
     */
    private static void withoutForeignKeyChecks(Connection c, DatabaseBackend b) {
        try (Statement s = c.createStatement()) {
            s.execute(
                    TableChecksum.isPostgreSql(c)
                            ? "SET session_replication_role = replica"
                            : "SET FOREIGN_KEY_CHECKS = 0");
        } catch (SQLException e) {
            log.info("repair on backend {}: foreign-key checks stay on ({})", b.name(), e.getMessage());
        }
    }

    private static long copyRows(Connection from, String source, Connection to, String target) throws SQLException {
        long rows = 0;
        try (Statement query = from.createStatement()) {
            from.setAutoCommit(false); // pgjdbc streams with a cursor only in a transaction
            query.setFetchSize(BATCH);
            try (ResultSet rs = query.executeQuery("SELECT * FROM " + source)) {
                ResultSetMetaData meta = rs.getMetaData();
                int n = meta.getColumnCount();
                String quote = to.getMetaData().getIdentifierQuoteString().trim();
                List<String> columns = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    String name = meta.getColumnName(i);
                    columns.add(quote + name.replace(quote, quote + quote) + quote);
                }
                String insert = "INSERT INTO " + target + " (" + String.join(", ", columns) + ") VALUES ("
                        + String.join(", ", Collections.nCopies(n, "?")) + ")";
                try (PreparedStatement inserts = to.prepareStatement(insert)) {
                    int pending = 0;
                    while (rs.next()) {
                        for (int i = 1; i <= n; i++) {
                            inserts.setObject(i, rs.getObject(i));
                        }
                        inserts.addBatch();
                        rows++;
                        if (++pending == BATCH) {
                            inserts.executeBatch();
                            pending = 0;
                        }
                    }
                    if (pending > 0) {
                        inserts.executeBatch();
                    }
                }
            } finally {
                from.rollback();
            }
        }
        return rows;
    }
}
