package org.raidb.tools.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code raidb bench group}: what a controller group gives and costs (issue 16). On embedded
 * PostgreSQL servers, CPU-capped so that the databases are the bottleneck, in the same run: plain
 * pgjdbc to one server, one controller without a group (the baseline), one controller in a group of
 * one (the group's own cost), and 2 and 3 controllers in a group, each with its own backends and
 * the clients spread over them; point SELECT and single-row UPDATE by random key.
 */
@Command(
        name = "group",
        description = {
            "Measure point SELECT and single-row UPDATE by random key through plain pgjdbc (one server), one "
                    + "controller without a group, one controller in a group of one, and 2 and 3 controllers in a "
                    + "controller group (each with its own embedded PostgreSQL backends, CPU-capped; clients spread "
                    + "round-robin over the controllers), in the same run; print ops/s, p50/p99, the ratios to one "
                    + "controller and to pgjdbc, and issue 16's targets; with --record, append them to a Markdown file.",
            "Setups take turns round by round, and each figure is the median of the rounds."
        })
public final class GroupCommand implements Callable<Integer> {
    static final String SECTION = "## Controller group (issue 16)";
    static final String SECTION_INTRO = "`bin/raidb bench group` starts embedded PostgreSQL servers, caps each at "
            + "`--backend-cpu` CPUs (a cgroup per postmaster, as `tpcw bench --backend-cpu` does) and in-process "
            + "controllers, and measures in the same run: plain pgjdbc to one server, one controller without a group "
            + "(what users run today: the baseline of the targets), one controller in a group of one (the cost of the "
            + "group alone), and 2 and 3 controllers in one `<controllerGroup>` (completion=\"all\", the default), each "
            + "with its own backends, clients spread round-robin over them. Workloads: a point SELECT and a "
            + "single-row auto-commit UPDATE by random key on a PreparedStatement reused by its thread. Targets of "
            + "issue 16: reads through 2 and 3 controllers at least 1.8x and 2.6x one controller's throughput with "
            + "CPU-capped backends; single-row UPDATE through 3 controllers at least 0.7x one controller's "
            + "throughput at 16 clients, with a p50 at most 2x. \"other JVM µs/op\" holds JGroups' threads (and GC, "
            + "JIT). Unless an entry says otherwise, the machine has 2 cores shared with other engineers' builds and "
            + "tests: compare ratios of one run, not figures across runs.";

    /** Enough for issue 16; each controller brings its own servers and shares the same cores. */
    static final int MAX_CONTROLLERS = 4;

    static final int MAX_BACKENDS_PER_CONTROLLER = 2;

    @Spec
    CommandSpec spec;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help and exit.")
    boolean help;

    @Option(
            names = "--controllers",
            defaultValue = "1,2,3",
            split = ",",
            paramLabel = "N",
            description = "Controller counts, comma-separated; must hold 1 (the baseline: one controller without a "
                    + "group, and a group of one) (default ${DEFAULT-VALUE}).")
    List<Integer> controllerCounts;

    @Option(
            names = "--backends-per-controller",
            defaultValue = "1",
            paramLabel = "N",
            description = "PostgreSQL servers of each controller's own (default ${DEFAULT-VALUE}).")
    int backendsPerController;

    @Option(
            names = "--workload",
            defaultValue = "select,update",
            split = ",",
            paramLabel = "select|update",
            converter = OverheadCommand.WorkloadConverter.class,
            description = "Workloads, comma-separated (default ${DEFAULT-VALUE}).")
    List<Workload> workloads;

    @Option(
            names = "--threads",
            defaultValue = "16",
            split = ",",
            paramLabel = "N",
            description = "Client thread counts, comma-separated (default ${DEFAULT-VALUE}).")
    List<Integer> threadCounts;

    @Option(
            names = "--backend-cpu",
            defaultValue = "0.25",
            paramLabel = "CPUS",
            description = "CPUs each PostgreSQL server may use (a cgroup per postmaster; needs root and a writable "
                    + "cgroup file system, else the run goes on uncapped and says so); 0: uncapped "
                    + "(default ${DEFAULT-VALUE}).")
    double backendCpu;

    @Option(
            names = "--controller-cpu",
            defaultValue = "off",
            paramLabel = "CPUS|off",
            converter = ControllerCpuConverter.class,
            description = "Run every controller of every setup (the baseline too) as a JVM of its own, each in a "
                    + "cgroup of its own capped at CPUS CPUs, as if each had a machine of its own (as --backend-cpu "
                    + "caps the servers; needs root and a writable cgroup file system, else the run goes on "
                    + "uncapped and says so); \"controller us/op\" is then the whole controller process's CPU. "
                    + "off: controllers in this JVM, sharing its cores (default ${DEFAULT-VALUE}).")
    double controllerCpu;

    @Option(
            names = "--fsync",
            defaultValue = "on",
            paramLabel = "on|off|both",
            converter = OverheadCommand.OnOffConverter.class,
            description = "PostgreSQL's fsync: on (default), off, or both (the whole run once with each, servers "
                    + "started afresh).")
    OverheadCommand.OnOff fsync;

    @Option(
            names = "--warmup",
            defaultValue = "10",
            paramLabel = "SECONDS",
            description = "Unrecorded warm-up seconds before each measurement (default ${DEFAULT-VALUE}).")
    int warmupSeconds;

    @Option(
            names = "--duration",
            defaultValue = "10",
            paramLabel = "SECONDS",
            description = "Measured seconds per setup and measurement (default ${DEFAULT-VALUE}).")
    int durationSeconds;

    @Option(
            names = "--rounds",
            defaultValue = "2",
            description = "Rounds per measurement, setups rotating; the median is reported (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
            names = "--rows",
            defaultValue = "10000",
            description = "Rows in bench_accounts (default ${DEFAULT-VALUE}).")
    int rows;

    @Option(
            names = "--record",
            paramLabel = "FILE",
            description = "Markdown file the figures are appended to, under \"Controller group (issue 16)\" "
                    + "(docs/benchmarks.md for the project's record); without it they are printed only.")
    Path recordFile;

    @Option(
            names = "--label",
            defaultValue = "",
            paramLabel = "TEXT",
            description = "What this run is, recorded with it (e.g. \"machine shared with a test run\").")
    String label;

    @Override
    public Integer call() throws Exception {
        checkOptions();
        PrintWriter out = spec.commandLine().getOut();
        Instant start = Instant.now();
        Machine machine = Machine.current();
        String load = OverheadCommand.loadAverage();
        out.println("Machine: " + machine.describe() + (load.isEmpty() ? "" : "; load average " + load));
        List<GroupSetup> setups = setups(controllerCounts);
        List<GroupComparison> comparisons = new ArrayList<>();
        String postgresVersion = "";
        String dataFileSystem = "";
        String capStatus = "";
        boolean capped = true;
        ControllerPlacement placement = ControllerPlacement.IN_PROCESS;
        for (boolean fsyncOn : fsync.settings()) {
            int most = Collections.max(controllerCounts);
            out.printf(
                    "Starting %d embedded PostgreSQL server(s) (fsync %s, %d per controller) with %,d rows, and the "
                            + "controllers of %s...%n",
                    most * backendsPerController,
                    fsyncOn ? "on" : "off",
                    backendsPerController,
                    rows,
                    String.join(
                            "; ", setups.stream().skip(1).map(GroupSetup::title).toList()));
            out.flush();
            try (GroupBenchDatabase db =
                    GroupBenchDatabase.start(setups, backendsPerController, rows, fsyncOn, backendCpu, controllerCpu)) {
                postgresVersion = db.postgresVersion();
                dataFileSystem = db.dataFileSystem();
                capStatus = db.capStatus();
                capped &= capStatus.startsWith("applied");
                out.println("PostgreSQL " + postgresVersion + ", data on " + dataFileSystem);
                out.println("Backend CPU cap: " + capStatus);
                placement = db.controllerPlacement();
                if (placement.forked()) {
                    out.println("Controller CPU cap: " + placement.capStatus()
                            + "; each controller a JVM of its own (ctl us: its whole process)");
                }
                out.println("Controllers: RAIDb-1, recovery log on (the default); groups on tcp-loopback.xml with "
                        + "completion=\"all\" (the default: a write is answered once every controller applied it); "
                        + "client i connects to controller i % n");
                for (GroupSetup setup : setups) {
                    out.println("  " + setup.title() + ": " + String.join(", ", db.urls(setup)));
                }
                out.println(GroupReport.consoleHeader());
                out.flush();
                for (Workload workload : workloads) {
                    for (int threads : threadCounts) {
                        GroupComparison c = compare(db, setups, fsyncOn, workload, threads);
                        comparisons.add(c);
                        GroupReport.consoleRows(c).forEach(out::println);
                        out.flush();
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
                false,
                backendsPerController,
                "on",
                "not measured",
                dataFileSystem,
                load);
        GroupReport report =
                new GroupReport(run, capStatus, capped, threadCounts, controllerCounts, comparisons, placement);
        out.println();
        out.print(report.console());
        if (recordFile != null) {
            BenchmarksFile.append(recordFile, SECTION, SECTION_INTRO, report.markdown());
            out.println("\nRecorded in " + recordFile.toAbsolutePath() + " under \"" + SECTION.substring(3) + "\".");
        }
        out.flush();
        return 0;
    }

    /** pgjdbc, one controller without a group, then a group of each count asked for, in that order. */
    static List<GroupSetup> setups(List<Integer> controllerCounts) {
        List<GroupSetup> setups = new ArrayList<>(List.of(GroupSetup.PGJDBC, GroupSetup.ONE_CONTROLLER));
        controllerCounts.stream().sorted().distinct().map(GroupSetup::group).forEach(setups::add);
        return setups;
    }

    /** Every setup, {@code rounds} times, rotating which goes first; the median of each figure. */
    private GroupComparison compare(
            GroupBenchDatabase db, List<GroupSetup> setups, boolean fsyncOn, Workload workload, int threads)
            throws Exception {
        List<GroupSetup> order = new ArrayList<>(setups);
        Map<GroupSetup, List<Figures>> figures = new LinkedHashMap<>();
        Map<GroupSetup, List<CpuUse>> cpu = new LinkedHashMap<>();
        setups.forEach(s -> figures.put(s, new ArrayList<>()));
        for (int round = 0; round < rounds; round++) {
            for (GroupSetup setup : order) {
                Measurement m;
                try {
                    m = ClosedLoopRun.run(
                            db.clients(setup),
                            workload,
                            threads,
                            rows,
                            Duration.ofSeconds(warmupSeconds),
                            Duration.ofSeconds(durationSeconds),
                            db.postmasterPids(setup),
                            java.util.OptionalLong.empty(),
                            db.controllerPids(setup));
                } catch (Exception e) {
                    throw new IllegalStateException(
                            workload.title() + " with " + threads + " clients through " + setup.title() + " (fsync "
                                    + (fsyncOn ? "on" : "off") + ") failed: " + e,
                            e);
                }
                figures.get(setup).add(m.figures());
                cpu.computeIfAbsent(setup, s -> new ArrayList<>()).add(m.cpu());
            }
            Collections.rotate(order, -1);
        }
        Map<GroupSetup, Figures> medianFigures = new LinkedHashMap<>();
        Map<GroupSetup, CpuUse> medianCpu = new LinkedHashMap<>();
        figures.forEach((setup, f) -> medianFigures.put(setup, Figures.medianOf(f)));
        cpu.forEach((setup, c) -> medianCpu.put(setup, CpuUse.medianOf(c)));
        return new GroupComparison(fsyncOn, workload, threads, medianFigures, medianCpu);
    }

    private void checkOptions() {
        if (durationSeconds < 1 || warmupSeconds < 0 || rows < 1 || rounds < 1) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--duration and --rounds must be at least 1, --rows at least 1, --warmup at least 0");
        }
        if (controllerCounts.isEmpty()
                || !controllerCounts.contains(1)
                || controllerCounts.stream().anyMatch(n -> n < 1 || n > MAX_CONTROLLERS)) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--controllers: counts between 1 and " + MAX_CONTROLLERS
                            + ", 1 among them (one controller is the baseline of every ratio)");
        }
        if (backendsPerController < 1 || backendsPerController > MAX_BACKENDS_PER_CONTROLLER) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--backends-per-controller must be between 1 and " + MAX_BACKENDS_PER_CONTROLLER);
        }
        int maxThreads = BenchDatabase.backendPoolSize();
        if (threadCounts.isEmpty() || threadCounts.stream().anyMatch(t -> t < 1 || t > maxThreads)) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--threads: each count must be between 1 and " + maxThreads
                            + " (the controller's backend pool size; beyond it clients would wait for a pooled connection)");
        }
        if (workloads.isEmpty() || workloads.stream().distinct().count() != workloads.size()) {
            throw new ParameterException(spec.commandLine(), "--workload: select, update or both, each once");
        }
        if (backendCpu < 0) {
            throw new ParameterException(spec.commandLine(), "--backend-cpu must be 0 (uncapped) or more");
        }
    }

    /**
     * {@code --controller-cpu}: "off" (0: controllers in this JVM) or a number of CPUs above 0 and at
     * most the machine's, which a cgroup quota can express.
     */
    static final class ControllerCpuConverter implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            if (value.strip().equalsIgnoreCase("off")) {
                return 0.0;
            }
            double cpus;
            try {
                cpus = Double.parseDouble(value.strip());
            } catch (NumberFormatException e) {
                throw new TypeConversionException(
                        "'" + value + "' is not a number of CPUs: give one such as 0.5, or off");
            }
            int cores = Runtime.getRuntime().availableProcessors();
            if (!(cpus >= 0.01) || cpus > cores) {
                throw new TypeConversionException("'" + value + "': give between 0.01 and " + cores
                        + " CPUs (this machine's) per controller, or off for controllers in this JVM");
            }
            return cpus;
        }
    }
}
