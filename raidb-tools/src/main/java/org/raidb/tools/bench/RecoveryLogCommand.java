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
import java.util.Optional;
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
 * {@code raidb bench recovery-log}: what the recovery log costs writes, and how fast it brings a
 * backend back. Two embedded PostgreSQL servers, two controllers over them in the same run (one
 * without a log, one with the default embedded H2 log); single-row UPDATEs through each, sides
 * alternating round by round; then a backend of the logged controller is disabled, writes go on,
 * and its replay is timed.
 */
@Command(
        name = "recovery-log",
        description =
                "Measure write throughput through RAIDb-1 (2 embedded PostgreSQL backends) with the recovery log off "
                        + "and on in the same run, and the replay rate of enable; print the figures and record them in docs/benchmarks.md.")
public final class RecoveryLogCommand implements Callable<Integer> {
    static final String SECTION = "## Recovery log cost and replay rate";
    static final String SECTION_INTRO = "`bin/raidb bench recovery-log` starts two embedded PostgreSQL servers holding "
            + "`bench_accounts` and two in-process controllers over them (RAIDb-1, completion all): one with "
            + "`<recoveryLog enabled=\"false\"/>`, one with the default log (H2 file under dataDir, group commit). Single-row "
            + "auto-commit UPDATEs by random key go through each, with 1 and 16 client threads, sides alternating round by "
            + "round, median of the rounds. Then one backend of the logged controller is disabled, 16 threads write for the "
            + "replay window, and `enable` replays what it missed: entries per second is the replay rate. Targets (issue 4): "
            + "logging costs at most 15% of write throughput; replay at least 5,000 entries per second per backend."
            + " `--entries N` first fills the logged controller's log with N history entries (not run on the backends)"
            + " so that the figures are those of a large log; the run ends with the log store's bytes per entry.";
    private static final String NAME = "bench";
    private static final String USER = "bench";
    private static final String PASSWORD = "bench";

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
            description = "Measured seconds per side and measurement (default ${DEFAULT-VALUE}).")
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

    @Override
    public Integer call() throws Exception {
        if (durationSeconds < 1
                || warmupSeconds < 0
                || rounds < 1
                || replayWindowSeconds < 1
                || rows < 1
                || entries < 0) {
            throw new ParameterException(
                    spec.commandLine(), "--duration, --rounds, --replay-window and --rows must be at least 1");
        }
        PrintWriter out = spec.commandLine().getOut();
        Instant start = Instant.now();
        out.println("Machine: " + Machine.current().describe());
        out.println("Starting two embedded PostgreSQL servers and two controllers (log off, log on)...");
        out.flush();
        StringBuilder table = new StringBuilder("""
        | threads | log off (ops/s) | log on (ops/s) | on/off | p50 off (ms) | p50 on (ms) |
        |---:|---:|---:|---:|---:|---:|
        """);
        String replayLine;
        try (EmbeddedPostgresCluster cluster = EmbeddedPostgresCluster.start(2, NAME)) {
            for (EmbeddedPostgresServer s : cluster.servers()) {
                BenchDatabase.createTable(s, rows);
            }
            try (Controller off = Controller.start(configuration(cluster, RecoveryLogSettings.DISABLED));
                    Controller on = Controller.start(configuration(cluster, RecoveryLogSettings.DEFAULT))) {
                if (entries > 0) {
                    out.println(buildLog(on.virtualDatabase(NAME).writeLog().log(), entries));
                    out.flush();
                }
                for (int threads : List.of(1, 16)) {
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
                                            java.util.OptionalLong.empty())
                                    .figures();
                            (c == off ? offRounds : onRounds).add(f);
                        }
                    }
                    Figures offF = Figures.medianOf(offRounds);
                    Figures onF = Figures.medianOf(onRounds);
                    String row = String.format(
                            Locale.ROOT,
                            "| %d | %,.0f | %,.0f | %.2f | %.2f | %.2f |",
                            threads,
                            offF.opsPerSecond(),
                            onF.opsPerSecond(),
                            onF.opsPerSecond() / offF.opsPerSecond(),
                            offF.p50Millis(),
                            onF.p50Millis());
                    out.println(row);
                    out.flush();
                    table.append(row).append('\n');
                }
                replayLine = measureReplay(on, out) + "\n\n" + logSize(on);
                out.println(logSize(on));
            }
        }
        String entry = "### "
                + DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC).format(start) + ", "
                + Machine.current().describe() + "\n\n" + table + "\n" + replayLine + "\n";
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

    private String measureReplay(Controller on, PrintWriter out) throws Exception {
        VirtualDatabase vdb = on.virtualDatabase(NAME);
        DatabaseBackend second = vdb.backends().get(1);
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
                java.util.OptionalLong.empty());
        AtomicLong entries = new AtomicLong();
        long t0 = System.nanoTime();
        vdb.recovery().enable(second).run(new Progress() {
            @Override
            public void total(long units) {}

            @Override
            public void advance(long units) {
                entries.addAndGet(units);
            }
        });
        double seconds = (System.nanoTime() - t0) / 1e9;
        String line = String.format(
                Locale.ROOT,
                "Replay: %,d log entries applied to %s in %.2f s: **%,.0f entries/s** " + "(target at least 5,000).",
                entries.get(),
                second.name(),
                seconds,
                entries.get() / seconds);
        out.println(line);
        return line;
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

    private static String logSize(Controller on) {
        RecoveryLog log = on.virtualDatabase(NAME).writeLog().log();
        RecoveryLog.GroupCommitStats stats = log.groupCommitStats();
        return String.format(
                Locale.ROOT,
                "Recovery log store: %s bytes per entry (%,d entries held; %,d entries written in %,d store commits"
                        + " during the run).",
                log.bytesPerEntry().isPresent()
                        ? String.format(
                                Locale.ROOT, "%,.0f", log.bytesPerEntry().getAsDouble())
                        : "unknown",
                log.lastPosition(),
                stats.entriesWritten(),
                stats.storeCommits());
    }

    private static Connection connect(Controller c) throws SQLException {
        return DriverManager.getConnection("jdbc:raidb://127.0.0.1:" + c.port() + "/" + NAME, USER, PASSWORD);
    }

    private static RaidbConfig configuration(EmbeddedPostgresCluster cluster, RecoveryLogSettings log)
            throws Exception {
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
                        new UserCredentials("admin", "admin"), List.of(new UserCredentials(USER, PASSWORD))),
                backends,
                new ReplicationConfig("raidb1", "roundRobin", "all"),
                SchedulerConfig.DEFAULT,
                log,
                BackupSettings.DEFAULT);
        Path dataDir = Files.createTempDirectory("raidb-bench-log");
        return new RaidbConfig(
                new ControllerSettings(
                        "127.0.0.1", 0, ConfigDefaults.ADMIN_HOST, 0, dataDir, ConfigDefaults.MAX_FRAME_BYTES, false),
                List.of(vdb));
    }
}
