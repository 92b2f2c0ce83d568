package org.raidb.tpcw.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.raidb.balancer.CreateTablePolicy;
import org.raidb.balancer.CreateTableRule;
import org.raidb.balancer.PlacementValidator;
import org.raidb.balancer.Raidb0LoadBalancer;
import org.raidb.balancer.RaidbLevel;

/** The paper's TPC-W placements as data, and that the controller's placement checks accept them. */
class TpcwPlacementTest {
    private static final Set<String> ORDER_TABLES = Set.of("orders", "order_line", "cc_xacts");
    /** The paper's rule for the best-seller temporary table (section 7.5.4): 2 nodes in turn among the holders of orders. */
    private static final CreateTablePolicy PAPER_CREATE_TABLE = new CreateTablePolicy(
            List.of(CreateTableRule.roundRobin(2).forTables("best_sellers_*")), CreateTableRule.all());

    private static Map<String, Set<String>> byName(List<Set<String>> placement) {
        Map<String, Set<String>> m = new LinkedHashMap<>();
        for (int i = 0; i < placement.size(); i++) {
            m.put("node" + (i + 1), placement.get(i));
        }
        return m;
    }

    @Test
    void table2LeavesTheOrderTablesOffTheFirstNodesOutsideTheBrowsingMix() {
        assertThat(TpcwPlacement.raidb2(3).get(0))
                .doesNotContainAnyElementsOf(ORDER_TABLES)
                .hasSize(7);
        assertThat(TpcwPlacement.raidb2(3).subList(1, 3))
                .allSatisfy(t -> assertThat(t).isEqualTo(TpcwPlacement.TABLES));
        for (int n = 4; n <= 6; n++) {
            List<Set<String>> p = TpcwPlacement.raidb2(n);
            assertThat(p).hasSize(n);
            assertThat(p.subList(0, 2)).allSatisfy(t -> assertThat(t).doesNotContainAnyElementsOf(ORDER_TABLES));
            assertThat(p.subList(2, n)).allSatisfy(t -> assertThat(t).isEqualTo(TpcwPlacement.TABLES));
        }
        assertThat(TpcwPlacement.raidb2Browsing(5)).hasSize(5).containsOnly(TpcwPlacement.TABLES);
    }

    @Test
    void table2GivesThreeToSixBackendsOnly() {
        assertThatThrownBy(() -> TpcwPlacement.raidb2(2))
                .hasMessage("Table 2 of the paper gives RAIDb-2 placements for 3 to 6 " + "backends, not 2");
        assertThatThrownBy(() -> TpcwPlacement.raidb2Browsing(7)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void raidb0PutsShoppingCartAloneOnASecondBackend() {
        List<Set<String>> p = TpcwPlacement.raidb0(2);
        assertThat(p.get(1)).containsExactly("shopping_cart");
        assertThat(p.get(0)).hasSize(9).doesNotContain("shopping_cart");
        List<Set<String>> four = TpcwPlacement.raidb0(4);
        assertThat(four.subList(0, 2)).isEqualTo(p);
        assertThat(four.subList(2, 4))
                .as("the join graph has two groups: backends 3 and 4 get no table")
                .allSatisfy(t -> assertThat(t).isEmpty());
        assertThatThrownBy(() -> TpcwPlacement.raidb0(1)).hasMessageContaining("at least 2 backends");
    }

    @Test
    void thePlacementsPassValidation() {
        for (int n = 3; n <= 6; n++) {
            assertThat(PlacementValidator.validate(
                            RaidbLevel.RAIDB_2,
                            byName(TpcwPlacement.raidb2(n)),
                            TpcwPlacement.TABLES,
                            PAPER_CREATE_TABLE))
                    .isEmpty();
        }
        for (int n = 2; n <= 6; n++) {
            assertThat(PlacementValidator.validate(
                            RaidbLevel.RAIDB_0,
                            byName(TpcwPlacement.raidb0(n)),
                            TpcwPlacement.TABLES,
                            Raidb0LoadBalancer.defaultCreateTablePolicy()))
                    .isEmpty();
        }
    }
}
