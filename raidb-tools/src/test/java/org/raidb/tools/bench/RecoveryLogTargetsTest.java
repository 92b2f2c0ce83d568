package org.raidb.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 15's verdicts on given figures: arithmetic and wording only, nothing run or timed. */
class RecoveryLogTargetsTest {
    private static final Figures WRITES = new Figures(1000, 10, 20);

    private static RecoveryLogTargets run(
            LogSize wholeLog,
            LogSize batchGrowth,
            double restartSeconds,
            double firstBatchSeconds,
            double duringOpsPerSecond,
            int purged,
            double adminMaxMillis) {
        return new RecoveryLogTargets(
                wholeLog,
                new BatchLoad.Result(100_000, 5, batchGrowth),
                new ReplayFigures(50_000, firstBatchSeconds, 2),
                1_500_000,
                new RestartableController.Restart(1_500_000, 2, restartSeconds),
                new PurgeUnderLoad.Result(
                        WRITES,
                        new Figures(duringOpsPerSecond, 12, 25),
                        purged,
                        3,
                        new AdminLatencyProbe.Figures(60, 5, 20, 0, null),
                        new AdminLatencyProbe.Figures(60, 5, adminMaxMillis, 0, null),
                        0));
    }

    private static List<TargetVerdict.Status> statuses(RecoveryLogTargets t) {
        return t.verdicts().stream().map(TargetVerdict::status).toList();
    }

    @Test
    void aRunWithinEveryTargetMeetsThemAll() {
        RecoveryLogTargets t = run(new LogSize(2_900, 1_000), new LogSize(3_000, 1_000), 4.9, 0.5, 800, 1_500_000, 199);

        assertThat(statuses(t)).hasSize(7).containsOnly(TargetVerdict.Status.MET);
        assertThat(t.table())
                .startsWith("| issue 15 target | measured | verdict |")
                .doesNotContain("not its case");
    }

    @Test
    void eachFigureBeyondItsTargetIsNotMet() {
        RecoveryLogTargets t = run(new LogSize(3_100, 1_000), new LogSize(4_000, 1_000), 5.1, 1.2, 790, 1_500_000, 201);

        // The replay rate (25,000 entries/s) is the one figure left within its target.
        assertThat(statuses(t))
                .containsExactly(
                        TargetVerdict.Status.NOT_MET,
                        TargetVerdict.Status.NOT_MET,
                        TargetVerdict.Status.NOT_MET,
                        TargetVerdict.Status.NOT_MET,
                        TargetVerdict.Status.MET,
                        TargetVerdict.Status.NOT_MET,
                        TargetVerdict.Status.NOT_MET);
        assertThat(t.table()).contains("3.10×").contains("0.79×").contains("max 201.0 ms");
    }

    @Test
    void aPurgeSmallerThanTheTargetsSaysItIsNotTheTargetsCase() {
        RecoveryLogTargets t = run(new LogSize(2_000, 1_000), new LogSize(2_000, 1_000), 1, 0.1, 900, 200_000, 10);

        assertThat(t.verdicts().get(5).measured())
                .contains("200,000 entries purged")
                .contains("not its case");
    }

    @Test
    void aStoreThatCannotSayItsSizeIsNotMeasuredRatherThanMet() {
        RecoveryLogTargets t = run(new LogSize(-1, 1_000), new LogSize(2_000, 0), 1, 0.1, 900, 1_500_000, 10);

        assertThat(statuses(t).subList(0, 2))
                .containsExactly(TargetVerdict.Status.NOT_MEASURED, TargetVerdict.Status.NOT_MEASURED);
    }

    @Test
    void anAdminRequestThatFailedDuringThePurgeIsNotMet() {
        RecoveryLogTargets ok = run(new LogSize(2_000, 1_000), new LogSize(2_000, 1_000), 1, 0.1, 900, 1_500_000, 10);
        RecoveryLogTargets failed = new RecoveryLogTargets(
                ok.wholeLog(),
                ok.batchLoad(),
                ok.replay(),
                ok.replayLogEntries(),
                ok.restart(),
                new PurgeUnderLoad.Result(
                        WRITES,
                        WRITES,
                        1_500_000,
                        3,
                        new AdminLatencyProbe.Figures(60, 5, 10, 0, null),
                        new AdminLatencyProbe.Figures(59, 5, 10, 1, "request timed out"),
                        0));

        assertThat(failed.verdicts().get(6).status()).isEqualTo(TargetVerdict.Status.NOT_MET);
        assertThat(failed.verdicts().get(6).measured()).contains("1 failed (first: request timed out)");
    }

    @Test
    void aPhaseReadsTheLogsGrowthAndAnUnknownStoreStaysUnknown() {
        assertThat(new LogSize(5_000, 1_500).since(new LogSize(2_000, 500))).isEqualTo(new LogSize(3_000, 1_000));
        assertThat(new LogSize(5_000, 1_500).since(new LogSize(-1, 500)).known())
                .isFalse();
    }
}
