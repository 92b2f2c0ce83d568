package org.raidb.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The factory: a level's configuration name and settings give its balancer, or an error saying what to change. */
class LoadBalancersTest {

    private static LevelConfig level(String name, Integer nodes, CreateTableRule... rules) {
        return new LevelConfig(name, "leastPending", "majority", nodes, List.of(rules));
    }

    @Test
    void eachLevelNameBuildsItsBalancerWithTheConfiguredPolicies() {
        LoadBalancer raidb1 = LoadBalancers.of(new LevelConfig("raidb1", "leastPending", "majority"));
        assertThat(raidb1)
                .isInstanceOfSatisfying(
                        Raidb1LoadBalancer.class,
                        lb -> assertThat(lb.readPolicy()).isInstanceOf(LeastPendingReadPolicy.class));
        assertThat(raidb1.completion()).isEqualTo(CompletionPolicy.MAJORITY);

        LoadBalancer raidb2 = LoadBalancers.of(level("raidb2", null));
        assertThat(raidb2)
                .isInstanceOfSatisfying(
                        Raidb2LoadBalancer.class,
                        lb -> assertThat(lb.readPolicy()).isInstanceOf(LeastPendingReadPolicy.class));
        assertThat(raidb2.completion()).isEqualTo(CompletionPolicy.MAJORITY);

        assertThat(LoadBalancers.of(level("raidb0", null))).isInstanceOf(Raidb0LoadBalancer.class);
    }

    @Test
    void raidb0WaitsForEveryBackendWhateverTheCompletionSays() {
        assertThat(LoadBalancers.of(level("raidb0", null)).completion()).isEqualTo(CompletionPolicy.ALL);
    }

    @Test
    void errorCheckingLevelsVoteOnTheConfiguredNodesOverTheirBaseLevel() {
        LoadBalancer raidb1ec = LoadBalancers.of(level("raidb1ec", 3));
        assertThat(raidb1ec.readVote())
                .hasValueSatisfying(v -> assertThat(v.nodes()).isEqualTo(3));
        assertThat(raidb1ec.partial()).isFalse();
        assertThat(raidb1ec.completion()).isEqualTo(CompletionPolicy.MAJORITY);
        LoadBalancer raidb2ec = LoadBalancers.of(level("raidb2ec", 2));
        assertThat(raidb2ec.readVote())
                .hasValueSatisfying(v -> assertThat(v.nodes()).isEqualTo(2));
        assertThat(raidb2ec.partial()).isTrue();
    }

    @Test
    void newTablesFollowTheRulesThenTheLevelsDefault() {
        CreateTableRule bestSellers = CreateTableRule.roundRobin(2).forTables("best_sellers_*");
        CreateTablePolicy raidb2 =
                LoadBalancers.of(level("raidb2", null, bestSellers)).createTablePolicy();
        assertThat(raidb2.ruleFor("best_sellers_1")).isSameAs(bestSellers);
        assertThat(raidb2.ruleFor("orders").choice()).isEqualTo(CreateTableRule.Choice.ALL);

        CreateTableRule raidb0Default =
                LoadBalancers.of(level("raidb0", null)).createTablePolicy().ruleFor("orders");
        assertThat(raidb0Default.choice()).isEqualTo(CreateTableRule.Choice.ROUND_ROBIN);
        assertThat(raidb0Default.nodes()).isEqualTo(1);

        CreateTableRule onA = CreateTableRule.all().onBackends(List.of("a"));
        assertThat(LoadBalancers.of(level("raidb2ec", 3, onA))
                        .createTablePolicy()
                        .ruleFor("orders"))
                .isSameAs(onA);
    }

    @Test
    void anUnknownLevelNameSaysWhichThereAre() {
        assertThatThrownBy(() -> LoadBalancers.of(level("raid5", null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown RAIDb level 'raid5': use raidb0, raidb1, raidb1ec, raidb2 or raidb2ec");
    }

    @Test
    void settingsTheLevelCannotWorkWithAreRefusedSayingWhatToChange() {
        assertThatThrownBy(() -> LoadBalancers.of(level("raidb2ec", null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "raidb2ec sends each read to several backends and compares their answers: give nodes, how many (at least 2)");
        assertThatThrownBy(() -> LoadBalancers.of(level("raidb0", null, CreateTableRule.roundRobin(2))))
                .hasMessageStartingWith("RAIDb-0 keeps each table on exactly one backend");
        assertThatThrownBy(() ->
                        LoadBalancers.of(level("raidb2", null, CreateTableRule.all(), CreateTableRule.roundRobin(1))))
                .hasMessage(
                        "two create-table rules without a table pattern (create-table rule by default (all), create-table rule "
                                + "by default (roundRobin, 1 node)): only one may be the default; give the other a table pattern");
        assertThatThrownBy(() -> LoadBalancers.of(level("raidb1", null, CreateTableRule.all())))
                .hasMessageStartingWith("raidb1 keeps every table on every backend and takes no create-table rules");
        assertThatThrownBy(() -> LoadBalancers.of(new LevelConfig("raidb1", "fastest", "all")))
                .hasMessageStartingWith("unknown read policy 'fastest'");
        assertThatThrownBy(() -> LoadBalancers.of(new LevelConfig("raidb1", "roundRobin", "some")))
                .hasMessage("unknown completion policy 'some': use first, majority or all");
    }
}
