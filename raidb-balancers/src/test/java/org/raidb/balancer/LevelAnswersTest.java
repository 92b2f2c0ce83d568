package org.raidb.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.raidb.balancer.Requests.read;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.raidb.balancer.PlacementProblem.Severity;

/**
 * What each level answers the controller besides routing: whether reads are voted, whether commits
 * spanning backends take two phases, whether backends hold subsets of the tables, where new tables go
 * and what a placement must satisfy.
 */
class LevelAnswersTest {
    private final CreateTablePolicy oneCopy = Raidb0LoadBalancer.defaultCreateTablePolicy();
    private final CreateTablePolicy twoCopies = new CreateTablePolicy(List.of(), CreateTableRule.roundRobin(2));
    private final Map<String, Set<String>> placement = new LinkedHashMap<>();

    private static Raidb1LoadBalancer raidb1() {
        return new Raidb1LoadBalancer(new RoundRobinReadPolicy(), CompletionPolicy.ALL);
    }

    private Raidb2LoadBalancer raidb2() {
        return new Raidb2LoadBalancer(new RoundRobinReadPolicy(), CompletionPolicy.ALL, twoCopies);
    }

    @Test
    void raidb0IsPartialCommitsInTwoPhasesAndKeepsOneCopy() {
        Raidb0LoadBalancer lb = new Raidb0LoadBalancer(oneCopy);
        assertThat(lb.readVote()).isEmpty();
        assertThat(lb.partial()).isTrue();
        assertThat(lb.commitsInTwoPhases()).isTrue();
        assertThat(lb.createTablePolicy()).isSameAs(oneCopy);
        placement.put("a", Set.of("item", "orders"));
        placement.put("b", Set.of("orders"));
        assertThat(lb.placementProblems(placement, Set.of())).singleElement().satisfies(p -> {
            assertThat(p.severity()).isEqualTo(Severity.ERROR);
            assertThat(p.message()).contains("RAIDb-0 keeps each table on exactly one backend");
        });
    }

    @Test
    void raidb1HoldsEverythingEverywhereAndCommitsInOnePhase() {
        Raidb1LoadBalancer lb = raidb1();
        assertThat(lb.readVote()).isEmpty();
        assertThat(lb.partial()).isFalse();
        assertThat(lb.commitsInTwoPhases()).isFalse();
        assertThat(lb.createTablePolicy().ruleFor("t").choice()).isEqualTo(CreateTableRule.Choice.ALL);
        placement.put("a", Set.of());
        placement.put("b", Set.of());
        assertThat(lb.placementProblems(placement, Set.of("item"))).isEmpty();
    }

    @Test
    void raidb2IsPartialCommitsInOnePhaseAndPlacesByItsRules() {
        Raidb2LoadBalancer lb = raidb2();
        assertThat(lb.readVote()).isEmpty();
        assertThat(lb.partial()).isTrue();
        assertThat(lb.commitsInTwoPhases()).isFalse();
        assertThat(lb.createTablePolicy()).isSameAs(twoCopies);
        placement.put("a", Set.of("item", "orders"));
        placement.put("b", Set.of("item"));
        assertThat(lb.placementProblems(placement, Set.of())).singleElement().satisfies(p -> {
            assertThat(p.table()).isEqualTo("orders");
            assertThat(p.message()).contains("gives tables of that name 2 copies");
        });
    }

    @Test
    void raidb1ecVotesOnReadsAndOtherwiseAnswersAsRaidb1() throws Exception {
        ErrorCheckingLoadBalancer lb = new ErrorCheckingLoadBalancer(raidb1(), 3);
        assertThat(lb.readVote())
                .hasValueSatisfying(vote -> assertThat(vote.nodes()).isEqualTo(3));
        assertThat(lb.readVote()).isSameAs(lb.readVote()); // asked on every read: nothing allocated
        List<FakeBackend> four =
                List.of(new FakeBackend("a"), new FakeBackend("b"), new FakeBackend("c"), new FakeBackend("d"));
        assertThat(lb.readVote().orElseThrow().checkedRead(read("t"), four).askFirst())
                .hasSize(3);
        assertThat(lb.partial()).isFalse();
        assertThat(lb.commitsInTwoPhases()).isFalse();
        assertThat(lb.createTablePolicy().ruleFor("t").choice()).isEqualTo(CreateTableRule.Choice.ALL);
        placement.put("a", Set.of());
        placement.put("b", Set.of());
        assertThat(lb.placementProblems(placement, Set.of()))
                .singleElement()
                .extracting(PlacementProblem::message)
                .asString()
                .startsWith("raidb1ec has 2 backends: error checking needs 3");
    }

    @Test
    void raidb2ecVotesOnReadsAndOtherwiseAnswersAsRaidb2() {
        ErrorCheckingLoadBalancer lb = new ErrorCheckingLoadBalancer(raidb2(), 2);
        assertThat(lb.readVote())
                .hasValueSatisfying(vote -> assertThat(vote.nodes()).isEqualTo(2));
        assertThat(lb.partial()).isTrue();
        assertThat(lb.commitsInTwoPhases()).isFalse();
        assertThat(lb.createTablePolicy()).isSameAs(twoCopies);
        placement.put("a", Set.of("orders"));
        placement.put("b", Set.of("orders"));
        assertThat(lb.placementProblems(placement, Set.of())).singleElement().satisfies(p -> {
            assertThat(p.severity()).isEqualTo(Severity.WARNING);
            assertThat(p.message()).contains("error checking needs 3 copies");
        });
    }
}
