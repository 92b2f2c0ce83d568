package org.raidb.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class Raidb1LoadBalancerTest {
    private final FakeBackend a = new FakeBackend("a");
    private final FakeBackend b = new FakeBackend("b");
    private final FakeBackend c = new FakeBackend("c");
    private final Raidb1LoadBalancer balancer =
            new Raidb1LoadBalancer(new RoundRobinReadPolicy(), CompletionPolicy.ALL);

    @Test
    void readsSkipDisabledBackendsAndBackendsLackingTheTable() throws Exception {
        b.enabled = false;
        c.holding("other");
        for (int i = 0; i < 5; i++) {
            assertThat(balancer.readBackend(Request.autoCommitRead(Set.of("t")), List.of(a, b, c)))
                    .isSameAs(a);
        }
    }

    @Test
    void writesGoToEveryEnabledBackend() throws Exception {
        b.enabled = false;
        assertThat(balancer.writeBackends(Request.autoCommitWrite(Set.of("t")), List.of(a, b, c)))
                .containsExactly(a, c);
    }

    @Test
    void readInsideAWritingTransactionStaysOnItsBackends() throws Exception {
        Request r = new Request(RequestKind.READ, Set.of("t"), Set.of(), false, 7, Set.of("c"), true);
        for (int i = 0; i < 5; i++) {
            assertThat(balancer.readBackend(r, List.of(a, b, c))).isSameAs(c);
        }
    }

    @Test
    void readInsideAWritingTransactionWhoseBackendsAreGoneIsRefused() {
        c.enabled = false;
        Request r = new Request(RequestKind.READ, Set.of("t"), Set.of(), false, 7, Set.of("c"), true);
        assertThatThrownBy(() -> balancer.readBackend(r, List.of(a, b, c)))
                .hasMessage(
                        "none of the backends this transaction has written to (c) is enabled and holds t: roll the transaction "
                                + "back and retry it");
    }

    @Test
    void readInsideATransactionThatHasNotWrittenMayGoAnywhere() throws Exception {
        Request r = new Request(RequestKind.READ, Set.of("t"), Set.of(), false, 7, Set.of("c"), false);
        assertThat(List.of(balancer.readBackend(r, List.of(a, b, c)), balancer.readBackend(r, List.of(a, b, c))))
                .containsExactly(a, b);
    }

    @Test
    void noEnabledBackendIsReported() {
        a.enabled = false;
        b.enabled = false;
        c.enabled = false;
        assertThatThrownBy(() -> balancer.readBackend(Request.autoCommitRead(Set.of("t")), List.of(a, b, c)))
                .isInstanceOf(NoBackendAvailableException.class)
                .hasMessageContaining("no backend is enabled");
        assertThatThrownBy(() -> balancer.writeBackends(Request.autoCommitWrite(Set.of("t")), List.of(a, b, c)))
                .isInstanceOf(NoBackendAvailableException.class);
    }

    @Test
    void aTableNoBackendHoldsIsNamed() {
        a.holding("x");
        b.holding("x");
        c.holding("x");
        assertThatThrownBy(() -> balancer.readBackend(Request.autoCommitRead(Set.of("missing")), List.of(a, b, c)))
                .hasMessageContaining("missing");
    }

    @Test
    void unknownRequestsTouchEverything() throws Exception {
        a.holding("x");
        Request r = new Request(RequestKind.WRITE, Set.of(), Set.of(), true, 0, Set.of(), false);
        assertThat(balancer.writeBackends(r, List.of(a, b, c))).containsExactly(a, b, c);
    }
}
