package org.raidb.tools.bench;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import org.raidb.controller.Controller;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.config.AuthenticationConfig;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.config.BackupSettings;
import org.raidb.controller.config.ConfigDefaults;
import org.raidb.controller.config.ControllerSettings;
import org.raidb.controller.config.RaidbConfig;
import org.raidb.controller.config.RecoveryLogSettings;
import org.raidb.controller.config.ReplicationConfig;
import org.raidb.controller.config.SchedulerConfig;
import org.raidb.controller.config.UserCredentials;
import org.raidb.controller.config.VirtualDatabaseConfig;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.embedded.EmbeddedPostgresCluster;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.recovery.LogEntry;
import org.raidb.recovery.Outcome;
import org.raidb.recovery.PendingAppend;
import org.raidb.recovery.RecoveryLog;
import org.raidb.recovery.RecoveryLogException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code raidb bench recovery-log}: what the recovery log costs writes, how big it is against what it records, how
 * fast it brings a backend back, and how it behaves at scale (issue 15). Two embedded PostgreSQL servers, two
 * controllers over them in the same run (one without a log, one with the default embedded H2 log); single-row UPDATEs
 * through each, sides alternating round by round; a batch load through a third, logged, controller; then a backend of
 * the logged controller is disabled, writes go on, and its replay is timed; the logged controller is restarted on its
 * log; and its log is purged while clients write and the admin API is polled.
 */
@Command(
        name = "recovery-log",
        description =
                "Measure write throughput through RAIDb-1 (2 embedded PostgreSQL backends) with the recovery log off "
                        + "and on in the same run, the log's size against what it records (also on a batch load), the "
                        + "replay rate of enable, a restart on the log and a purge under load; print the figures and "
                        + "record them in docs/benchmarks.md.")
public final class RecoveryLogCommand implements Callable<Integer> {
    static final String SECTION = "## Recovery log cost and replay rate";
    static final String SECTION_INTRO = "`bin/raidb bench recovery-log` starts two embedded PostgreSQL servers holding "
            + "`bench_accounts` (`--fsync on|off`, on by default; every entry says which) and two in-process "
            + "controllers over them (RAIDb-1, completion all): one with `<recoveryLog enabled=\"false\"/>`, one with "
            + "the default log (H2 file under dataDir, group commit). `--entries N` first fills the logged "
            + "controller's log with N history entries (appended in batches of 1,000 through the log's API, not run "
            + "on the backends) and a checkpoint is taken after them, so that the figures are those of a large log. "
            + "Single-row auto-commit UPDATEs by random key go through each controller, with 1 and 16 client threads, "
            + "sides alternating round by round, median of the rounds. Then, in order: the log's size (the store's "
            + "bytes, `RecoveryLog.storeBytes()`) against the bytes of SQL text and parameters it records "
            + "(`recordedBytes()`), on a fresh data directory so the whole log; a batch load (`--batch-rows` INSERTs, "
            + "`executeBatch` in batches of 1,000, into a table created for it) through a third controller with a log "
            + "of its own, and the log's growth against what it recorded; one backend of the logged controller is "
            + "disabled, 16 threads write for the replay window, and `enable` replays what it missed: the time from "
            + "the request to the first applied batch, and entries per second; the logged controller is closed and a "
            + "new one started on the same dataDir (restart time); 16 threads write for the measured window without "
            + "purge, then again while `purge log before` the checkpoint taken after the built entries runs (the "
            + "second window is the purge's duration), `show backends` asked of the admin API over HTTP every 50 ms "
            + "in both windows (the target judges the answers during the purge). Targets: issue 4, logging costs at most 15% of write throughput; issue 15, the "
            + "log at most 3× the SQL text and parameters it records (after the write runs and on the batch load), "
            + "and on a 1.5 M-entry log (`--entries 1500000`) restart within 5 s, enable replaying within 1 s and "
            + "at least 20,000 entries/s, writes during a purge of 1 M entries at least 0.8× their throughput without, "
            + "and `show backends` answering within 200 ms throughout. Each entry ends with a table of the issue 15 "
            + "targets and whether this run met them.";
    private static final String NAME = "bench";
    private static final String USER = "bench";
    private static final String PASSWORD = "bench";
    private static final String ADMIN = "admin";
    private static final String ADMIN_PASSWORD = "admin";
    /** The checkpoint taken after the log was filled: the purge phase purges before it. */
    private static final String BUILT_CHECKPOINT = "bench-built";

    @Spec
    CommandSpec spec;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help and exit.")
    boolean help;

    @Option(
            names = "--duration",
            defaultValue = "10",
            paramLabel = "SECONDS",
            description = "Measured seconds per side and measurement, and of the purge phase's window without purge"
                    + " (default ${DEFAULT-VALUE}).")
    int durationSeconds;

    @Option(
            names = "--warmup",
            defaultValue = "3",
            paramLabel = "SECONDS",
            description = "Warm-up seconds (default ${DEFAULT-VALUE}).")
    int warmupSeconds;

    @Option(names = "--rounds", defaultValue = "2", description = "Rounds per measurement (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
            names = "--replay-window",
            defaultValue = "10",
            paramLabel = "SECONDS",
            description =
                    "Seconds of writes the disabled backend misses before it is enabled (default ${DEFAULT-VALUE}).")
    int replayWindowSeconds;

    @Option(
            names = "--rows",
            defaultValue = "10000",
            description = "Rows in bench_accounts (default ${DEFAULT-VALUE}).")
    int rows;

    @Option(
            names = "--record",
            paramLabel = "FILE",
            description = "Markdown file to append to (default docs/benchmarks.md).")
    Path recordFile;

    @Option(names = "--no-record", description = "Print the figures only.")
    boolean noRecord;

    @Option(
            names = "--entries",
            defaultValue = "0",
            paramLabel = "N",
            description = "First fill the logged controller's recovery log with N entries (auto-commit writes recorded"
                    + " as history, appended in batches of 1,000 through the log's API, not run on the backends), so"
                    + " that the figures are those of a large log (default ${DEFAULT-VALUE}).")
    long entries;

    @Option(
            names = "--batch-rows",
            defaultValue = "100000",
            paramLabel = "N",
            description = "INSERTs of the batch load phase, sent with executeBatch in batches of 1,000 (default"
                    + " ${DEFAULT-VALUE}).")
    int batchRows;

    @Option(
            names = "--fsync",
            defaultValue = "on",
            paramLabel = "on|off",
            description = "PostgreSQL's fsync on both servers (default ${DEFAULT-VALUE}, PostgreSQL's own default);"
                    + " the record says which.")
    String fsync;

    @Override
    public Integer call() throws Exception {
        if (durationSeconds < 1
                || warmupSeconds < 0
                || rounds < 1
                || replayWindowSeconds < 1
                || rows < 1
                || entries < 0
                || batchRows < 1) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--duration, --rounds, --replay-window, --rows and --batch-rows must be at least 1, --warmup and"
                            + " --entries at least 0");
        }
        if (!fsync.equals("on") && !fsync.equals("off")) {
            throw new ParameterException(spec.commandLine(), "--fsync must be on or off, not " + fsync);
        }
        boolean fsyncOn = fsync.equals("on");
        PrintWriter out = spec.commandLine().getOut();
        Instant start = Instant.now();
        out.println("Machine: " + Machine.current().describe());
        out.println("Starting two embedded PostgreSQL servers (fsync " + fsync
                + ") and two controllers (log off, log on)...");
        out.flush();
        StringBuilder table = new StringBuilder("""
        | threads | log off (ops/s) | log on (ops/s) | on/off | p50 off (ms) | p50 on (ms) |
        |---:|---:|---:|---:|---:|---:|
        """);
        List<String> lines = new ArrayList<>();
        RecoveryLogTargets targets;
        String setting;
        List<Path> dataDirs = new ArrayList<>();
        try (EmbeddedPostgresCluster cluster = EmbeddedPostgresCluster.start(2, NAME, Map.of("fsync", fsync))) {
            for (EmbeddedPostgresServer s : cluster.servers()) {
                BenchDatabase.createTable(s, rows);
                BenchDatabase.checkFsync(s, fsyncOn);
            }
            setting = String.format(
                    Locale.ROOT,
                    "PostgreSQL backends with fsync %s, data on %s; recovery log: the default H2 store%s; %d s measured"
                            + " after %d s warm-up, %d round%s.",
                    fsync,
                    BenchDatabase.dataFileSystem(cluster),
                    entries > 0
                            ? String.format(Locale.ROOT, ", first filled with %,d entries (`--entries`)", entries)
                            : "",
                    durationSeconds,
                    warmupSeconds,
                    rounds,
                    rounds == 1 ? "" : "s");
            out.println(setting);
            try (Controller off = Controller.start(configuration(cluster, RecoveryLogSettings.DISABLED, dataDirs));
                    RestartableController on = RestartableController.start(
                            configuration(cluster, RecoveryLogSettings.DEFAULT, dataDirs))) {
                RecoveryLog log = on.current().virtualDatabase(NAME).writeLog().log();
                if (entries > 0) {
                    out.println(buildLog(log, entries));
                }
                // What the purge phase cuts at: everything built lies before it, the measured writes after.
                on.current().virtualDatabase(NAME).recovery().checkpoint(BUILT_CHECKPOINT);
                out.flush();
                LogSize beforeWrites = LogSize.of(log);
                for (int threads : List.of(1, 16)) {
                    String row = measureWrites(off, on.current(), threads);
                    out.println(row);
                    out.flush();
                    table.append(row).append('\n');
                }
                LogSize wholeLog = LogSize.of(log);
                lines.add(say(out, sizeLine(wholeLog, wholeLog.since(beforeWrites))));
                BatchLoad.Result batch = batchLoad(cluster, dataDirs, out);
                lines.add(say(out, batch.describe()));
                long replayLogEntries = log.lastPosition();
                ReplayFigures replay = measureReplay(on.current(), out);
                lines.add(say(out, replay.describe(backendToReplay(on.current()).name())));
                RestartableController.Restart restart = on.restart(NAME);
                lines.add(say(out, restart.describe()));
                PurgeUnderLoad.Result purge = purgeUnderLoad(on.current(), out);
                lines.add(say(out, purge.describe(BUILT_CHECKPOINT)));
                lines.add(say(out, logSize(on.current())));
                targets = new RecoveryLogTargets(wholeLog, batch, replay, replayLogEntries, restart, purge);
            }
        } finally {
            dataDirs.forEach(Pgpool::deleteTree);
        }
        String entry = "### "
                + DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC).format(start) + ", "
                + Machine.current().describe() + "\n\n" + setting + "\n\n" + table + "\n"
                + String.join("\n\n", lines) + "\n\n" + targets.table();
        out.println();
        out.print(entry);
        if (!noRecord) {
            Optional<Path> file = recordFile != null ? Optional.of(recordFile) : BenchmarksFile.inRepository();
            if (file.isPresent()) {
                BenchmarksFile.append(file.get(), SECTION, SECTION_INTRO, entry);
                out.println("Recorded in " + file.get().toAbsolutePath());
            }
        }
        out.flush();
        return 0;
    }

    private static String say(PrintWriter out, String line) {
        out.println(line);
        out.flush();
        return line;
    }

    /** Issue 15's batch load, through a third controller with a fresh log of its own (closed after it). */
    private BatchLoad.Result batchLoad(EmbeddedPostgresCluster cluster, List<Path> dataDirs, PrintWriter out)
            throws Exception {
        out.println("Batch load through a third controller, with a log of its own...");
        out.flush();
        try (Controller loader = Controller.start(configuration(cluster, RecoveryLogSettings.DEFAULT, dataDirs))) {
            return BatchLoad.run(
                    () -> connect(loader),
                    loader.virtualDatabase(NAME).writeLog().log(),
                    batchRows);
        }
    }

    private PurgeUnderLoad.Result purgeUnderLoad(Controller on, PrintWriter out) throws Exception {
        out.printf(
                Locale.ROOT,
                "Purge under load: %d clients write %d s without purge, then while the log is purged before %s...%n",
                PurgeUnderLoad.THREADS,
                durationSeconds,
                BUILT_CHECKPOINT);
        out.flush();
        return PurgeUnderLoad.run(
                on,
                NAME,
                BUILT_CHECKPOINT,
                ADMIN,
                ADMIN_PASSWORD,
                () -> connect(on),
                rows,
                Duration.ofSeconds(warmupSeconds),
                Duration.ofSeconds(durationSeconds));
    }

    /** One row of the on/off table: {@code threads} clients through each controller, sides alternating by round. */
    private String measureWrites(Controller off, Controller on, int threads) throws Exception {
        List<Figures> offRounds = new ArrayList<>();
        List<Figures> onRounds = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            boolean offFirst = round % 2 == 0;
            for (Controller c : offFirst ? List.of(off, on) : List.of(on, off)) {
                Figures f = ClosedLoopRun.run(
                                () -> connect(c),
                                Workload.SINGLE_ROW_UPDATE,
                                threads,
                                rows,
                                Duration.ofSeconds(warmupSeconds),
                                Duration.ofSeconds(durationSeconds),
                                OptionalLong.empty())
                        .figures();
                (c == off ? offRounds : onRounds).add(f);
            }
        }
        Figures offF = Figures.medianOf(offRounds);
        Figures onF = Figures.medianOf(onRounds);
        return String.format(
                Locale.ROOT,
                "| %d | %,.0f | %,.0f | %.2f | %.2f | %.2f |",
                threads,
                offF.opsPerSecond(),
                onF.opsPerSecond(),
                onF.opsPerSecond() / offF.opsPerSecond(),
                offF.p50Millis(),
                onF.p50Millis());
    }

    private static String sizeLine(LogSize wholeLog, LogSize writes) {
        return String.format(
                Locale.ROOT,
                "Log size after the write runs (a fresh data directory, so the whole log: built entries and writes):"
                        + " %s (target at most %.0f×); the write runs alone grew it by %s.",
                wholeLog.describe(),
                LogSize.TARGET_RATIO,
                writes.describe());
    }

    private ReplayFigures measureReplay(Controller on, PrintWriter out) throws Exception {
        VirtualDatabase vdb = on.virtualDatabase(NAME);
        DatabaseBackend second = backendToReplay(on);
        vdb.disableBackend(second, "disabled by the replay benchmark").join();
        out.printf(Locale.ROOT, "Backend %s disabled; writing for %d s...%n", second.name(), replayWindowSeconds);
        out.flush();
        ClosedLoopRun.run(
                () -> connect(on),
                Workload.SINGLE_ROW_UPDATE,
                16,
                rows,
                Duration.ZERO,
                Duration.ofSeconds(replayWindowSeconds),
                OptionalLong.empty());
        AtomicLong applied = new AtomicLong();
        AtomicLong firstBatchAt = new AtomicLong(-1);
        long t0 = System.nanoTime();
        vdb.recovery().enable(second).run(new Progress() {
            @Override
            public void total(long units) {}

            @Override
            public void advance(long units) {
                firstBatchAt.compareAndSet(-1, System.nanoTime());
                applied.addAndGet(units);
            }
        });
        long end = System.nanoTime();
        return new ReplayFigures(
                applied.get(), firstBatchAt.get() < 0 ? Double.NaN : (firstBatchAt.get() - t0) / 1e9, (end - t0) / 1e9);
    }

    /** The backend the replay phase disables and enables again. */
    private static DatabaseBackend backendToReplay(Controller on) {
        return on.virtualDatabase(NAME).backends().get(1);
    }

    /** Appends {@code n} history entries (outcome recorded) to {@code log} in batches of 1,000. */
    private static String buildLog(RecoveryLog log, long n) throws RecoveryLogException {
        long t0 = System.nanoTime();
        PendingAppend last = null;
        List<LogEntry> batch = new ArrayList<>(1000);
        for (long done = 0; done < n; done += batch.size()) {
            batch.clear();
            for (long i = done; i < n && batch.size() < 1000; i++) {
                batch.add(LogEntry.autoCommitWrite(
                                USER,
                                "UPDATE bench_accounts SET balance = balance + ? WHERE id = ?",
                                List.of(1, i % 1000),
                                List.of("bench_accounts"))
                        .withOutcome(Outcome.SUCCESS));
            }
            List<PendingAppend> appended = log.appendAllAsync(batch);
            last = appended.get(appended.size() - 1);
        }
        if (last != null) {
            last.await();
        }
        return String.format(
                Locale.ROOT, "Recovery log filled with %,d entries in %.1f s.", n, (System.nanoTime() - t0) / 1e9);
    }

    /** Read after the purge: the store's file does not shrink when entries are deleted, so this is per entry kept. */
    private static String logSize(Controller on) {
        RecoveryLog log = on.virtualDatabase(NAME).writeLog().log();
        RecoveryLog.GroupCommitStats stats = log.groupCommitStats();
        return String.format(
                Locale.ROOT,
                "Recovery log store at the end: %s bytes per entry held after the purge horizon (%,d store bytes,"
                        + " last position %,d; %,d entries written in %,d store commits since the restart).",
                log.bytesPerEntry().isPresent()
                        ? String.format(
                                Locale.ROOT, "%,.0f", log.bytesPerEntry().getAsDouble())
                        : "unknown",
                log.storeBytes(),
                log.lastPosition(),
                stats.entriesWritten(),
                stats.storeCommits());
    }

    private static Connection connect(Controller c) throws SQLException {
        return DriverManager.getConnection("jdbc:raidb://127.0.0.1:" + c.port() + "/" + NAME, USER, PASSWORD);
    }

    /** A controller over the cluster's servers, with a new data directory (added to {@code dataDirs}). */
    private static RaidbConfig configuration(
            EmbeddedPostgresCluster cluster, RecoveryLogSettings log, List<Path> dataDirs) throws Exception {
        List<BackendConfig> backends = new ArrayList<>();
        for (EmbeddedPostgresServer s : cluster.servers()) {
            backends.add(new BackendConfig(
                    s.name(),
                    s.jdbcUrl(),
                    s.user(),
                    s.password(),
                    ConfigDefaults.BACKEND_WEIGHT,
                    ConfigDefaults.BACKEND_POOL_SIZE,
                    List.of()));
        }
        VirtualDatabaseConfig vdb = new VirtualDatabaseConfig(
                NAME,
                new AuthenticationConfig(
                        new UserCredentials(ADMIN, ADMIN_PASSWORD), List.of(new UserCredentials(USER, PASSWORD))),
                backends,
                new ReplicationConfig("raidb1", "roundRobin", "all"),
                SchedulerConfig.DEFAULT,
                log,
                BackupSettings.DEFAULT);
        Path dataDir = Files.createTempDirectory("raidb-bench-log");
        dataDirs.add(dataDir);
        return new RaidbConfig(
                new ControllerSettings(
                        "127.0.0.1", 0, ConfigDefaults.ADMIN_HOST, 0, dataDir, ConfigDefaults.MAX_FRAME_BYTES, false),
                List.of(vdb));
    }
}
