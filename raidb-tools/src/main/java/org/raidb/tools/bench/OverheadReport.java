package org.raidb.tools.bench;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/** The benchmark's figures as text: a table for the terminal and a Markdown entry for docs/benchmarks.md. */
final class OverheadReport {
  private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

  private final RunDescription run;
  private final List<Comparison> comparisons;
  private final List<TargetVerdict> verdicts;

  OverheadReport(RunDescription run, List<Comparison> comparisons) {
    this.run = run;
    this.comparisons = List.copyOf(comparisons);
    this.verdicts = OverheadTargets.judge(comparisons);
  }

  List<TargetVerdict> verdicts() {
    return verdicts;
  }

  static String consoleHeader() {
    return String.format(Locale.ROOT, "%-18s %7s | %10s %8s %8s | %10s %8s %8s | %9s %11s",
        "workload", "threads", "pgjdbc/s", "p50 ms", "p99 ms", "RAIDb/s", "p50 ms", "p99 ms", "p50 ratio", "ops/s ratio");
  }

  static String consoleRow(Comparison c) {
    return String.format(Locale.ROOT, "%-18s %7d | %,10.0f %8.3f %8.3f | %,10.0f %8.3f %8.3f | %9.2f %11.2f",
        c.workload().title(), c.threads(), c.pgjdbc().opsPerSecond(), c.pgjdbc().p50Millis(), c.pgjdbc().p99Millis(),
        c.raidb().opsPerSecond(), c.raidb().p50Millis(), c.raidb().p99Millis(), c.latencyRatio(), c.throughputRatio());
  }

  String console() {
    StringBuilder s = new StringBuilder();
    s.append(consoleHeader()).append('\n');
    comparisons.forEach(c -> s.append(consoleRow(c)).append('\n'));
    if (hasCpu()) {
      s.append("\nCPU per operation (microseconds) and cores busy during the measured windows:\n");
      s.append(String.format(Locale.ROOT, "%-18s %7s %-7s | %8s %10s %9s %10s %8s | %9s %13s%n", "workload", "threads",
          "side", "client", "controller", "other JVM", "PostgreSQL", "total", "run cores", "machine cores"));
      for (Comparison c : comparisons) {
        s.append(consoleCpuRow(c, "pgjdbc", c.pgjdbcCpu())).append(consoleCpuRow(c, "RAIDb", c.raidbCpu()));
      }
      s.append("\nThroughput ratio expected if the cores are the limit (pgjdbc CPU/op / RAIDb CPU/op) vs measured:\n");
      for (Comparison c : comparisons) {
        s.append(String.format(Locale.ROOT, "  %-18s %2d threads: %.2f expected, %.2f measured%n", c.workload().title(),
            c.threads(), c.cpuBoundThroughputRatio(), c.throughputRatio()));
      }
    }
    s.append("\nTargets (issue 3, item 7):\n");
    verdicts.forEach(v -> s.append("  ").append(v.line()).append('\n'));
    return s.toString();
  }

  private boolean hasCpu() {
    return comparisons.stream().allMatch(c -> c.pgjdbcCpu() != null && c.raidbCpu() != null);
  }

  private static String consoleCpuRow(Comparison c, String side, CpuUse u) {
    return String.format(Locale.ROOT, "%-18s %7d %-7s | %8.1f %10.1f %9.1f %10.1f %8.1f | %9.2f %13.2f%n",
        c.workload().title(), c.threads(), side, u.clientMicrosPerOp(), u.controllerMicrosPerOp(), u.otherJvmMicrosPerOp(),
        u.postgresMicrosPerOp(), u.totalMicrosPerOp(), u.runCores(), u.machineBusyCores());
  }

  private static String markdownCpuRow(Comparison c, String side, CpuUse u) {
    return String.format(Locale.ROOT, "| %s | %d | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f |\n",
        c.workload().title(), c.threads(), side, u.clientMicrosPerOp(), u.controllerMicrosPerOp(), u.otherJvmMicrosPerOp(),
        u.postgresMicrosPerOp(), u.totalMicrosPerOp(), u.runCores(), u.machineBusyCores());
  }

  /** One dated entry: what was run, where, the table, and the targets. */
  String markdown() {
    StringBuilder s = new StringBuilder();
    s.append("### ").append(WHEN.format(run.start())).append(" — ").append(run.label()).append("\n\n");
    s.append("- Machine: ").append(run.machine().describe()).append(".\n");
    s.append(String.format(Locale.ROOT, "- Run: %d s measured after %d s warm-up per side, %d round%s (median), "
        + "%,d rows, PostgreSQL %s, controller in the same JVM%s.\n", run.durationSeconds(), run.warmupSeconds(),
        run.rounds(), run.rounds() == 1 ? "" : "s", run.rows(), run.postgresVersion(),
        run.profiled() ? ", JFR recording on (figures lower than without)" : ""));
    s.append('\n');
    s.append("| workload | threads | pgjdbc ops/s | pgjdbc p50 ms | pgjdbc p99 ms | RAIDb ops/s | RAIDb p50 ms "
        + "| RAIDb p99 ms | p50 ratio | ops/s ratio |\n");
    s.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Comparison c : comparisons) {
      s.append(String.format(Locale.ROOT, "| %s | %d | %,.0f | %.3f | %.3f | %,.0f | %.3f | %.3f | %.2f | %.2f |\n",
          c.workload().title(), c.threads(), c.pgjdbc().opsPerSecond(), c.pgjdbc().p50Millis(), c.pgjdbc().p99Millis(),
          c.raidb().opsPerSecond(), c.raidb().p50Millis(), c.raidb().p99Millis(), c.latencyRatio(), c.throughputRatio()));
    }
    s.append('\n');
    for (TargetVerdict v : verdicts) {
      s.append("- ").append(v.line()).append('\n');
    }
    if (hasCpu()) {
      s.append("\nCPU per operation in microseconds, by who spent it (client threads with their JDBC driver, the "
          + "controller's threads, the rest of the JVM, PostgreSQL's processes), and cores busy during the measured "
          + "windows: those of this run (JVM and PostgreSQL) and the whole machine's (other builds included). The "
          + "last column is the throughput ratio to expect if the cores are the limit: pgjdbc's CPU per operation "
          + "over RAIDb's.\n\n");
      s.append("| workload | threads | side | client µs | controller µs | other JVM µs | PostgreSQL µs | total µs "
          + "| run cores | machine cores | expected ops/s ratio |\n");
      s.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      for (Comparison c : comparisons) {
        s.append(markdownCpuRow(c, "pgjdbc", c.pgjdbcCpu()).replaceFirst("\\|\\n$", "| |\n"));
        s.append(markdownCpuRow(c, "RAIDb", c.raidbCpu()).replaceFirst("\\|\\n$",
            String.format(Locale.ROOT, "| %.2f (measured %.2f) |\n", c.cpuBoundThroughputRatio(), c.throughputRatio())));
      }
    }
    return s.toString();
  }
}
