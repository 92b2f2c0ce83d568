package org.raidb.tools.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code raidb bench overhead}: what the controller costs, and how it stands against pgpool-II. On
 * embedded PostgreSQL servers, in the same run, point SELECT and single-row UPDATE by random key are
 * measured through plain pgjdbc (one server), through RAIDb-1 over N of them (recovery log on as
 * shipped, and off when asked) and through pgpool-II's native replication over the same N when it is
 * installed; with PostgreSQL's fsync on, off or both. The figures, their ratios and the issues'
 * targets are printed and recorded.
 */
@Command(
        name = "overhead",
        description = {
            "Measure point SELECT and single-row UPDATE by random key through plain pgjdbc (one embedded PostgreSQL server), "
                    + "through RAIDb-1 over --backends servers and, when installed, through pgpool-II (native replication, load "
                    + "balance) over the same servers, in the same run; print ops/s, p50/p99 latency, the ratios and CPU per "
                    + "operation, and record them in docs/benchmarks.md.",
            "Each measurement rotates which side goes first round by round and reports the median of the rounds, so that "
                    + "JIT warm-up and machine noise favour no side."
        })
public final class OverheadCommand implements Callable<Integer> {
    static final String SECTION = "## Overhead against plain pgjdbc";
    static final String SECTION_INTRO = "`bin/raidb bench overhead` starts embedded PostgreSQL servers and in-process "
            + "controllers and measures, in the same run, plain pgjdbc against RAIDb (and, when it is installed, pgpool-II's "
            + "native replication over the same servers): a point SELECT by random key and a "
            + "single-row auto-commit UPDATE by random key, each on a PreparedStatement reused by its thread, with 1 and 16 "
            + "client threads (one connection each), for a bounded time after a warm-up. Every operation's latency goes into "
            + "an HdrHistogram. Sides rotate round by round and each figure is the median of the rounds. Targets: issue 3, "
            + "item 7 (point SELECT p50 through RAIDb at most 1.3x pgjdbc's, 16-thread throughput at least 0.85x) and "
            + "issue 14 (see the entries). Figures below come from a shared 2-core machine (other builds run alongside), and "
            + "client threads, controller, pgpool-II and PostgreSQL share its two cores.";

    /** on, off or both, for --fsync and --recovery-log. */
    enum OnOff {
        ON,
        OFF,
        BOTH;

        /** The settings to run, "on" first. */
        List<Boolean> settings() {
            return switch (this) {
                case ON -> List.of(true);
                case OFF -> List.of(false);
                case BOTH -> List.of(true, false);
            };
        }

        String text() {
            return this == BOTH ? "on and off" : name().toLowerCase(Locale.ROOT);
        }
    }

    /** Whether pgpool-II is measured: when installed (auto), always (on: fail without it) or never. */
    enum PgpoolChoice {
        AUTO,
        ON,
        OFF
    }

    /** Enough for the issues' runs; each server costs memory and a share of the cores. */
    static final int MAX_BACKENDS = 4;

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
            description = "Unrecorded warm-up seconds before each measurement (default ${DEFAULT-VALUE}).")
    int warmupSeconds;

    @Option(
            names = "--threads",
            defaultValue = "1,16",
            split = ",",
            paramLabel = "N",
            description = "Client thread counts, comma-separated (default ${DEFAULT-VALUE}).")
    List<Integer> threadCounts;

    @Option(
            names = "--backends",
            defaultValue = "1",
            paramLabel = "N",
            description =
                    "PostgreSQL servers behind RAIDb-1 (and pgpool-II); pgjdbc uses the first (default ${DEFAULT-VALUE}).")
    int backends;

    @Option(
            names = "--recovery-log",
            defaultValue = "on",
            paramLabel = "on|off|both",
            converter = OnOffConverter.class,
            description =
                    "The controller's recovery log: on (default, as the product ships), off, or both (two controllers "
                            + "over the same servers; the log's cost is their ratio). Log-off figures are labelled \"RAIDb log off\".")
    OnOff recoveryLog;

    @Option(
            names = "--fsync",
            defaultValue = "on",
            paramLabel = "on|off|both",
            converter = OnOffConverter.class,
            description =
                    "PostgreSQL's fsync on every server of the run: on (default, PostgreSQL's own default), off, or "
                            + "both (the whole run once with each, servers started afresh).")
    OnOff fsync;

    @Option(
            names = "--workload",
            defaultValue = "select,update",
            split = ",",
            paramLabel = "select|update",
            converter = WorkloadConverter.class,
            description =
                    "Workloads, comma-separated: select (point SELECT by random key), update (single-row UPDATE by "
                            + "random key) (default ${DEFAULT-VALUE}).")
    List<Workload> workloads;

    @Option(
            names = "--pgpool",
            defaultValue = "auto",
            paramLabel = "auto|on|off",
            converter = PgpoolConverter.class,
            description =
                    "pgpool-II beside RAIDb: auto (default: measured when the pgpool binary is installed, else skipped "
                            + "with the reason), on (fail without it), off.")
    PgpoolChoice pgpoolChoice;

    @Option(
            names = "--rows",
            defaultValue = "10000",
            description = "Rows in bench_accounts (default ${DEFAULT-VALUE}).")
    int rows;

    @Option(
            names = "--rounds",
            defaultValue = "2",
            description =
                    "Rounds per measurement, sides alternating; the median is reported (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
            names = "--record",
            paramLabel = "FILE",
            description = "Markdown file the figures are appended to (default: docs/benchmarks.md of the repository).")
    Path recordFile;

    @Option(names = "--no-record", description = "Print the figures only.")
    boolean noRecord;

    @Option(
            names = "--jfr",
            paramLabel = "FILE",
            description = "Record the run with JFR into FILE-<workload>.jfr; analyse with `raidb bench jfr-top`.")
    Path jfrFile;

    @Option(
            names = "--label",
            defaultValue = "",
            paramLabel = "TEXT",
            description = "What this run is, recorded with it (e.g. \"before profiling\").")
    String label;

    @Override
    public Integer call() throws Exception {
        checkOptions();
        PrintWriter out = spec.commandLine().getOut();
        Instant start = Instant.now();
        Machine machine = Machine.current();
        String load = loadAverage();
        out.println("Machine: " + machine.describe() + (load.isEmpty() ? "" : "; load average " + load));
        PgpoolPlan pgpool;
        try {
            pgpool = PgpoolPlan.decide(pgpoolChoice, backends);
        } catch (IllegalStateException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e, null, null);
        }
        out.println("pgpool-II: " + pgpool.description());
        Set<Side> sides = sides(pgpool);
        List<Comparison> comparisons = new ArrayList<>();
        String postgresVersion = "";
        String dataFileSystem = "";
        for (boolean fsyncOn : fsync.settings()) {
            out.printf(
                    Locale.ROOT,
                    "Starting %d embedded PostgreSQL server%s (fsync %s) with %,d rows, %s...%n",
                    backends,
                    backends == 1 ? "" : "s",
                    fsyncOn ? "on" : "off",
                    rows,
                    sidesText(sides));
            out.flush();
            try (BenchDatabase db =
                    BenchDatabase.start(rows, backends, fsyncOn, sides, pgpool.binary(), maxThreads() + 2)) {
                postgresVersion = db.postgresVersion();
                dataFileSystem = db.dataFileSystem();
                out.println("PostgreSQL " + postgresVersion + ", data on " + dataFileSystem);
                for (Side side : sides) {
                    out.println("  " + side.title() + ": " + db.url(side));
                }
                out.println(OverheadReport.consoleHeader());
                out.flush();
                for (Workload workload : workloads) {
                    ControllerRecording recording =
                            jfrFile == null ? null : new ControllerRecording(jfrFile.toAbsolutePath());
                    if (recording != null) {
                        recording.start();
                    }
                    for (int threads : threadCounts) {
                        Comparison c = compare(db, sides, fsyncOn, workload, threads);
                        comparisons.add(c);
                        OverheadReport.consoleRows(c).forEach(out::println);
                        out.flush();
                    }
                    if (recording != null) {
                        out.println("  JFR recording: " + recording.stopAndDump(workload));
                    }
                }
            }
        }
        RunDescription run = new RunDescription(
                start,
                machine,
                label.isBlank() ? "unlabelled run" : label,
                durationSeconds,
                warmupSeconds,
                rounds,
                rows,
                postgresVersion,
                jfrFile != null,
                backends,
                recoveryLog.text(),
                pgpool.description(),
                dataFileSystem,
                load);
        OverheadReport report = new OverheadReport(run, comparisons);
        out.println();
        out.print(report.console());
        record(report, out);
        out.flush();
        return 0;
    }

    /** pgjdbc, then RAIDb as asked, then pgpool-II when it is to be measured: the order of the report. */
    Set<Side> sides(PgpoolPlan pgpool) {
        Set<Side> sides = EnumSet.of(Side.PGJDBC);
        for (boolean logOn : recoveryLog.settings()) {
            sides.add(logOn ? Side.RAIDB : Side.RAIDB_LOG_OFF);
        }
        if (pgpool.binary().isPresent()) {
            sides.add(Side.PGPOOL);
        }
        return sides;
    }

    private static String sidesText(Set<Side> sides) {
        return String.join(", ", sides.stream().skip(1).map(Side::title).toList());
    }

    private int maxThreads() {
        return threadCounts.stream().mapToInt(Integer::intValue).max().orElse(1);
    }

    /** Every side, {@code rounds} times, rotating which goes first; the median of each figure. */
    private Comparison compare(BenchDatabase db, Set<Side> sides, boolean fsyncOn, Workload workload, int threads)
            throws Exception {
        List<Side> order = new ArrayList<>(sides);
        Map<Side, List<Figures>> figures = new EnumMap<>(Side.class);
        Map<Side, List<CpuUse>> cpu = new EnumMap<>(Side.class);
        for (int round = 0; round < rounds; round++) {
            for (Side side : order) {
                Measurement m;
                try {
                    m = ClosedLoopRun.run(
                            () -> db.connect(side),
                            workload,
                            threads,
                            rows,
                            Duration.ofSeconds(warmupSeconds),
                            Duration.ofSeconds(durationSeconds),
                            db.postmasterPids(),
                            db.pgpoolPid(),
                            List.of());
                } catch (Exception e) {
                    throw new IllegalStateException(
                            workload.title() + " with " + threads + " threads through " + side.title() + " (fsync "
                                    + (fsyncOn ? "on" : "off") + ") failed: " + e,
                            e);
                }
                figures.computeIfAbsent(side, s -> new ArrayList<>()).add(m.figures());
                cpu.computeIfAbsent(side, s -> new ArrayList<>()).add(m.cpu());
            }
            Collections.rotate(order, -1);
        }
        Map<Side, Figures> medianFigures = new EnumMap<>(Side.class);
        Map<Side, CpuUse> medianCpu = new EnumMap<>(Side.class);
        figures.forEach((side, f) -> medianFigures.put(side, Figures.medianOf(f)));
        cpu.forEach((side, c) -> medianCpu.put(side, CpuUse.medianOf(c)));
        return new Comparison(fsyncOn, workload, threads, medianFigures, medianCpu);
    }

    /** The 1, 5 and 15-minute load averages ({@code /proc/loadavg}), or "" where there is none. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+", -1);
            return f[0] + ", " + f[1] + ", " + f[2];
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private void record(OverheadReport report, PrintWriter out) throws Exception {
        record(recordFile, noRecord, SECTION, SECTION_INTRO, report.markdown(), out);
    }

    /**
     * Appends {@code entry} under {@code section} of {@code recordFile} (the repository's docs/benchmarks.md when
     * null), unless {@code noRecord}; says where, or why not.
     */
    static void record(
            Path recordFile, boolean noRecord, String section, String sectionIntro, String entry, PrintWriter out)
            throws IOException {
        if (noRecord) {
            return;
        }
        Optional<Path> file = recordFile != null ? Optional.of(recordFile) : BenchmarksFile.inRepository();
        if (file.isEmpty()) {
            out.println(
                    "\nNot recorded: no repository (bin/raidb and docs/) found around this jar or the working directory; "
                            + "use --record FILE.");
            return;
        }
        BenchmarksFile.append(file.get(), section, sectionIntro, entry);
        out.println("\nRecorded in " + file.get().toAbsolutePath() + " under \"" + section.substring(3) + "\".");
    }

    private void checkOptions() {
        if (durationSeconds < 1 || warmupSeconds < 0 || rows < 1 || rounds < 1) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--duration and --rounds must be at least 1, --rows at least 1, --warmup at least 0");
        }
        int maxThreads = BenchDatabase.backendPoolSize();
        if (threadCounts.isEmpty() || threadCounts.stream().anyMatch(t -> t < 1 || t > maxThreads)) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--threads: each count must be between 1 and " + maxThreads
                            + " (the controller's backend pool size; beyond it RAIDb clients would wait for a pooled connection)");
        }
        if (backends < 1 || backends > MAX_BACKENDS) {
            throw new ParameterException(spec.commandLine(), "--backends must be between 1 and " + MAX_BACKENDS);
        }
        if (workloads.isEmpty() || workloads.stream().distinct().count() != workloads.size()) {
            throw new ParameterException(spec.commandLine(), "--workload: select, update or both, each once");
        }
        if (jfrFile != null && fsync == OnOff.BOTH) {
            throw new ParameterException(
                    spec.commandLine(), "--jfr needs one --fsync setting (one recording per workload)");
        }
        if (noRecord && recordFile != null) {
            throw new ParameterException(spec.commandLine(), "--record and --no-record exclude each other");
        }
    }

    /** on, off, both; any case. */
    static final class OnOffConverter implements ITypeConverter<OnOff> {
        @Override
        public OnOff convert(String value) {
            return OnOff.valueOf(value.trim().toUpperCase(Locale.ROOT));
        }
    }

    /** auto, on, off; any case. */
    static final class PgpoolConverter implements ITypeConverter<PgpoolChoice> {
        @Override
        public PgpoolChoice convert(String value) {
            return PgpoolChoice.valueOf(value.trim().toUpperCase(Locale.ROOT));
        }
    }

    /** select or update. */
    static final class WorkloadConverter implements ITypeConverter<Workload> {
        @Override
        public Workload convert(String value) {
            return Workload.ofOption(value.trim().toLowerCase(Locale.ROOT));
        }
    }
}
