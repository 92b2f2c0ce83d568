package org.raidb.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.raidb.balancer.Requests.ddl;
import static org.raidb.balancer.Requests.insertSelect;
import static org.raidb.balancer.Requests.read;
import static org.raidb.balancer.Requests.readAfterWriteIn;
import static org.raidb.balancer.Requests.unknown;
import static org.raidb.balancer.Requests.write;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class Raidb2LoadBalancerTest {
    // Figure 4 of the paper in TPC-W names: a and b share the catalogue, c carries the orders.
    private final FakeBackend a = new FakeBackend("a").holding("customer", "item", "orders");
    private final FakeBackend b = new FakeBackend("b").holding("customer", "item", "shopping_cart");
    private final FakeBackend c = new FakeBackend("c").holding("customer", "orders", "order_line");
    private final List<FakeBackend> backends = List.of(a, b, c);
    private final Raidb2LoadBalancer balancer = new Raidb2LoadBalancer(
            new RoundRobinReadPolicy(),
            CompletionPolicy.ALL,
            new CreateTablePolicy(List.of(CreateTableRule.roundRobin(2).forTables("tmp*")), CreateTableRule.all()));

    private Map<String, Integer> readCounts(Raidb2LoadBalancer lb, Request r, int reads) throws Exception {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < reads; i++) {
            counts.merge(lb.readBackend(r, backends).name(), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void aReadGoesOnlyToBackendsHoldingAllItsTables() throws Exception {
        assertThat(readCounts(balancer, read("item"), 10)).containsOnlyKeys("a", "b");
        assertThat(readCounts(balancer, read("orders", "order_line"), 10)).containsOnlyKeys("c");
        assertThat(readCounts(balancer, read("customer"), 9))
                .containsEntry("a", 3)
                .containsEntry("b", 3)
                .containsEntry("c", 3);
    }

    @Test
    void readsFollowWeightsAmongTheHolders() throws Exception {
        a.weight(3);
        Raidb2LoadBalancer weighted = new Raidb2LoadBalancer(
                new WeightedRoundRobinReadPolicy(), CompletionPolicy.ALL, CreateTablePolicy.everywhere());
        assertThat(readCounts(weighted, read("item"), 400))
                .containsEntry("a", 300)
                .containsEntry("b", 100);
    }

    @Test
    void readsSkipDisabledBackendsAndDisabledTables() throws Exception {
        b.enabled = false;
        assertThat(readCounts(balancer, read("item"), 5)).containsOnlyKeys("a");
        b.enabled = true;
        a.disableTable("item");
        assertThat(readCounts(balancer, read("item"), 5)).containsOnlyKeys("b");
        assertThat(readCounts(balancer, read("customer"), 6)).containsOnlyKeys("a", "b", "c");
    }

    @Test
    void aJoinOfTablesOnDifferentBackendsIsRefusedNamingWhereEachTableIs() {
        assertThatThrownBy(() -> balancer.readBackend(read("orders", "shopping_cart"), backends))
                .isInstanceOfSatisfying(
                        TablesNotColocatedException.class,
                        e -> assertThat(e.holders())
                                .containsEntry("orders", List.of("a", "c"))
                                .containsEntry("shopping_cart", List.of("b")))
                .hasMessage(
                        "no enabled backend holds all of the tables orders, shopping_cart that this statement uses together "
                                + "(orders on a, c; shopping_cart on b); distributed joins are not supported: place these tables on a common backend");
    }

    @Test
    void aTableNoBackendHoldsIsNamed() {
        assertThatThrownBy(() -> balancer.readBackend(read("item", "nosuch"), backends))
                .isInstanceOfSatisfying(
                        TableNotHeldException.class, e -> assertThat(e.table()).isEqualTo("nosuch"))
                .hasMessage("no enabled backend holds table nosuch: check the name, or create the table first");
    }

    @Test
    void aTableOnlyOnDisabledBackendsOrDisabledThereSaysWhatToDo() {
        b.enabled = false;
        assertThatThrownBy(() -> balancer.readBackend(read("shopping_cart"), backends))
                .hasMessage("no enabled backend holds table shopping_cart; it is on disabled backend b: enable it");
        b.enabled = true;
        a.disableTable("orders");
        c.disableTable("orders");
        assertThatThrownBy(() -> balancer.writeBackends(write("orders"), backends))
                .isInstanceOfSatisfying(
                        TableNotHeldException.class,
                        e -> assertThat(e.backendsWithDisabledCopy()).containsExactly("a", "c"))
                .hasMessage(
                        "no enabled backend holds table orders; its copy on a, c was disabled after a write failed there: "
                                + "restore one of these backends from a checkpoint");
    }

    @Test
    void noEnabledBackendIsReported() {
        backends.forEach(x -> x.enabled = false);
        assertThatThrownBy(() -> balancer.readBackend(read("item"), backends))
                .hasMessageContaining("no backend is enabled")
                .isExactlyInstanceOf(NoBackendAvailableException.class);
        assertThatThrownBy(() -> balancer.writeBackends(unknown(RequestKind.WRITE), backends))
                .hasMessageContaining("no backend is enabled");
    }

    @Test
    void aReadInATransactionThatHasWrittenPrefersItsBackendsAndFallsBackToOtherHolders() throws Exception {
        Set<String> onC = Set.of("c");
        assertThat(readCounts(balancer, readAfterWriteIn(onC, "customer"), 5)).containsOnlyKeys("c");
        assertThat(readCounts(balancer, readAfterWriteIn(onC, "item"), 6)).containsOnlyKeys("a", "b");
        assertThat(readCounts(
                        balancer, new Request(RequestKind.READ, Set.of("customer"), Set.of(), false, 7, onC, false), 6))
                .containsOnlyKeys("a", "b", "c");
    }

    @Test
    void aWriteGoesToEveryEnabledHolderOfItsTable() throws Exception {
        assertThat(balancer.writeBackends(write("customer"), backends)).containsExactly(a, b, c);
        assertThat(balancer.writeBackends(write("orders"), backends)).containsExactly(a, c);
        a.enabled = false;
        assertThat(balancer.writeBackends(write("orders"), backends)).containsExactly(c);
        c.disableTable("orders");
        assertThatThrownBy(() -> balancer.writeBackends(write("orders"), backends))
                .isInstanceOf(TableNotHeldException.class);
    }

    @Test
    void aWriteWhoseReadTableIsMissingOnOneTargetIsRefusedNamingThatBackend() {
        assertThatThrownBy(() -> balancer.writeBackends(insertSelect("orders", "item"), backends))
                .isInstanceOfSatisfying(TablesNotColocatedException.class, e -> {
                    assertThat(e.lackingBackend()).contains("c");
                    assertThat(e.missingTables()).containsExactly("item");
                })
                .hasMessage(
                        "the write to orders must run on every backend holding it, but backend c does not hold item, which the "
                                + "statement also uses (item on a, b; orders on a, c): place item on c as well, or the written table only where item is");
    }

    @Test
    void aWriteReadingATableItsTargetsHoldRunsThere() throws Exception {
        assertThat(balancer.writeBackends(insertSelect("shopping_cart", "item"), backends))
                .containsExactly(b);
        assertThat(balancer.writeBackends(insertSelect("order_line", "orders", "customer"), backends))
                .containsExactly(c);
    }

    @Test
    void aWriteReadingATableHeldNowhereNamesThatTable() {
        assertThatThrownBy(() -> balancer.writeBackends(insertSelect("orders", "nosuch"), backends))
                .isInstanceOfSatisfying(
                        TableNotHeldException.class, e -> assertThat(e.table()).isEqualTo("nosuch"));
    }

    @Test
    void aWriteNamingNoTableGoesEverywhereAndRowLocksGoWhereTheirTablesAre() throws Exception {
        assertThat(balancer.writeBackends(write(), backends)).containsExactly(a, b, c);
        Request selectForUpdate = new Request(RequestKind.WRITE, Set.of("item"), Set.of(), false, 0, Set.of(), false);
        assertThat(balancer.writeBackends(selectForUpdate, backends)).containsExactly(a, b);
    }

    @Test
    void unknownStatementsGoToEveryEnabledBackend() throws Exception {
        b.enabled = false;
        assertThat(balancer.writeBackends(unknown(RequestKind.CALL), backends)).containsExactly(a, c);
        assertThat(balancer.readBackend(unknown(RequestKind.READ), backends)).isIn(a, c);
    }

    @Test
    void dropAndAlterGoToTheTablesHolders() throws Exception {
        assertThat(balancer.writeBackends(ddl("shopping_cart"), backends)).containsExactly(b);
        a.disableTable("orders");
        assertThat(balancer.writeBackends(ddl("orders"), backends)).containsExactly(c);
    }

    @Test
    void aNewTableIsPlacedByTheCreateTablePolicy() throws Exception {
        assertThat(balancer.writeBackends(Request.autoCommitCreateTable("wishlist", Set.of()), backends))
                .containsExactly(a, b, c);
        assertThat(balancer.writeBackends(Request.autoCommitCreateTable("tmp1", Set.of()), backends))
                .containsExactly(a, b);
        assertThat(balancer.writeBackends(Request.autoCommitCreateTable("tmp2", Set.of()), backends))
                .containsExactly(b, c);
    }

    @Test
    void aTableCreatedFromOthersGoesWhereTheyAre() throws Exception {
        assertThat(balancer.writeBackends(Request.autoCommitCreateTable("recent", Set.of("orders")), backends))
                .containsExactly(a, c);
        assertThat(balancer.writeBackends(Request.autoCommitCreateTable("tmp_recent", Set.of("orders")), backends))
                .containsExactly(a, c);
        assertThatThrownBy(() ->
                        balancer.writeBackends(Request.autoCommitCreateTable("tmp_x", Set.of("order_line")), backends))
                .isInstanceOf(NotEnoughBackendsException.class)
                .hasMessageContaining("holding order_line");
        assertThatThrownBy(() -> balancer.writeBackends(
                        Request.autoCommitCreateTable("mix", Set.of("orders", "shopping_cart")), backends))
                .isInstanceOf(TablesNotColocatedException.class);
    }

    @Test
    void creatingATableThatExistsGoesToItsHoldersOnly() throws Exception {
        assertThat(balancer.writeBackends(Request.autoCommitCreateTable("shopping_cart", Set.of()), backends))
                .containsExactly(b);
    }

    @Test
    void aNewTableIsNotPlacedOnTopOfADisabledCopy() throws Exception {
        c.tables = Set.of("customer", "orders", "order_line", "wishlist");
        c.disableTable("wishlist");
        assertThat(balancer.writeBackends(Request.autoCommitCreateTable("wishlist", Set.of()), backends))
                .containsExactly(a, b);
    }
}
