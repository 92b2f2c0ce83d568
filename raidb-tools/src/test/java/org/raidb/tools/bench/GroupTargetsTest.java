package org.raidb.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 16's verdicts on given figures: the baseline is one controller without a group. */
class GroupTargetsTest {

    private static GroupComparison comparison(Workload workload, double... opsAndP50) {
        Map<GroupSetup, Figures> figures = new LinkedHashMap<>();
        List<GroupSetup> setups = GroupCommand.setups(List.of(1, 2, 3));
        for (int i = 0; i < setups.size() && 2 * i < opsAndP50.length; i++) {
            figures.put(setups.get(i), new Figures(opsAndP50[2 * i], opsAndP50[2 * i + 1], 10));
        }
        return new GroupComparison(true, workload, 16, figures, Map.of());
    }

    @Test
    void setupsArePgjdbcTheBaselineThenAGroupOfEachCount() {
        assertThat(GroupCommand.setups(List.of(3, 1, 2)).stream().map(GroupSetup::title))
                .containsExactly(
                        "pgjdbc, 1 server",
                        "1 controller, no group",
                        "1 controller, group of 1",
                        "2 controllers, group",
                        "3 controllers, group");
    }

    @Test
    void readsAreJudgedAgainstOneControllerWithoutAGroupNotTheGroupOfOne() {
        // pgjdbc, 1 no group, group of 1, 2, 3: 2 controllers 1.8x the baseline exactly, 3 controllers 2.5x.
        GroupComparison reads = comparison(Workload.POINT_SELECT, 900, 1, 1000, 1, 500, 1, 1800, 1, 2500, 1);
        List<TargetVerdict> verdicts = GroupTargets.judge(List.of(reads), true);
        assertThat(verdicts).hasSize(3);
        assertThat(verdicts.get(0).status()).isEqualTo(TargetVerdict.Status.MET);
        assertThat(verdicts.get(0).measured()).startsWith("1.80x: 1,800 against 1,000 ops/s");
        assertThat(verdicts.get(1).status()).isEqualTo(TargetVerdict.Status.NOT_MET);
        assertThat(verdicts.get(1).line()).contains("3 controllers >= 2.6x").contains("16 clients, fsync on");
        assertThat(verdicts.get(2).status()).isEqualTo(TargetVerdict.Status.NOT_MEASURED);
    }

    @Test
    void writesNeedThroughputAndLatencyBoth() {
        // 3 controllers: 0.75x the throughput (met) with 2.5x the p50 (missed).
        GroupComparison writes = comparison(Workload.SINGLE_ROW_UPDATE, 900, 1, 1000, 2, 900, 2.2, 800, 3, 750, 5);
        List<TargetVerdict> verdicts = GroupTargets.judge(List.of(writes), true);
        assertThat(verdicts.get(0).status()).isEqualTo(TargetVerdict.Status.MET);
        assertThat(verdicts.get(0).measured()).startsWith("0.75x");
        assertThat(verdicts.get(1).status()).isEqualTo(TargetVerdict.Status.NOT_MET);
        assertThat(verdicts.get(1).measured()).isEqualTo("2.50x: 5.000 against 2.000 ms");
    }

    @Test
    void withoutThreeControllersTheWriteTargetsAreNotMeasured() {
        GroupComparison writes = comparison(Workload.SINGLE_ROW_UPDATE, 900, 1, 1000, 2, 900, 2.2);
        List<TargetVerdict> verdicts = GroupTargets.judge(List.of(writes), true);
        assertThat(verdicts.subList(0, 2))
                .extracting(TargetVerdict::status)
                .containsOnly(TargetVerdict.Status.NOT_MEASURED);
        assertThat(verdicts.get(0).measured()).isEqualTo("3 controllers not in --controllers");
    }

    @Test
    void readVerdictsSayWhenTheBackendsWereNotCapped() {
        GroupComparison reads = comparison(Workload.POINT_SELECT, 900, 1, 1000, 1, 500, 1, 1800, 1, 2600, 1);
        assertThat(GroupTargets.judge(List.of(reads), false).get(1).line())
                .contains("backends NOT capped as the target assumes")
                .contains(": met");
    }
}
