package org.raidb.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The console table, the Markdown entry and the targets' verdicts, from made-up figures. */
class OverheadReportTest {
    private static final Machine MACHINE = new Machine(2, 24L << 30, "Linux 6.1.0-test", "Test CPU", "OpenJDK 17.0.15");
    private static final RunDescription RUN = new RunDescription(
            Instant.parse("2025-01-02T03:04:05Z"), MACHINE, "first figures", 10, 3, 2, 10_000, "15.8", false);
    private static final RunDescription TWO_BACKENDS = new RunDescription(
            Instant.parse("2025-01-02T03:04:05Z"),
            MACHINE,
            "issue 14",
            5,
            1,
            3,
            10_000,
            "15.8",
            false,
            2,
            "on and off",
            "pgpool-II version 4.3.5",
            "ext4 (/tmp)",
            "3.10, 2.00, 1.50");

    private static final Comparison SELECT_1 = Comparison.of(
            Workload.POINT_SELECT, 1, new Figures(12_345.4, 0.0614, 0.1359), new Figures(9_876.6, 0.0752, 0.2));
    private static final Comparison SELECT_16 =
            Comparison.of(Workload.POINT_SELECT, 16, new Figures(20_000, 0.7, 2.5), new Figures(15_000, 1.0, 3.5));
    private static final Comparison UPDATE_16 =
            Comparison.of(Workload.SINGLE_ROW_UPDATE, 16, new Figures(2_000, 7, 25), new Figures(1_800, 8, 30));

    /** Four sides: pgjdbc 2,000 ops/s, RAIDb (log on) 1,000, RAIDb log off 1,600, pgpool-II 400. */
    private static Comparison fourSides(boolean fsync, int threads) {
        return new Comparison(
                fsync,
                Workload.SINGLE_ROW_UPDATE,
                threads,
                Map.of(
                        Side.PGJDBC, new Figures(2_000, 1, 5),
                        Side.RAIDB, new Figures(1_000, 2, 8),
                        Side.RAIDB_LOG_OFF, new Figures(1_600, 1.25, 6),
                        Side.PGPOOL, new Figures(400, 4, 20)),
                Map.of());
    }

    @Test
    void markdownEntryHasDateLabelMachineSettingsAndOneRowPerSide() {
        String md = new OverheadReport(RUN, List.of(SELECT_1, SELECT_16, UPDATE_16)).markdown();

        assertThat(md)
                .startsWith("### 2025-01-02 03:04 UTC — first figures\n\n")
                .contains("- Machine: 2 cores (Test CPU), 24.0 GiB, Linux 6.1.0-test, OpenJDK 17.0.15.\n")
                .contains(
                        "- Run: 10 s measured after 3 s warm-up per side, 2 rounds (median, sides rotating which goes first), "
                                + "10,000 rows, PostgreSQL 15.8, controller in the same JVM.\n")
                .contains(
                        "- Sides: pgjdbc straight to one server; RAIDb-1 over 1 backend (readPolicy roundRobin, completion all, "
                                + "default scheduler), recovery log on; pgpool-II: not asked for.\n")
                .contains(
                        "| fsync | workload | threads | side | ops/s | p50 ms | p99 ms | ops/s ÷ pgjdbc | p50 ÷ pgjdbc "
                                + "| ops/s ÷ pgpool-II | p50 ÷ pgpool-II |\n|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n")
                .contains("| on | point SELECT | 1 | pgjdbc | 12,345 | 0.061 | 0.136 |  |  |  |  |\n")
                .contains("| on | point SELECT | 1 | RAIDb | 9,877 | 0.075 | 0.200 | 0.80 | 1.22 |  |  |\n")
                .contains("| on | single-row UPDATE | 16 | RAIDb | 1,800 | 8.000 | 30.000 | 0.90 | 1.14 |  |  |\n")
                .contains("- fsync on, point SELECT, 1 thread: RAIDb/pgjdbc ops/s 0.80, p50 1.22\n")
                .endsWith("\n")
                .doesNotContain("\r");
        assertThat(md.lines().filter(l -> l.startsWith("| on |"))).hasSize(6);
    }

    @Test
    void everySideIsReportedWithItsRatiosToPgjdbcAndPgpoolAndTheLogsCost() {
        OverheadReport report = new OverheadReport(TWO_BACKENDS, List.of(fourSides(true, 16), fourSides(false, 16)));
        String md = report.markdown();

        assertThat(md)
                .contains("- Machine: 2 cores (Test CPU), 24.0 GiB, Linux 6.1.0-test, OpenJDK 17.0.15; load average at "
                        + "start 3.10, 2.00, 1.50.\n")
                .contains(
                        "RAIDb-1 over 2 backends (readPolicy roundRobin, completion all, default scheduler), recovery log on "
                                + "and off; pgpool-II: pgpool-II version 4.3.5.\n")
                .contains(
                        "- Servers' data directories and the recovery log on ext4 (/tmp); fsync as printed with each figure")
                .contains(
                        "| on | single-row UPDATE | 16 | RAIDb | 1,000 | 2.000 | 8.000 | 0.50 | 2.00 | 2.50 | 0.50 |\n")
                .contains(
                        "| on | single-row UPDATE | 16 | RAIDb log off | 1,600 | 1.250 | 6.000 | 0.80 | 1.25 | 4.00 | 0.31 |\n")
                .contains("| off | single-row UPDATE | 16 | pgpool-II | 400 | 4.000 | 20.000 | 0.20 | 4.00 |  |  |\n")
                .contains(
                        "- fsync off, single-row UPDATE, 16 threads: RAIDb/pgjdbc ops/s 0.50, p50 2.00; RAIDb log off/pgjdbc "
                                + "ops/s 0.80, p50 1.25; pgpool-II/pgjdbc ops/s 0.20, p50 4.00; RAIDb/pgpool-II ops/s 2.50, p50 0.50; "
                                + "RAIDb log off/pgpool-II ops/s 4.00, p50 0.31; recovery log on/off ops/s 0.63, p50 1.60\n");
        assertThat(report.console())
                .as("every console row says its fsync setting and side")
                .containsPattern("(?m)^fsync on  single-row UPDATE +16 RAIDb log off +\\|")
                .containsPattern("(?m)^fsync off single-row UPDATE +16 pgpool-II +\\|");
    }

    @Test
    void issue14TargetsAreJudgedPerFsyncSettingOnTheLogOnSide() {
        List<TargetVerdict> verdicts = OverheadTargets.judge(List.of(fourSides(true, 16), fourSides(false, 16)), 2);

        assertThat(verdicts)
                .extracting(TargetVerdict::line)
                .contains(
                        "[fsync on] single-row UPDATE throughput through RAIDb-1 on 2 backends, log on, >= 0.80x pgjdbc's (one server) "
                                + "at 16 threads: NOT met (0.50x)",
                        "[fsync off] single-row UPDATE throughput through RAIDb-1 on 2 backends, log on, >= 2.00x pgpool-II's at 16 "
                                + "threads: met (2.50x)",
                        "[fsync on] recovery log cost: single-row UPDATE throughput log on >= 0.90x log off at 16 threads: NOT met (0.63x)",
                        "[fsync on] single-row UPDATE p50 through RAIDb-1 on 2 backends, log on, <= 1.50x pgjdbc's at 1 thread: "
                                + "not measured (no 1-thread single-row UPDATE run)",
                        "[fsync on] controller CPU per point SELECT <= 20 µs at 16 threads: not measured (no 16-thread point SELECT run)");
    }

    @Test
    void targetsOfTwoBackendsOrPgpoolOrTheLogAreNotMeasuredWhenTheRunLacksThem() {
        Comparison oneBackendLogOff = new Comparison(
                true,
                Workload.SINGLE_ROW_UPDATE,
                16,
                Map.of(Side.PGJDBC, new Figures(2_000, 1, 5), Side.RAIDB_LOG_OFF, new Figures(1_600, 1.25, 6)),
                Map.of());

        List<String> lines = OverheadTargets.judge(List.of(oneBackendLogOff), 1).stream()
                .map(TargetVerdict::line)
                .toList();

        assertThat(lines)
                .contains(
                        "single-row UPDATE throughput through RAIDb log off >= 0.85x pgjdbc's at 16 threads: NOT met (0.80x)",
                        "single-row UPDATE throughput through RAIDb-1 on 2 backends, log on, >= 2.00x pgpool-II's at 16 threads: "
                                + "not measured (run on 1 backend)",
                        "recovery log cost: single-row UPDATE throughput log on >= 0.90x log off at 16 threads: not measured (no RAIDb side)");
    }

    @Test
    void issue3TargetsAreSelectLatencyAtEveryThreadCountAndThroughputAt16ThreadsForBothWorkloads() {
        List<TargetVerdict> verdicts = new OverheadReport(RUN, List.of(SELECT_1, SELECT_16, UPDATE_16)).verdicts();

        assertThat(verdicts.subList(0, 4))
                .extracting(TargetVerdict::line)
                .containsExactly(
                        "point SELECT p50 through RAIDb <= 1.30x pgjdbc's at 1 thread: met (1.22x)",
                        "point SELECT p50 through RAIDb <= 1.30x pgjdbc's at 16 threads: NOT met (1.43x)",
                        "point SELECT throughput through RAIDb >= 0.85x pgjdbc's at 16 threads: NOT met (0.75x)",
                        "single-row UPDATE throughput through RAIDb >= 0.85x pgjdbc's at 16 threads: met (0.90x)");
    }

    @Test
    void aThroughputTargetWithoutA16ThreadRunIsNotMeasuredRatherThanFailed() {
        List<TargetVerdict> verdicts = OverheadTargets.judge(List.of(SELECT_1));

        assertThat(verdicts.subList(0, 3))
                .extracting(TargetVerdict::status)
                .containsExactly(
                        TargetVerdict.Status.MET, TargetVerdict.Status.NOT_MEASURED, TargetVerdict.Status.NOT_MEASURED);
        assertThat(verdicts)
                .noneMatch(v ->
                        v.status() == TargetVerdict.Status.MET && v.target().contains("2 backends"));
    }

    @Test
    void consoleTableAlignsItsRowsUnderTheHeader() {
        String console = new OverheadReport(RUN, List.of(SELECT_1, UPDATE_16)).console();
        List<String> lines = console.lines().toList();
        int header = lines.indexOf(OverheadReport.consoleHeader());

        assertThat(header).isPositive();
        assertThat(lines.get(header + 1)).hasSameSizeAs(lines.get(header)).startsWith("fsync on  point SELECT");
        assertThat(lines.get(header + 2))
                .hasSameSizeAs(lines.get(header))
                .startsWith("fsync on  point SELECT")
                .contains(" RAIDb ")
                .endsWith("0.80       1.22 |                      ");
        assertThat(lines.get(header + 4)).hasSameSizeAs(lines.get(header)).startsWith("fsync on  single-row UPDATE");
        assertThat(console).contains("Targets (issue 3, item 7; issue 14):\n  point SELECT p50");
    }

    @Test
    void cpuFiguresGetTheirOwnTableWithTheThroughputRatioTheyPredict() {
        // pgjdbc: 50 µs per operation in all; RAIDb: 80 µs; pgpool-II 100 µs, 40 of them its own; all on two busy
        // cores.
        Comparison measured = new Comparison(
                true,
                Workload.POINT_SELECT,
                16,
                Map.of(
                        Side.PGJDBC,
                        new Figures(20_000, 0.7, 2.5),
                        Side.RAIDB,
                        new Figures(12_000, 1.2, 3.5),
                        Side.PGPOOL,
                        new Figures(9_000, 2, 5)),
                Map.of(
                        Side.PGJDBC,
                        new CpuUse(20, 0, 5, 25, 1.0, 2.0, 0, 0),
                        Side.RAIDB,
                        new CpuUse(20, 30, 5, 25, 0.96, 1.98, 0, 12),
                        Side.PGPOOL,
                        new CpuUse(20, 0, 5, 35, 0.9, 2.0, 40, 0)));
        OverheadReport report = new OverheadReport(RUN, List.of(measured));
        String md = report.markdown();

        assertThat(md)
                .contains(
                        "| on | point SELECT | 16 | pgjdbc | 20.0 | 0.0 | 0.0 | 5.0 | 25.0 | 0.0 | 50.0 | 1.00 | 2.00 |  |\n")
                .contains(
                        "| on | point SELECT | 16 | RAIDb | 20.0 | 30.0 | 12.0 | 5.0 | 25.0 | 0.0 | 80.0 | 0.96 | 1.98 | 0.63 (measured 0.60) |\n")
                .contains(
                        "| on | point SELECT | 16 | pgpool-II | 20.0 | 0.0 | 0.0 | 5.0 | 35.0 | 40.0 | 100.0 | 0.90 | 2.00 | 0.50 (measured 0.45) |\n");
        assertThat(report.console())
                .contains("fsync on  point SELECT       16 threads RAIDb        : 0.63 expected, 0.60 measured");
        assertThat(new OverheadReport(RUN, List.of(SELECT_1)).markdown())
                .as("no CPU figures, no CPU table")
                .doesNotContain("CPU per operation");
    }
}
