package org.raidb.controller.backup.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.raidb.controller.backup.CopyProgress;

/**
 * One copy from a source connection to a target connection, whatever their products: schema, then
 * rows, then indexes and keys. The source is read in one repeatable-read transaction, so the copy
 * is of one moment even if the source takes writes. On PostgreSQL targets the whole copy is one
 * transaction; elsewhere DDL commits by itself and rows are committed batch by batch.
 */
final class DatabaseCopy {

    /** What a copy did. */
    record Totals(int tables, long rows) {}

    private final Dialect sourceDialect;
    private final Dialect targetDialect;
    private final Predicate<String> tableFilter;
    private final int batchSize;

    DatabaseCopy(Dialect sourceDialect, Dialect targetDialect, Predicate<String> tableFilter, int batchSize) {
        this.sourceDialect = sourceDialect;
        this.targetDialect = targetDialect;
        this.tableFilter = tableFilter;
        this.batchSize = batchSize;
    }

    /** A copy whose source may take writes as soon as it starts: {@link #run(Connection, Connection, String, CopyProgress, Runnable)}. */
    Totals run(Connection source, Connection target, String step, CopyProgress progress) throws SQLException {
        return run(source, target, step, progress, () -> {});
    }

    /**
     * @param step what the progress calls this copy: "dumping", "restoring", "copying"
     * @param snapshotTaken run once the source's snapshot is fixed, the schema, with the sequences' and
     *     auto-increment values, is read (those values are not transactional, so the source's writes must wait
     *     for them) and the tables' definitions are held ({@link Dialect#holdDefinitions}). Not run when the source's product cannot fix a snapshot ({@link Dialect#fixSnapshot}): the
     *     caller then runs it after the copy.
     */
    Totals run(Connection source, Connection target, String step, CopyProgress progress, Runnable snapshotTaken)
            throws SQLException {
        source.setAutoCommit(false);
        source.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        target.setAutoCommit(false);
        try {
            boolean snapshotFixed = sourceDialect.fixSnapshot(source);
            DatabaseSchema schema = new SchemaReader(sourceDialect, tableFilter).read(source);
            if (snapshotFixed) {
                sourceDialect.holdDefinitions(
                        source,
                        schema.tables().stream().map(TableDefinition::name).toList());
                snapshotTaken.run();
            }
            Map<String, Long> counts = rowCounts(source, schema);
            progress.begin(
                    step,
                    "rows",
                    counts.values().stream().mapToLong(Long::longValue).sum());
            SchemaWriter writer = new SchemaWriter(targetDialect, target);
            writer.replace(schema);
            boolean oneTransaction = targetDialect.hasTransactionalDdl();
            TableDataCopier rows = new TableDataCopier(sourceDialect, targetDialect, batchSize);
            long copied = 0;
            for (TableDefinition table : schema.tables()) {
                copied += rows.copy(table, source, target, !oneTransaction, progress);
            }
            writer.complete(schema);
            target.commit();
            source.commit();
            return new Totals(schema.tables().size(), copied);
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(target, e);
            rollbackQuietly(source, e);
            throw e;
        }
    }

    private Map<String, Long> rowCounts(Connection source, DatabaseSchema schema) throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (TableDefinition table : schema.tables()) {
            try (Statement s = source.createStatement();
                    ResultSet rs = s.executeQuery("SELECT count(*) FROM " + sourceDialect.quote(table.name()))) {
                rs.next();
                counts.put(table.name(), rs.getLong(1));
            }
        }
        return counts;
    }

    private static void rollbackQuietly(Connection c, Exception failure) {
        try {
            c.rollback();
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }
}
