package org.raidb.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The console table, the Markdown entry and the targets' verdicts, from made-up figures. */
class OverheadReportTest {
  private static final Machine MACHINE = new Machine(2, 24L << 30, "Linux 6.1.0-test", "Test CPU", "OpenJDK 17.0.15");
  private static final RunDescription RUN = new RunDescription(Instant.parse("2025-01-02T03:04:05Z"), MACHINE,
      "first figures", 10, 3, 2, 10_000, "15.8", false);

  private static final Comparison SELECT_1 =
      new Comparison(Workload.POINT_SELECT, 1, new Figures(12_345.4, 0.0614, 0.1359), new Figures(9_876.6, 0.0752, 0.2));
  private static final Comparison SELECT_16 =
      new Comparison(Workload.POINT_SELECT, 16, new Figures(20_000, 0.7, 2.5), new Figures(15_000, 1.0, 3.5));
  private static final Comparison UPDATE_16 =
      new Comparison(Workload.SINGLE_ROW_UPDATE, 16, new Figures(2_000, 7, 25), new Figures(1_800, 8, 30));

  @Test
  void markdownEntryHasDateLabelMachineSettingsAndOneRowPerComparison() {
    String md = new OverheadReport(RUN, List.of(SELECT_1, SELECT_16, UPDATE_16)).markdown();

    assertThat(md).startsWith("### 2025-01-02 03:04 UTC — first figures\n\n")
        .contains("- Machine: 2 cores (Test CPU), 24.0 GiB, Linux 6.1.0-test, OpenJDK 17.0.15.\n")
        .contains("- Run: 10 s measured after 3 s warm-up per side, 2 rounds (median), 10,000 rows, PostgreSQL 15.8, "
            + "controller in the same JVM.\n")
        .contains("| workload | threads | pgjdbc ops/s | pgjdbc p50 ms | pgjdbc p99 ms | RAIDb ops/s | RAIDb p50 ms "
            + "| RAIDb p99 ms | p50 ratio | ops/s ratio |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
        .contains("| point SELECT | 1 | 12,345 | 0.061 | 0.136 | 9,877 | 0.075 | 0.200 | 1.22 | 0.80 |\n")
        .contains("| single-row UPDATE | 16 | 2,000 | 7.000 | 25.000 | 1,800 | 8.000 | 30.000 | 1.14 | 0.90 |\n")
        .endsWith("\n")
        .doesNotContain("\r");
    assertThat(md.lines().filter(l -> l.startsWith("| point SELECT") || l.startsWith("| single-row UPDATE"))).hasSize(3);
  }

  @Test
  void targetsAreSelectLatencyAtEveryThreadCountAndThroughputAt16ThreadsForBothWorkloads() {
    List<TargetVerdict> verdicts = new OverheadReport(RUN, List.of(SELECT_1, SELECT_16, UPDATE_16)).verdicts();

    assertThat(verdicts).extracting(TargetVerdict::line).containsExactly(
        "point SELECT p50 through RAIDb <= 1.30x pgjdbc's at 1 thread: met (1.22x)",
        "point SELECT p50 through RAIDb <= 1.30x pgjdbc's at 16 threads: NOT met (1.43x)",
        "point SELECT throughput through RAIDb >= 0.85x pgjdbc's at 16 threads: NOT met (0.75x)",
        "single-row UPDATE throughput through RAIDb >= 0.85x pgjdbc's at 16 threads: met (0.90x)");
  }

  @Test
  void aThroughputTargetWithoutA16ThreadRunIsNotMeasuredRatherThanFailed() {
    List<TargetVerdict> verdicts = OverheadTargets.judge(List.of(SELECT_1));

    assertThat(verdicts).extracting(TargetVerdict::status).containsExactly(TargetVerdict.Status.MET,
        TargetVerdict.Status.NOT_MEASURED, TargetVerdict.Status.NOT_MEASURED);
  }

  @Test
  void consoleTableAlignsItsRowsUnderTheHeader() {
    String console = new OverheadReport(RUN, List.of(SELECT_1, UPDATE_16)).console();
    List<String> lines = console.lines().toList();

    assertThat(lines.get(0)).isEqualTo(OverheadReport.consoleHeader());
    assertThat(lines.get(1)).hasSameSizeAs(lines.get(0)).startsWith("point SELECT").endsWith("1.22        0.80");
    assertThat(lines.get(2)).hasSameSizeAs(lines.get(0)).startsWith("single-row UPDATE");
    assertThat(console).contains("Targets (issue 3, item 7):\n  point SELECT p50");
  }

  @Test
  void cpuFiguresGetTheirOwnTableWithTheThroughputRatioTheyPredict() {
    // pgjdbc: 50 µs per operation in all; RAIDb: 80 µs; both on two busy cores.
    Comparison measured = new Comparison(Workload.POINT_SELECT, 16, new Figures(20_000, 0.7, 2.5),
        new Figures(12_000, 1.2, 3.5), new CpuUse(20, 0, 5, 25, 1.0, 2.0), new CpuUse(20, 30, 5, 25, 0.96, 1.98));
    String md = new OverheadReport(RUN, List.of(measured)).markdown();

    assertThat(md).contains("| point SELECT | 16 | pgjdbc | 20.0 | 0.0 | 5.0 | 25.0 | 50.0 | 1.00 | 2.00 | |\n")
        .contains("| point SELECT | 16 | RAIDb | 20.0 | 30.0 | 5.0 | 25.0 | 80.0 | 0.96 | 1.98 | 0.63 (measured 0.60) |\n");
    assertThat(new OverheadReport(RUN, List.of(measured)).console())
        .contains("point SELECT       16 threads: 0.63 expected, 0.60 measured");
    assertThat(new OverheadReport(RUN, List.of(SELECT_1)).markdown()).as("no CPU figures, no CPU table")
        .doesNotContain("CPU per operation");
  }
}
