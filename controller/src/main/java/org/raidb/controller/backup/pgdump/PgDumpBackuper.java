package org.raidb.controller.backup.pgdump;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.raidb.controller.backup.BackendEndpoint;
import org.raidb.controller.backup.BackupException;
import org.raidb.controller.backup.Backuper;
import org.raidb.controller.backup.BackuperOptions;
import org.raidb.controller.backup.CopyProgress;
import org.raidb.controller.backup.DumpFile;
import org.raidb.controller.backup.DumpResult;
import org.raidb.controller.backup.SnapshotHook;
import org.raidb.controller.files.PrivateFiles;

/**
 * PostgreSQL's own tools: {@code pg_dump -Fc} to dump, {@code pg_restore --clean --if-exists} to
 * restore. Everything PostgreSQL has is kept (sequences with their values, views, functions,
 * triggers, constraints), but only PostgreSQL can read the dump.
 *
 * <p>Options: {@code toolsDir}, the directory holding pg_dump and pg_restore (default: PATH, else
 * the newest {@code /usr/lib/postgresql/<version>/bin}); {@code tempDir}, where {@link #copy} puts
 * its intermediate dump (default: the JVM's temporary directory).
 */
public final class PgDumpBackuper implements Backuper {

    public static final String NAME = "pgDump";
    public static final String TOOLS_DIR = "toolsDir";
    public static final String TEMP_DIR = "tempDir";

    private final Optional<Path> toolsDir;
    private final Optional<Path> tempDir;

    public PgDumpBackuper(Optional<Path> toolsDir, Optional<Path> tempDir) {
        this.toolsDir = toolsDir;
        this.tempDir = tempDir;
    }

    /** From the configuration's options. */
    public static PgDumpBackuper configured(Map<String, String> options) {
        BackuperOptions checked = BackuperOptions.check(NAME, options, Set.of(TOOLS_DIR, TEMP_DIR));
        return new PgDumpBackuper(checked.path(TOOLS_DIR), checked.path(TEMP_DIR));
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
     * <p>pg_dump reads the snapshot of a transaction opened before it starts ({@code --snapshot}), but a
     * sequence is not transactional: pg_dump reads its current value, whatever the snapshot says. So
     * {@code snapshotTaken} runs once pg_dump has read the catalog and every sequence's value, which it does
     * before any table's contents: at its first "dumping contents of table" line (or at its exit, for a database
     * without tables). Writes are held for pg_dump's start and catalog reads; the tables' contents, the bulk of
     * the dump, are read from the snapshot while the source takes writes, and so are the row counts of the
     * progress and the result.
     */
    @Override
    public DumpResult dump(BackendEndpoint source, Path dumpPath, CopyProgress progress, Runnable snapshotTaken)
            throws SQLException {
        // Outermost: a dump that fails before its snapshot still runs snapshotTaken.
        try (SnapshotHook hook = new SnapshotHook(snapshotTaken)) {
            long begin = System.nanoTime();
            PostgresUrl url = postgresUrl(source);
            PgTools tools = PgTools.locate(toolsDir);
            Path partial = DumpFile.partialFor(dumpPath);
            try (ExportedSnapshot snapshot = ExportedSnapshot.open(source)) {
                VerboseProgress tables = new VerboseProgress(VerboseProgress.PG_DUMP_TABLE, progress);
                AtomicReference<Map<String, Long>> rows = new AtomicReference<>(Map.of());
                ExternalTool pgDump = new ExternalTool(tools.pgDump());
                ExternalTool.Outcome outcome = pgDump.run(
                        List.of(
                                "--format=custom",
                                "--verbose",
                                "--no-password",
                                "--snapshot=" + snapshot.id(),
                                "--file=" + partial),
                        environment(url, source),
                        tables::line,
                        VerboseProgress.PG_DUMP_TABLE.asMatchPredicate(),
                        () -> {
                            hook.fire();
                            // Counted in the snapshot once the writes go on: still exactly the rows pg_dump writes.
                            Map<String, Long> counted = snapshot.rowsPerTable();
                            rows.set(counted);
                            tables.begin("dumping", "rows", total(counted), t -> counted.getOrDefault(t, 0L));
                        });
                if (outcome.exitCode() != 0) {
                    throw pgDump.failure(
                            outcome,
                            "dumping " + source,
                            "Check that " + tools.pgDump()
                                    + " is of the server's major version or newer, and that the user may read every table.");
                }
                tables.end();
                DumpFile.publish(partial, dumpPath);
                return new DumpResult(
                        NAME,
                        dumpPath,
                        DumpFile.size(dumpPath),
                        rows.get().size(),
                        total(rows.get()),
                        Duration.ofNanos(System.nanoTime() - begin));
            } finally {
                DumpFile.discard(partial);
            }
        }
    }

    @Override
    public void restore(Path dumpPath, BackendEndpoint target, CopyProgress progress) throws SQLException {
        DumpFile.requireExisting(dumpPath);
        PostgresUrl url = postgresUrl(target);
        PgTools tools = PgTools.locate(toolsDir);
        ExternalTool pgRestore = new ExternalTool(tools.pgRestore());
        long tables = tablesWithData(pgRestore, dumpPath);
        checkReachable(target);
        progress.begin("restoring", "tables", tables);
        VerboseProgress done = new VerboseProgress(VerboseProgress.PG_RESTORE_TABLE, t -> 1, progress);
        // One transaction: a restore that fails leaves the target as it was, not half replaced.
        ExternalTool.Outcome outcome = pgRestore.run(
                List.of(
                        "--clean",
                        "--if-exists",
                        "--no-owner",
                        "--no-privileges",
                        "--no-tablespaces",
                        "--no-subscriptions",
                        "--single-transaction",
                        "--exit-on-error",
                        "--verbose",
                        "--no-password",
                        "--dbname=" + connectionString(url, target),
                        dumpPath.toAbsolutePath().toString()),
                url.libpqEnvironment(target),
                done::line);
        if (outcome.exitCode() != 0) {
            throw pgRestore.failure(
                    outcome,
                    "restoring " + dumpPath.toAbsolutePath() + " into " + target,
                    "The target is unchanged (the restore runs in one transaction); fix the cause and restore again.");
        }
        done.end();
    }

    @Override
    public void copy(BackendEndpoint source, BackendEndpoint target, CopyProgress progress) throws SQLException {
        Path dump;
        try {
            Path dir = tempDir.orElse(Path.of(System.getProperty("java.io.tmpdir")));
            dump = PrivateFiles.createTempFile(dir, "raidb-copy-", ".pgdump");
        } catch (IOException e) {
            throw BackupException.io(
                    "cannot create the intermediate dump file of a copy (check the backuper option " + TEMP_DIR + ")",
                    e);
        }
        try {
            dump(source, dump, progress);
            restore(dump, target, progress);
        } finally {
            DumpFile.discard(dump);
        }
    }

    private static long total(Map<String, Long> rowsPerTable) {
        return rowsPerTable.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * The server and credentials for libpq, and pg_dump's messages in English: the verbose lines that say where it
     * is are matched as it prints them (in another language, snapshotTaken only comes at its exit).
     */
    private static Map<String, String> environment(PostgresUrl url, BackendEndpoint source) {
        Map<String, String> environment = new HashMap<>(url.libpqEnvironment(source));
        environment.put("LC_MESSAGES", "C");
        return environment;
    }

    /**
     * Entries of table data in the dump's table of contents. Reading it first also proves the file is
     * a dump pg_restore can read, before anything in the target is dropped.
     */
    private static long tablesWithData(ExternalTool pgRestore, Path dumpPath) throws SQLException {
        ExternalTool.Outcome listing =
                pgRestore.run(List.of("--list", dumpPath.toAbsolutePath().toString()), Map.of(), line -> {});
        if (listing.exitCode() != 0) {
            throw pgRestore.failure(
                    listing,
                    "reading " + dumpPath.toAbsolutePath(),
                    "The file is not a dump written by pg_dump -Fc (backuper " + NAME
                            + "), or it is damaged: restore another dump or take a new one.");
        }
        return listing.stdout()
                .lines()
                .filter(line -> !line.startsWith(";") && line.contains(" TABLE DATA "))
                .count();
    }

    /** A target that is down gives 08001 naming it, as the source does, rather than a tool's exit code. */
    private static void checkReachable(BackendEndpoint target) throws BackupException {
        try (Connection c = DriverManager.getConnection(target.jdbcUrl(), target.credentials())) {
            c.isValid(5);
        } catch (SQLException e) {
            throw BackupException.unreachable(target, e);
        }
    }

    /**
     * pg_restore's {@code --dbname} as a connection string holding only the database name, quoted, so
     * that a name with '=' or spaces is not read as a connection string of its own. Server, user and
     * password come from the environment.
     */
    static String connectionString(PostgresUrl url, BackendEndpoint endpoint) {
        String database =
                url.database().isEmpty() ? url.libpqEnvironment(endpoint).getOrDefault("PGUSER", "") : url.database();
        return "dbname='" + database.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    private static PostgresUrl postgresUrl(BackendEndpoint endpoint) throws BackupException {
        if (!endpoint.jdbcUrl().startsWith(PostgresUrl.PREFIX)) {
            throw new BackupException(
                    "backuper " + NAME + " works on PostgreSQL only, not on " + endpoint
                            + ": use the backuper jdbcCopy for other products",
                    BackupException.UNSUPPORTED);
        }
        try {
            return PostgresUrl.parse(endpoint.jdbcUrl());
        } catch (IllegalArgumentException e) {
            throw new BackupException(e.getMessage(), BackupException.UNREACHABLE, e);
        }
    }
}
