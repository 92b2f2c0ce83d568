package org.raidb.controller.backup.jdbc;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.stream.Collectors;
import org.raidb.controller.backup.BackupException;
import org.raidb.controller.backup.CopyProgress;

/**
 * Copies one table's rows: read with a cursor of {@code batchSize} rows, written as JDBC batches
 * of as many. Neither side holds the table in memory.
 */
final class TableDataCopier {

    private final Dialect source;
    private final Dialect target;
    private final int batchSize;

    TableDataCopier(Dialect source, Dialect target, int batchSize) {
        this.source = source;
        this.target = target;
        this.batchSize = batchSize;
    }

    /**
     * Copies the rows of {@code table} from one connection to the other, in batches; returns how many.
     *
     * @param commitEachBatch true unless the whole copy is one transaction (a target with
     *     transactional DDL)
     * @return rows copied
     */
    long copy(TableDefinition table, Connection from, Connection to, boolean commitEachBatch, CopyProgress progress)
            throws SQLException {
        TypeKind[] kinds = table.columns().stream().map(c -> c.type().kind()).toArray(TypeKind[]::new);
        String select = "SELECT " + columnList(table, source) + " FROM " + source.quote(table.name());
        String insert = "INSERT INTO " + target.quote(table.name()) + " (" + columnList(table, target) + ") VALUES ("
                + String.join(", ", Collections.nCopies(kinds.length, "?")) + ")";
        long rows = 0;
        try (Statement query = from.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
                PreparedStatement inserts = to.prepareStatement(insert)) {
            query.setFetchSize(batchSize);
            try (ResultSet rs = query.executeQuery(select)) {
                int pending = 0;
                while (rs.next()) {
                    for (int i = 0; i < kinds.length; i++) {
                        target.bind(inserts, i + 1, kinds[i], source.read(rs, i + 1, kinds[i]));
                    }
                    inserts.addBatch();
                    if (++pending == batchSize) {
                        flush(table, inserts, to, commitEachBatch);
                        progress.advance(pending);
                        rows += pending;
                        pending = 0;
                    }
                }
                if (pending > 0) {
                    flush(table, inserts, to, commitEachBatch);
                    progress.advance(pending);
                    rows += pending;
                }
            }
        }
        return rows;
    }

    private void flush(TableDefinition table, PreparedStatement inserts, Connection to, boolean commit)
            throws SQLException {
        try {
            inserts.executeBatch();
            if (commit) {
                to.commit();
            }
        } catch (BatchUpdateException e) {
            // pgjdbc puts the server's reason in the next exception; the batch exception only says "batch entry n".
            SQLException cause = e.getNextException() != null ? e.getNextException() : e;
            throw new BackupException(
                    "copying rows of " + table.name() + " into the " + target.productName() + " target failed: "
                            + cause.getMessage(),
                    cause.getSQLState(),
                    e);
        }
    }

    private static String columnList(TableDefinition table, Dialect dialect) {
        return table.columns().stream().map(c -> dialect.quote(c.name())).collect(Collectors.joining(", "));
    }
}
