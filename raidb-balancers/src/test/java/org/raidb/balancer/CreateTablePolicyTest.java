package org.raidb.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CreateTablePolicyTest {
    private final FakeBackend a = new FakeBackend("a");
    private final FakeBackend b = new FakeBackend("b");
    private final FakeBackend c = new FakeBackend("c");
    private final FakeBackend d = new FakeBackend("d");
    private final List<FakeBackend> backends = List.of(a, b, c, d);

    private static CreateTablePolicy byDefault(CreateTableRule rule) {
        return new CreateTablePolicy(List.of(), rule);
    }

    @Test
    void allPlacesOnEveryEnabledBackend() throws Exception {
        b.enabled = false;
        assertThat(CreateTablePolicy.everywhere().place("t", backends)).containsExactly(a, c, d);
    }

    @Test
    void roundRobinTakesTheNextBackendsInTurnAndKeepsBackendOrder() throws Exception {
        CreateTablePolicy p = byDefault(CreateTableRule.roundRobin(2));
        List<List<FakeBackend>> placements = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            placements.add(p.place("t" + i, backends));
        }
        assertThat(placements).containsExactly(List.of(a, b), List.of(b, c), List.of(c, d), List.of(a, d));
    }

    @Test
    void randomIsRepeatableWithASeedAndSpreadsTables() throws Exception {
        CreateTablePolicy first = byDefault(CreateTableRule.random(2, new Random(42)));
        CreateTablePolicy second = byDefault(CreateTableRule.random(2, new Random(42)));
        Map<String, Integer> copies = new HashMap<>();
        for (int i = 0; i < 400; i++) {
            List<FakeBackend> placed = first.place("t" + i, backends);
            assertThat(second.place("t" + i, backends)).isEqualTo(placed);
            assertThat(placed).hasSize(2).doesNotHaveDuplicates();
            assertThat(backends.indexOf(placed.get(0))).isLessThan(backends.indexOf(placed.get(1)));
            placed.forEach(x -> copies.merge(x.name(), 1, Integer::sum));
        }
        assertThat(copies.values()).allSatisfy(n -> assertThat(n).isBetween(150, 250));
    }

    @Test
    void theFirstMatchingPatternWinsAndOtherNamesTakeTheDefault() throws Exception {
        CreateTablePolicy p = new CreateTablePolicy(
                List.of(
                        CreateTableRule.roundRobin(1).forTables("order_*").onBackends(List.of("c")),
                        CreateTableRule.roundRobin(1).forTables("order*").onBackends(List.of("d"))),
                CreateTableRule.all());
        assertThat(p.place("order_line", backends)).containsExactly(c);
        assertThat(p.place("ORDERS", backends)).containsExactly(d);
        assertThat(p.place("item", backends)).containsExactly(a, b, c, d);
    }

    @Test
    void globsAreLiteralButForStarAndQuestionMark() {
        CreateTableRule rule = CreateTableRule.all().forTables("tmp_?.x*");
        assertThat(rule.appliesTo("tmp_1.xyz")).isTrue();
        assertThat(rule.appliesTo("tmp_12.x")).isFalse();
        assertThat(rule.appliesTo("tmpa1.x")).isFalse();
        assertThat(rule.appliesTo("tmp_1ax")).isFalse();
        assertThat(rule.appliesTo("my_tmp_1.x")).isFalse();
    }

    @Test
    void theBackendListRestrictsTheCandidates() throws Exception {
        CreateTablePolicy p = byDefault(CreateTableRule.roundRobin(1).onBackends(List.of("b", "d")));
        assertThat(List.of(p.place("t1", backends), p.place("t2", backends), p.place("t3", backends)))
                .containsExactly(List.of(b), List.of(d), List.of(b));
    }

    @Test
    void aBackendWithADisabledCopyOfTheTableIsLeftOut() throws Exception {
        a.tables = Set.of("t");
        a.disableTable("t");
        assertThat(CreateTablePolicy.everywhere().place("t", backends)).containsExactly(b, c, d);
    }

    @Test
    void onlyBackendsHoldingTheSourceTablesQualify() throws Exception {
        a.holding("orders");
        b.holding("item");
        c.holding("orders", "item");
        assertThat(byDefault(CreateTableRule.roundRobin(2)).place("best", Set.of("orders"), backends))
                .containsExactly(a, c);
    }

    @Test
    void fewerCandidatesThanNodesIsRefusedWithTheRuleAndTheCandidates() {
        c.enabled = false;
        d.enabled = false;
        CreateTablePolicy p = new CreateTablePolicy(
                List.of(CreateTableRule.roundRobin(2).forTables("order*").onBackends(List.of("a", "c", "d"))),
                CreateTableRule.all());
        assertThatThrownBy(() -> p.place("orders", Set.of("customer"), backends))
                .isInstanceOfSatisfying(NotEnoughBackendsException.class, e -> {
                    assertThat(e.required()).isEqualTo(2);
                    assertThat(e.available()).isEqualTo(1);
                })
                .hasMessage(
                        "cannot create table orders: the create-table rule for 'order*' (roundRobin, 2 nodes, on a, c, d) needs "
                                + "2 backends but 1 (a) qualifies (enabled, one of a, c, d, holding customer, no disabled copy of orders): "
                                + "enable backends or lower nodes");
    }

    @Test
    void allWithNoEnabledBackendIsRefused() {
        backends.forEach(x -> x.enabled = false);
        assertThatThrownBy(() -> CreateTablePolicy.everywhere().place("t", backends))
                .isInstanceOf(NotEnoughBackendsException.class)
                .hasMessage(
                        "cannot create table t: the create-table rule by default (all) needs 1 backend but none qualifies "
                                + "(enabled, no disabled copy of t): enable backends");
    }

    @Test
    void configurationSpellingAndMistakes() {
        assertThat(CreateTableRule.of("roundRobin", null).nodes()).isEqualTo(1);
        assertThat(CreateTableRule.of("random", 3).choice()).isEqualTo(CreateTableRule.Choice.RANDOM);
        assertThat(CreateTableRule.of("all", null).choice()).isEqualTo(CreateTableRule.Choice.ALL);
        assertThatThrownBy(() -> CreateTableRule.of("all", 2)).hasMessageContaining("remove nodes=2");
        assertThatThrownBy(() -> CreateTableRule.of("spread", 2))
                .hasMessage("unknown create-table policy 'spread': use all, roundRobin or random");
        assertThatThrownBy(() -> CreateTableRule.roundRobin(0))
                .hasMessage("create-table nodes must be at least 1, got 0");
        assertThatThrownBy(() -> CreateTableRule.all().forTables(" ")).hasMessageContaining("must not be empty");
        assertThatThrownBy(() -> new CreateTablePolicy(List.of(CreateTableRule.all()), CreateTableRule.all()))
                .hasMessageContaining("only the default create-table rule may omit the table pattern");
        assertThatThrownBy(() ->
                        new CreateTablePolicy(List.of(), CreateTableRule.all().forTables("x*")))
                .hasMessageContaining("takes no table pattern");
    }

    @Test
    void oneCopyRulesAreRecognisedForRaidb0() {
        assertThat(CreateTableRule.roundRobin(1).placesOneCopy()).isTrue();
        assertThat(CreateTableRule.roundRobin(2).placesOneCopy()).isFalse();
        assertThat(CreateTableRule.all().placesOneCopy()).isFalse();
        assertThat(CreateTableRule.all().onBackends(List.of("a")).placesOneCopy())
                .isTrue();
    }
}
