package org.raidb.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.raidb.balancer.Requests.read;
import static org.raidb.balancer.Requests.write;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TpcwPlacementTest {
  private static final Set<String> ORDER_TABLES = Set.of("orders", "order_line", "cc_xacts");
  /** The paper's rule for the best-seller temporary table (section 7.5.4): 2 nodes in turn among the holders of orders. */
  private static final CreateTablePolicy PAPER_CREATE_TABLE = new CreateTablePolicy(
      List.of(CreateTableRule.roundRobin(2).forTables("best_sellers_*")), CreateTableRule.all());

  private static List<FakeBackend> backends(List<Set<String>> placement) {
    List<FakeBackend> out = new ArrayList<>();
    for (int i = 0; i < placement.size(); i++) {
      out.add(new FakeBackend("node" + (i + 1)).holding(placement.get(i).toArray(String[]::new)));
    }
    return out;
  }

  private static Map<String, Set<String>> byName(List<Set<String>> placement) {
    Map<String, Set<String>> m = new LinkedHashMap<>();
    for (int i = 0; i < placement.size(); i++) {
      m.put("node" + (i + 1), placement.get(i));
    }
    return m;
  }

  @Test
  void table2LeavesTheOrderTablesOffTheFirstNodesOutsideTheBrowsingMix() {
    assertThat(TpcwPlacement.raidb2(3).get(0)).doesNotContainAnyElementsOf(ORDER_TABLES).hasSize(7);
    assertThat(TpcwPlacement.raidb2(3).subList(1, 3)).allSatisfy(t -> assertThat(t).isEqualTo(TpcwPlacement.TABLES));
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
    assertThatThrownBy(() -> TpcwPlacement.raidb2(2)).hasMessage("Table 2 of the paper gives RAIDb-2 placements for 3 to 6 "
        + "backends, not 2");
    assertThatThrownBy(() -> TpcwPlacement.raidb2Browsing(7)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void raidb0PutsShoppingCartAloneOnASecondBackend() {
    List<Set<String>> p = TpcwPlacement.raidb0(2);
    assertThat(p.get(1)).containsExactly("shopping_cart");
    assertThat(p.get(0)).hasSize(9).doesNotContain("shopping_cart");
    assertThatThrownBy(() -> TpcwPlacement.raidb0(3)).hasMessageContaining("2 backends only (section 7.5.2)");
  }

  @Test
  void thePlacementsPassValidation() {
    for (int n = 3; n <= 6; n++) {
      assertThat(PlacementValidator.validate(RaidbLevel.RAIDB_2, byName(TpcwPlacement.raidb2(n)), TpcwPlacement.TABLES,
          PAPER_CREATE_TABLE)).isEmpty();
    }
    assertThat(PlacementValidator.validate(RaidbLevel.RAIDB_0, byName(TpcwPlacement.raidb0(2)), TpcwPlacement.TABLES,
        Raidb0LoadBalancer.defaultCreateTablePolicy())).isEmpty();
  }

  @Test
  void raidb2RoutesTheBestSellersAndBuyConfirmToTheOrderNodes() throws Exception {
    List<FakeBackend> nodes = backends(TpcwPlacement.raidb2(4));
    Raidb2LoadBalancer lb = new Raidb2LoadBalancer(new LeastPendingReadPolicy(), CompletionPolicy.FIRST, PAPER_CREATE_TABLE);
    Map<String, Integer> bestSellers = new HashMap<>();
    for (int i = 0; i < 10; i++) {
      bestSellers.merge(lb.readBackend(read("item", "author", "order_line", "orders"), nodes).name(), 1, Integer::sum);
    }
    assertThat(bestSellers).containsOnlyKeys("node3", "node4");
    assertThat(lb.writeBackends(Request.autoCommitCreateTable("best_sellers_1", Set.of("orders")), nodes))
        .extracting(FakeBackend::name).containsExactly("node3", "node4");
    assertThat(lb.writeBackends(write("orders"), nodes)).extracting(FakeBackend::name).containsExactly("node3", "node4");
    assertThat(lb.writeBackends(write("shopping_cart_line"), nodes)).hasSize(4);
  }

  @Test
  void raidb0RoutesTheCartToItsOwnBackend() throws Exception {
    List<FakeBackend> nodes = backends(TpcwPlacement.raidb0(2));
    Raidb0LoadBalancer lb = new Raidb0LoadBalancer(Raidb0LoadBalancer.defaultCreateTablePolicy());
    assertThat(lb.writeBackends(write("shopping_cart"), nodes)).extracting(FakeBackend::name).containsExactly("node2");
    assertThat(lb.readBackend(read("shopping_cart_line", "item"), nodes).name()).isEqualTo("node1");
    assertThat(lb.writeBackends(Request.autoCommitCreateTable("best_sellers_1", Set.of("orders")), nodes))
        .extracting(FakeBackend::name).containsExactly("node1");
  }
}
