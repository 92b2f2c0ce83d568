package org.raidb.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.raidb.balancer.Requests.read;
import static org.raidb.balancer.Requests.write;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** RAIDb-0 and RAIDb-2 routing of TPC-W requests over the paper's placements. */
class TpcwRoutingTest {
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

    private static final Set<String> ALL_TABLES = Set.of(
            "customer",
            "address",
            "orders",
            "order_line",
            "cc_xacts",
            "item",
            "author",
            "country",
            "shopping_cart",
            "shopping_cart_line");

    /** Table 2 of the paper for 4 nodes (the tpcw module's TpcwPlacement holds it as data): order tables on nodes 3-4. */
    private static List<Set<String>> table2ForFourNodes() {
        Set<String> withoutOrders = new java.util.HashSet<>(ALL_TABLES);
        withoutOrders.removeAll(ORDER_TABLES);
        return List.of(withoutOrders, withoutOrders, ALL_TABLES, ALL_TABLES);
    }

    /** Section 7.5.2's RAIDb-0 on 2 nodes: shopping_cart alone on the second. */
    private static List<Set<String>> raidb0ForTwoNodes() {
        Set<String> first = new java.util.HashSet<>(ALL_TABLES);
        first.remove("shopping_cart");
        return List.of(first, Set.of("shopping_cart"));
    }

    @Test
    void raidb2RoutesTheBestSellersAndBuyConfirmToTheOrderNodes() throws Exception {
        List<FakeBackend> nodes = backends(table2ForFourNodes());
        Raidb2LoadBalancer lb =
                new Raidb2LoadBalancer(new LeastPendingReadPolicy(), CompletionPolicy.FIRST, PAPER_CREATE_TABLE);
        Map<String, Integer> bestSellers = new HashMap<>();
        for (int i = 0; i < 10; i++) {
            bestSellers.merge(
                    lb.readBackend(read("item", "author", "order_line", "orders"), nodes)
                            .name(),
                    1,
                    Integer::sum);
        }
        assertThat(bestSellers).containsOnlyKeys("node3", "node4");
        assertThat(lb.writeBackends(Request.autoCommitCreateTable("best_sellers_1", Set.of("orders")), nodes))
                .extracting(FakeBackend::name)
                .containsExactly("node3", "node4");
        assertThat(lb.writeBackends(write("orders"), nodes))
                .extracting(FakeBackend::name)
                .containsExactly("node3", "node4");
        assertThat(lb.writeBackends(write("shopping_cart_line"), nodes)).hasSize(4);
    }

    @Test
    void raidb0RoutesTheCartToItsOwnBackend() throws Exception {
        List<FakeBackend> nodes = backends(raidb0ForTwoNodes());
        Raidb0LoadBalancer lb = new Raidb0LoadBalancer(Raidb0LoadBalancer.defaultCreateTablePolicy());
        assertThat(lb.writeBackends(write("shopping_cart"), nodes))
                .extracting(FakeBackend::name)
                .containsExactly("node2");
        assertThat(lb.readBackend(read("shopping_cart_line", "item"), nodes).name())
                .isEqualTo("node1");
        assertThat(lb.writeBackends(Request.autoCommitCreateTable("best_sellers_1", Set.of("orders")), nodes))
                .extracting(FakeBackend::name)
                .containsExactly("node1");
    }
}
