package org.raidb.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.raidb.balancer.Requests.insertSelect;
import static org.raidb.balancer.Requests.read;
import static org.raidb.balancer.Requests.unknown;
import static org.raidb.balancer.Requests.write;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class Raidb0LoadBalancerTest {
    // The paper's only RAIDb-0 layout for TPC-W (section 7.5.2): shopping_cart alone on a second node.
    private final FakeBackend a = new FakeBackend("a").holding("customer", "item", "orders", "shopping_cart_line");
    private final FakeBackend b = new FakeBackend("b").holding("shopping_cart");
    private final List<FakeBackend> backends = List.of(a, b);
    private final Raidb0LoadBalancer balancer = new Raidb0LoadBalancer(Raidb0LoadBalancer.defaultCreateTablePolicy());

    @Test
    void eachStatementGoesToTheBackendHoldingItsTables() throws Exception {
        assertThat(balancer.readBackend(read("item", "orders"), backends)).isSameAs(a);
        assertThat(balancer.readBackend(read("shopping_cart"), backends)).isSameAs(b);
        assertThat(balancer.writeBackends(write("shopping_cart"), backends)).containsExactly(b);
        assertThat(balancer.writeBackends(insertSelect("orders", "customer"), backends))
                .containsExactly(a);
    }

    @Test
    void aJoinAcrossBackendsIsRefusedNamingEachTablesBackend() {
        assertThatThrownBy(() -> balancer.readBackend(read("shopping_cart", "shopping_cart_line"), backends))
                .isInstanceOf(TablesNotColocatedException.class)
                .hasMessageContaining("(shopping_cart on b; shopping_cart_line on a)")
                .hasMessageContaining("distributed joins are not supported");
    }

    @Test
    void aWriteReadingAnotherBackendsTableIsRefusedNamingIt() {
        assertThatThrownBy(() -> balancer.writeBackends(insertSelect("shopping_cart", "item"), backends))
                .isInstanceOf(TablesNotColocatedException.class)
                .hasMessage(
                        "the write to shopping_cart must run on every backend holding it, but backend b does not hold item, which "
                                + "the statement also uses (item on a; shopping_cart on b): place item on b as well, or the written table only "
                                + "where item is");
    }

    @Test
    void aTableNoEnabledBackendHoldsIsNamed() {
        assertThatThrownBy(() -> balancer.readBackend(read("author"), backends))
                .isInstanceOf(TableNotHeldException.class)
                .hasMessageContaining("table author");
        b.enabled = false;
        assertThatThrownBy(() -> balancer.writeBackends(write("shopping_cart"), backends))
                .isInstanceOf(TableNotHeldException.class)
                .hasMessage("no enabled backend holds table shopping_cart; it is on disabled backend b: enable it");
    }

    @Test
    void unknownStatementsGoToEveryEnabledBackendAndWaitForAll() throws Exception {
        assertThat(balancer.writeBackends(unknown(RequestKind.WRITE), backends)).containsExactly(a, b);
        assertThat(balancer.completion()).isEqualTo(CompletionPolicy.ALL);
    }

    @Test
    void newTablesGoToOneBackendInTurnAndCopiesGoWhereTheirSourceIs() throws Exception {
        assertThat(balancer.writeBackends(Request.autoCommitCreateTable("t1", Set.of()), backends))
                .containsExactly(a);
        assertThat(balancer.writeBackends(Request.autoCommitCreateTable("t2", Set.of()), backends))
                .containsExactly(b);
        assertThat(balancer.writeBackends(Request.autoCommitCreateTable("tmp", Set.of("orders")), backends))
                .containsExactly(a);
        assertThat(balancer.writeBackends(Request.autoCommitCreateTable("tmp2", Set.of("orders")), backends))
                .containsExactly(a);
    }

    @Test
    void createTableRulesPlacingSeveralCopiesAreRejected() {
        assertThatThrownBy(() -> new Raidb0LoadBalancer(CreateTablePolicy.everywhere()))
                .hasMessage(
                        "RAIDb-0 keeps each table on exactly one backend, but the create-table rule by default (all) may place "
                                + "more copies: use roundRobin or random with nodes 1, or all with a single backend");
        assertThatThrownBy(() -> new Raidb0LoadBalancer(new CreateTablePolicy(
                        List.of(CreateTableRule.roundRobin(2).forTables("x*")), CreateTableRule.roundRobin(1))))
                .hasMessageContaining("for 'x*' (roundRobin, 2 nodes)");
        new Raidb0LoadBalancer(
                new CreateTablePolicy(List.of(), CreateTableRule.all().onBackends(List.of("a"))));
    }
}
