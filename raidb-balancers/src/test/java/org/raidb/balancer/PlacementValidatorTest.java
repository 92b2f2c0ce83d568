package org.raidb.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.raidb.balancer.PlacementProblem.Severity;

class PlacementValidatorTest {
    private final Map<String, Set<String>> placement = new LinkedHashMap<>();

    private List<PlacementProblem> validate(RaidbLevel level, Set<String> tables, CreateTablePolicy createTable) {
        return PlacementValidator.validate(level, placement, tables, createTable);
    }

    private List<PlacementProblem> validate(RaidbLevel level, String... tables) {
        return validate(level, Set.of(tables), CreateTablePolicy.everywhere());
    }

    @Test
    void aSoundPartitioningHasNoProblem() {
        placement.put("db1", Set.of("item", "orders"));
        placement.put("db2", Set.of("shopping_cart"));
        assertThat(PlacementValidator.validate(
                        RaidbLevel.RAIDB_0,
                        placement,
                        Set.of("item", "orders", "shopping_cart"),
                        Raidb0LoadBalancer.defaultCreateTablePolicy()))
                .isEmpty();
    }

    @Test
    void aTableNoBackendHoldsIsAnError() {
        placement.put("db1", Set.of("item"));
        placement.put("db2", Set.of("item"));
        assertThat(validate(RaidbLevel.RAIDB_2, "item", "orders"))
                .containsExactly(new PlacementProblem(
                        Severity.ERROR,
                        "orders",
                        List.of(),
                        "table orders is on no backend: add it to the tables of at least two backends"));
        assertThat(validate(RaidbLevel.RAIDB_0, "orders"))
                .extracting(PlacementProblem::message)
                .contains("table orders is on no backend: add it to the tables of one backend");
    }

    @Test
    void aTableOnTwoBackendsIsAnErrorInRaidb0() {
        placement.put("db1", Set.of("item", "orders"));
        placement.put("db2", Set.of("item"));
        assertThat(validate(RaidbLevel.RAIDB_0, "item", "orders"))
                .containsExactly(new PlacementProblem(
                        Severity.ERROR,
                        "item",
                        List.of("db1", "db2"),
                        "table item is on backends db1, db2, but RAIDb-0 keeps each table on exactly one backend: "
                                + "remove it from all but one, or use raidb2 to replicate it"));
    }

    @Test
    void aTableWithFewerCopiesThanItsCreateTableRuleIsAnError() {
        placement.put("db1", Set.of("item", "orders", "order_line"));
        placement.put("db2", Set.of("item", "order_line"));
        placement.put("db3", Set.of("item"));
        CreateTablePolicy rules = new CreateTablePolicy(
                List.of(
                        CreateTableRule.roundRobin(2).forTables("order*"),
                        CreateTableRule.all().forTables("item").onBackends(List.of("db1", "db2", "db3"))),
                CreateTableRule.all());
        assertThat(validate(RaidbLevel.RAIDB_2, Set.of("item", "orders", "order_line"), rules))
                .containsExactly(new PlacementProblem(
                        Severity.ERROR,
                        "orders",
                        List.of("db1"),
                        "table orders is on 1 backend (db1) but the "
                                + "create-table rule for 'order*' (roundRobin, 2 nodes) gives tables of that name 2 copies: add orders to more "
                                + "backends, or change the rule"));
    }

    @Test
    void aTableOnASingleBackendIsAWarningInRaidb2() {
        placement.put("db1", Set.of("item", "orders"));
        placement.put("db2", Set.of("item"));
        assertThat(validate(RaidbLevel.RAIDB_2, "item", "orders"))
                .containsExactly(new PlacementProblem(
                        Severity.WARNING,
                        "orders",
                        List.of("db1"),
                        "table orders is on one backend only (db1): it cannot be read or written while db1 is down; add it "
                                + "to another backend"));
    }

    @Test
    void errorCheckingWantsThreeCopies() {
        placement.put("db1", Set.of("item", "orders"));
        placement.put("db2", Set.of("item", "orders"));
        placement.put("db3", Set.of("item"));
        assertThat(validate(RaidbLevel.RAIDB_2EC, "item", "orders"))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.severity()).isEqualTo(Severity.WARNING);
                    assertThat(p.message())
                            .startsWith("table orders is on 2 backends (db1, db2): error checking needs 3 copies");
                });
        placement.remove("db3");
        assertThat(validate(RaidbLevel.RAIDB_1EC))
                .singleElement()
                .extracting(PlacementProblem::message)
                .isEqualTo(
                        "raidb1ec has 2 backends: error checking needs 3 to outvote a wrong answer, so any disagreement fails "
                                + "the read; add a backend");
        assertThat(validate(RaidbLevel.RAIDB_1)).isEmpty();
    }

    @Test
    void createTableRulesMustNameBackendsThatExistAndAskNoMoreCopiesThanThereAre() {
        placement.put("db1", Set.of("item"));
        placement.put("db2", Set.of("item"));
        CreateTablePolicy rules = new CreateTablePolicy(
                List.of(CreateTableRule.roundRobin(2).forTables("tmp*").onBackends(List.of("db1", "db9"))),
                CreateTableRule.random(3, new Random(1)));
        assertThat(validate(RaidbLevel.RAIDB_2, Set.of("item"), rules))
                .extracting(PlacementProblem::message)
                .containsExactly(
                        "the create-table rule for 'tmp*' (roundRobin, 2 nodes, on db1, db9) names db9, not a backend of this virtual "
                                + "database: use one of db1, db2",
                        "the create-table rule for 'tmp*' (roundRobin, 2 nodes, on db1, db9) asks for 2 copies but can choose among 1 "
                                + "backend: every CREATE TABLE it applies to would fail; lower nodes or allow more backends",
                        "the create-table rule by default (random, 3 nodes) asks for 3 copies but can choose among 2 backends: every CREATE "
                                + "TABLE it applies to would fail; lower nodes or allow more backends",
                        "table item is on 2 backends (db1, db2) but the create-table rule by default (random, 3 nodes) gives tables of that "
                                + "name 3 copies: add item to more backends, or change the rule");
    }

    @Test
    void levelsByName() {
        assertThat(RaidbLevel.byName("raidb2ec")).isEqualTo(RaidbLevel.RAIDB_2EC);
        assertThat(RaidbLevel.RAIDB_0.partial()).isTrue();
        assertThat(RaidbLevel.RAIDB_1EC.errorChecking()).isTrue();
        assertThatThrownBy(() -> RaidbLevel.byName("raid5"))
                .hasMessage("unknown RAIDb level 'raid5': use raidb0, raidb1, raidb1ec, raidb2 or raidb2ec");
    }
}
