package org.raidb.controller.backup.jdbc;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.raidb.controller.backup.BackendEndpoint;
import org.raidb.controller.backup.BackupException;
import org.raidb.controller.backup.Backuper;
import org.raidb.controller.backup.BackuperOptions;
import org.raidb.controller.backup.CopyProgress;
import org.raidb.controller.backup.DumpFile;
import org.raidb.controller.backup.DumpResult;
import org.raidb.controller.backup.SnapshotHook;

/**
 * Copies tables, their rows, primary keys, indexes, foreign keys and sequences through JDBC, between
 * PostgreSQL, MariaDB/MySQL and H2 in any direction (types mapped as {@link TypeKind} shows). A dump
 * is an H2 database file written by the same copy, so it can be restored into any of them.
 *
 * <p>Options: {@code batchSize} (rows per fetch and per insert batch, default 1000); {@code
 * skipTablePrefix} (tables whose name starts with it, in any case, are not copied; default {@code
 * raidb_}, the controller's own tables; empty copies all).
 */
public final class JdbcCopier implements Backuper {

    public static final String NAME = "jdbcCopy";
    public static final String BATCH_SIZE = "batchSize";
    public static final String SKIP_TABLE_PREFIX = "skipTablePrefix";
    static final int DEFAULT_BATCH_SIZE = 1000;
    static final String DEFAULT_SKIP_TABLE_PREFIX = "raidb_";

    private final int batchSize;
    private final String skipTablePrefix;

    public JdbcCopier(int batchSize, String skipTablePrefix) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
        }
        this.batchSize = batchSize;
        this.skipTablePrefix = skipTablePrefix.toLowerCase(Locale.ROOT);
    }

    /** From the configuration's options. */
    public static JdbcCopier configured(Map<String, String> options) {
        BackuperOptions checked = BackuperOptions.check(NAME, options, Set.of(BATCH_SIZE, SKIP_TABLE_PREFIX));
        return new JdbcCopier(
                checked.positiveInt(BATCH_SIZE, DEFAULT_BATCH_SIZE),
                checked.string(SKIP_TABLE_PREFIX, DEFAULT_SKIP_TABLE_PREFIX));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public DumpResult dump(BackendEndpoint source, Path dumpPath, CopyProgress progress) throws SQLException {
        return dump(source, dumpPath, progress, () -> {});
    }

    /**
     * {@inheritDoc}
     *
     * <p>The source is read in one REPEATABLE READ transaction whose snapshot is fixed before anything is read
     * (PostgreSQL: at its first statement; MariaDB: START TRANSACTION WITH CONSISTENT SNAPSHOT, InnoDB tables
     * only). {@code snapshotTaken} runs once the schema is read, with the sequences' and auto-increment values
     * (not transactional, so read while writes are held), and on PostgreSQL every table locked ACCESS SHARE (so
     * that a TRUNCATE waits for the dump rather than empty a table in its snapshot); the rows are read from the
     * snapshot while the source takes writes. From H2, which fixes no such snapshot, it runs after the whole dump.
     */
    @Override
    public DumpResult dump(BackendEndpoint source, Path dumpPath, CopyProgress progress, Runnable snapshotTaken)
            throws SQLException {
        // Outermost: a dump that fails before its snapshot still runs snapshotTaken.
        try (SnapshotHook hook = new SnapshotHook(snapshotTaken)) {
            long begin = System.nanoTime();
            Dialect sourceDialect = Dialect.forUrl(source.jdbcUrl());
            Path partial = DumpFile.partialFor(dumpPath);
            Path h2File = H2DumpFile.fileOf(partial);
            try {
                DatabaseCopy.Totals totals;
                try (Connection from = connect(source, sourceDialect);
                        Connection h2 = H2DumpFile.create(partial)) {
                    totals = copier(sourceDialect, new H2Dialect()).run(from, h2, "dumping", progress, hook::fire);
                    H2DumpFile.writeInfo(
                            h2,
                            Map.of(
                                    "source",
                                    source.toString(),
                                    "source_product",
                                    sourceDialect.productName(),
                                    "dumped_at",
                                    Instant.now().toString(),
                                    "tables",
                                    Integer.toString(totals.tables()),
                                    "rows",
                                    Long.toString(totals.rows())));
                }
                DumpFile.publish(h2File, dumpPath);
                return new DumpResult(
                        NAME,
                        dumpPath,
                        DumpFile.size(dumpPath),
                        totals.tables(),
                        totals.rows(),
                        Duration.ofNanos(System.nanoTime() - begin));
            } finally {
                DumpFile.discard(h2File);
                DumpFile.discard(partial);
            }
        }
    }

    @Override
    public void restore(Path dumpPath, BackendEndpoint target, CopyProgress progress) throws SQLException {
        Dialect targetDialect = Dialect.forUrl(target.jdbcUrl());
        try (H2DumpFile.Reader dump = H2DumpFile.open(dumpPath);
                Connection to = connect(target, targetDialect)) {
            copier(new H2Dialect(), targetDialect).run(dump.connection(), to, "restoring", progress);
        }
    }

    @Override
    public void copy(BackendEndpoint source, BackendEndpoint target, CopyProgress progress) throws SQLException {
        Dialect sourceDialect = Dialect.forUrl(source.jdbcUrl());
        Dialect targetDialect = Dialect.forUrl(target.jdbcUrl());
        try (Connection from = connect(source, sourceDialect);
                Connection to = connect(target, targetDialect)) {
            copier(sourceDialect, targetDialect).run(from, to, "copying", progress);
        }
    }

    private DatabaseCopy copier(Dialect from, Dialect to) {
        return new DatabaseCopy(from, to, tablesToCopy(), batchSize);
    }

    /** Not the controller's own tables (by prefix), never a dump's marker table. */
    Predicate<String> tablesToCopy() {
        return table -> {
            String name = table.toLowerCase(Locale.ROOT);
            return !name.equals(H2DumpFile.INFO_TABLE)
                    && (skipTablePrefix.isEmpty() || !name.startsWith(skipTablePrefix));
        };
    }

    private static Connection connect(BackendEndpoint endpoint, Dialect dialect) throws BackupException {
        try {
            return DriverManager.getConnection(endpoint.jdbcUrl(), dialect.connectionProperties(endpoint));
        } catch (SQLException e) {
            throw BackupException.unreachable(endpoint, e);
        }
    }
}
