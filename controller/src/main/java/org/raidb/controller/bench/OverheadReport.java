package org.raidb.controller.bench;

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
    s.append("\nTargets (issue 3, item 7):\n");
    verdicts.forEach(v -> s.append("  ").append(v.line()).append('\n'));
    return s.toString();
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
    return s.toString();
  }
}
