package org.raidb.tools.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code raidb bench overhead}: what the controller costs. Against one embedded PostgreSQL, in the
 * same run, point SELECT and single-row UPDATE are measured through plain pgjdbc and through RAIDb
 * with that one backend; the figures, their ratios and the targets are printed and recorded.
 */
@Command(
    name = "overhead",
    description = {
        "Measure point SELECT and single-row UPDATE through plain pgjdbc and through RAIDb (one embedded PostgreSQL "
            + "backend) in the same run; print ops/s, p50/p99 latency and the RAIDb/pgjdbc ratios, and record them "
            + "in docs/benchmarks.md.",
        "Each measurement alternates sides round by round (pgjdbc first, then RAIDb first) and reports the median "
            + "of the rounds, so that JIT warm-up and machine noise favour neither side."})
public final class OverheadCommand implements Callable<Integer> {
  static final String SECTION = "## Overhead against plain pgjdbc";
  static final String SECTION_INTRO = "`bin/raidb bench overhead` starts one embedded PostgreSQL server and an "
      + "in-process controller (RAIDb-1 over that single backend, readPolicy roundRobin, completion all) and measures, "
      + "in the same run, plain pgjdbc against RAIDb: a point SELECT by random key and a single-row auto-commit UPDATE "
      + "by random key, each on a PreparedStatement reused by its thread, with 1 and 16 client threads (one "
      + "connection each), for a bounded time after a warm-up. Every operation's latency goes into an HdrHistogram. "
      + "Sides alternate round by round (pgjdbc then RAIDb, then RAIDb then pgjdbc) and each figure is the median "
      + "of the rounds. Targets (issue 3, item 7): point SELECT p50 through RAIDb at most 1.3x pgjdbc's, and "
      + "16-thread throughput at least 0.85x pgjdbc's. For scale, pgpool-II 4.3 in native replication measures 3.2x "
      + "the latency and 0.35x the throughput of plain pgjdbc on this kind of machine. Figures below come from a "
      + "shared 2-core machine (other builds run alongside), and client threads, controller and PostgreSQL share "
      + "its two cores.";

  @Spec CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Option(names = "--duration", defaultValue = "10", paramLabel = "SECONDS",
      description = "Measured seconds per side and measurement (default ${DEFAULT-VALUE}).")
  int durationSeconds;

  @Option(names = "--warmup", defaultValue = "3", paramLabel = "SECONDS",
      description = "Unrecorded warm-up seconds before each measurement (default ${DEFAULT-VALUE}).")
  int warmupSeconds;

  @Option(names = "--threads", defaultValue = "1,16", split = ",", paramLabel = "N",
      description = "Client thread counts, comma-separated (default ${DEFAULT-VALUE}).")
  List<Integer> threadCounts;

  @Option(names = "--rows", defaultValue = "10000", description = "Rows in bench_accounts (default ${DEFAULT-VALUE}).")
  int rows;

  @Option(names = "--rounds", defaultValue = "2",
      description = "Rounds per measurement, sides alternating; the median is reported (default ${DEFAULT-VALUE}).")
  int rounds;

  @Option(names = "--record", paramLabel = "FILE",
      description = "Markdown file the figures are appended to (default: docs/benchmarks.md of the repository).")
  Path recordFile;

  @Option(names = "--no-record", description = "Print the figures only.")
  boolean noRecord;

  @Option(names = "--jfr", paramLabel = "FILE",
      description = "Record the run with JFR into FILE-<workload>.jfr; analyse with `raidb bench jfr-top`.")
  Path jfrFile;

  @Option(names = "--label", defaultValue = "", paramLabel = "TEXT",
      description = "What this run is, recorded with it (e.g. \"before profiling\").")
  String label;

  @Override
  public Integer call() throws Exception {
    checkOptions();
    PrintWriter out = spec.commandLine().getOut();
    Instant start = Instant.now();
    Machine machine = Machine.current();
    out.println("Machine: " + machine.describe());
    out.printf(Locale.ROOT, "Starting one embedded PostgreSQL server with %,d rows and a controller...%n", rows);
    out.flush();
    List<Comparison> comparisons = new ArrayList<>();
    String postgresVersion;
    try (BenchDatabase db = BenchDatabase.start(rows)) {
      postgresVersion = db.postgresVersion();
      out.println("PostgreSQL " + postgresVersion + ": pgjdbc " + db.pgjdbcUrl() + ", RAIDb " + db.raidbUrl());
      out.println(OverheadReport.consoleHeader());
      out.flush();
      for (Workload workload : Workload.values()) {
        ControllerRecording recording = jfrFile == null ? null : new ControllerRecording(jfrFile.toAbsolutePath());
        if (recording != null) {
          recording.start();
        }
        for (int threads : threadCounts) {
          Comparison c = compare(db, workload, threads);
          comparisons.add(c);
          out.println(OverheadReport.consoleRow(c));
          out.flush();
        }
        if (recording != null) {
          out.println("  JFR recording: " + recording.stopAndDump(workload));
        }
      }
    }
    RunDescription run = new RunDescription(start, machine, label.isBlank() ? "unlabelled run" : label, durationSeconds,
        warmupSeconds, rounds, rows, postgresVersion, jfrFile != null);
    OverheadReport report = new OverheadReport(run, comparisons);
    out.println();
    out.print(report.console());
    record(report, out);
    out.flush();
    return 0;
  }

  /** Both sides, {@code rounds} times, alternating which goes first; the median of each figure. */
  private Comparison compare(BenchDatabase db, Workload workload, int threads) throws Exception {
    List<Figures> pgjdbc = new ArrayList<>();
    List<Figures> raidb = new ArrayList<>();
    List<CpuUse> pgjdbcCpu = new ArrayList<>();
    List<CpuUse> raidbCpu = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      List<Side> order = round % 2 == 0 ? List.of(Side.PGJDBC, Side.RAIDB) : List.of(Side.RAIDB, Side.PGJDBC);
      for (Side side : order) {
        Measurement m;
        try {
          m = ClosedLoopRun.run(() -> db.connect(side), workload, threads, rows, Duration.ofSeconds(warmupSeconds),
              Duration.ofSeconds(durationSeconds), db.postmasterPid());
        } catch (Exception e) {
          throw new IllegalStateException(workload.title() + " with " + threads + " threads through " + side.title()
              + " failed: " + e, e);
        }
        (side == Side.PGJDBC ? pgjdbc : raidb).add(m.figures());
        (side == Side.PGJDBC ? pgjdbcCpu : raidbCpu).add(m.cpu());
      }
    }
    return new Comparison(workload, threads, Figures.medianOf(pgjdbc), Figures.medianOf(raidb), CpuUse.medianOf(pgjdbcCpu),
        CpuUse.medianOf(raidbCpu));
  }

  private void record(OverheadReport report, PrintWriter out) throws Exception {
    if (noRecord) {
      return;
    }
    Optional<Path> file = recordFile != null ? Optional.of(recordFile) : BenchmarksFile.inRepository();
    if (file.isEmpty()) {
      out.println("\nNot recorded: no repository (bin/raidb and docs/) found around this jar or the working directory; "
          + "use --record FILE.");
      return;
    }
    BenchmarksFile.append(file.get(), SECTION, SECTION_INTRO, report.markdown());
    out.println("\nRecorded in " + file.get().toAbsolutePath() + " under \"" + SECTION.substring(3) + "\".");
  }

  private void checkOptions() {
    if (durationSeconds < 1 || warmupSeconds < 0 || rows < 1 || rounds < 1) {
      throw new ParameterException(spec.commandLine(),
          "--duration and --rounds must be at least 1, --rows at least 1, --warmup at least 0");
    }
    int maxThreads = BenchDatabase.backendPoolSize();
    if (threadCounts.isEmpty() || threadCounts.stream().anyMatch(t -> t < 1 || t > maxThreads)) {
      throw new ParameterException(spec.commandLine(), "--threads: each count must be between 1 and " + maxThreads
          + " (the controller's backend pool size; beyond it RAIDb clients would wait for a pooled connection)");
    }
    if (noRecord && recordFile != null) {
      throw new ParameterException(spec.commandLine(), "--record and --no-record exclude each other");
    }
  }
}
