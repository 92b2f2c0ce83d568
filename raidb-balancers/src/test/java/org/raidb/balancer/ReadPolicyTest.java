package org.raidb.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReadPolicyTest {
    private final FakeBackend a = new FakeBackend("a");
    private final FakeBackend b = new FakeBackend("b");
    private final FakeBackend c = new FakeBackend("c");
    private final Request read = Request.autoCommitRead(Set.of("t"));

    private static Map<String, Integer> counts(ReadPolicy p, List<FakeBackend> backends, int reads, Request r) {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < reads; i++) {
            counts.merge(p.choose(backends, r).name(), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void roundRobinVisitsEachCandidateInTurn() {
        ReadPolicy p = new RoundRobinReadPolicy();
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            order.add(p.choose(List.of(a, b, c), read).name());
        }
        assertThat(order).containsExactly("a", "b", "c", "a", "b", "c");
    }

    @Test
    void weightedRoundRobinHonoursWeightsExactlyAndInterleaves() {
        a.weight(5);
        ReadPolicy p = new WeightedRoundRobinReadPolicy();
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            order.add(p.choose(List.of(a, b, c), read).name());
        }
        assertThat(order).containsExactly("a", "a", "b", "a", "c", "a", "a");
        assertThat(counts(p, List.of(a, b, c), 700, read))
                .containsEntry("a", 500)
                .containsEntry("b", 100)
                .containsEntry("c", 100);
    }

    @Test
    void weightedRoundRobinTreatsEqualWeightsAsRoundRobin() {
        ReadPolicy p = new WeightedRoundRobinReadPolicy();
        assertThat(counts(p, List.of(a, b, c), 300, read))
                .containsEntry("a", 100)
                .containsEntry("b", 100)
                .containsEntry("c", 100);
    }

    @Test
    void leastPendingPicksTheLeastLoadedBackend() {
        a.pending = 5;
        b.pending = 1;
        c.pending = 3;
        ReadPolicy p = new LeastPendingReadPolicy();
        assertThat(counts(p, List.of(a, b, c), 10, read)).containsOnlyKeys("b");
    }

    @Test
    void leastPendingSharesTiesInsteadOfFavouringTheFirst() {
        ReadPolicy p = new LeastPendingReadPolicy();
        assertThat(counts(p, List.of(a, b, c), 300, read))
                .containsEntry("a", 100)
                .containsEntry("b", 100)
                .containsEntry("c", 100);
    }

    @Test
    void severalInTurnAreConsecutiveWindows() {
        ReadPolicy p = new RoundRobinReadPolicy();
        FakeBackend d = new FakeBackend("d");
        List<List<FakeBackend>> picks = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            picks.add(p.chooseSeveral(List.of(a, b, c, d), 3, read));
        }
        assertThat(picks).containsExactly(List.of(a, b, c), List.of(d, a, b), List.of(c, d, a));
    }

    @Test
    void severalLeastPendingAreTheLeastLoaded() {
        a.pending = 5;
        b.pending = 1;
        c.pending = 3;
        assertThat(new LeastPendingReadPolicy().chooseSeveral(List.of(a, b, c), 2, read))
                .containsExactly(b, c);
    }

    @Test
    void severalWeightedAreDistinct() {
        a.weight(10);
        assertThat(new WeightedRoundRobinReadPolicy().chooseSeveral(List.of(a, b, c), 3, read))
                .containsExactlyInAnyOrder(a, b, c);
    }

    @Test
    void policiesResolveByNameAndClassName() {
        assertThat(ReadPolicies.byName("roundRobin")).isInstanceOf(RoundRobinReadPolicy.class);
        assertThat(ReadPolicies.byName("weightedRoundRobin")).isInstanceOf(WeightedRoundRobinReadPolicy.class);
        assertThat(ReadPolicies.byName("leastPending")).isInstanceOf(LeastPendingReadPolicy.class);
        assertThat(ReadPolicies.byName(LeastPendingReadPolicy.class.getName()))
                .isInstanceOf(LeastPendingReadPolicy.class);
        assertThatThrownBy(() -> ReadPolicies.byName("fastest")).hasMessageContaining("unknown read policy 'fastest'");
        assertThatThrownBy(() -> ReadPolicies.byName(String.class.getName()))
                .hasMessageContaining("does not implement");
    }
}
