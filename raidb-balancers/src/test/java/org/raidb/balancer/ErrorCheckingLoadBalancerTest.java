package org.raidb.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.raidb.balancer.Requests.read;
import static org.raidb.balancer.Requests.readAfterWriteIn;
import static org.raidb.balancer.Requests.write;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ErrorCheckingLoadBalancerTest {
    private final FakeBackend a = new FakeBackend("a");
    private final FakeBackend b = new FakeBackend("b");
    private final FakeBackend c = new FakeBackend("c");
    private final FakeBackend d = new FakeBackend("d");
    private final FakeBackend e = new FakeBackend("e");
    private final List<FakeBackend> five = List.of(a, b, c, d, e);

    private static ErrorCheckingLoadBalancer raidb1ec(int nodes) {
        return new ErrorCheckingLoadBalancer(
                new Raidb1LoadBalancer(new RoundRobinReadPolicy(), CompletionPolicy.MAJORITY), nodes);
    }

    private static ErrorCheckingLoadBalancer raidb2ec(int nodes) {
        return new ErrorCheckingLoadBalancer(
                new Raidb2LoadBalancer(
                        new RoundRobinReadPolicy(), CompletionPolicy.ALL, CreateTablePolicy.everywhere()),
                nodes);
    }

    @Test
    void aReadGoesToNodesBackendsInTurnAndEveryHolderMayVote() throws Exception {
        ErrorCheckingLoadBalancer lb = raidb1ec(3);
        Map<String, Integer> asked = new HashMap<>();
        for (int i = 0; i < 50; i++) {
            CheckedRead<FakeBackend> r = lb.checkedRead(read("t"), five);
            assertThat(r.askFirst()).hasSize(3).doesNotHaveDuplicates();
            assertThat(r.electorate()).containsExactly(a, b, c, d, e);
            r.askFirst().forEach(x -> asked.merge(x.name(), 1, Integer::sum));
        }
        assertThat(asked.values()).containsOnly(30);
    }

    @Test
    void nodesBelowAMajorityIsRaisedToOneAndAboveTheHoldersIsCappedAtAll() throws Exception {
        assertThat(raidb1ec(2).checkedRead(read("t"), five).askFirst()).hasSize(3);
        assertThat(raidb1ec(9).checkedRead(read("t"), five).askFirst()).hasSize(5);
        c.enabled = false;
        d.enabled = false;
        CheckedRead<FakeBackend> r = raidb1ec(2).checkedRead(read("t"), five);
        assertThat(r.askFirst()).hasSize(2);
        assertThat(r.electorate()).containsExactly(a, b, e);
    }

    @Test
    void nodesMustAllowAComparison() {
        assertThatThrownBy(() -> raidb1ec(1))
                .hasMessage("error checking sends each read to nodes backends and compares their "
                        + "answers: nodes must be at least 2, got 1");
    }

    @Test
    void aSingleHolderCannotBeChecked() {
        b.enabled = false;
        c.disableTable("t");
        assertThatThrownBy(() -> raidb2ec(2).checkedRead(read("t"), List.of(a, b, c)))
                .isInstanceOfSatisfying(
                        NotEnoughBackendsException.class,
                        x -> assertThat(x.available()).isEqualTo(1))
                .hasMessage(
                        "error checking compares the answers of at least 2 backends, but only a is enabled and holds t: enable "
                                + "another backend holding them");
    }

    @Test
    void raidb2ecVotesAmongTheHoldersOfTheTablesOnly() throws Exception {
        a.holding("t", "u");
        b.holding("u");
        c.holding("t", "u");
        d.holding("t");
        e.holding("t", "u").disableTable("t");
        CheckedRead<FakeBackend> r = raidb2ec(2).checkedRead(read("t", "u"), five);
        assertThat(r.electorate()).containsExactly(a, c);
        assertThat(r.askFirst()).containsExactlyInAnyOrder(a, c);
    }

    @Test
    void theTransactionsBackendsAreAskedFirst() throws Exception {
        for (int i = 0; i < 5; i++) {
            assertThat(raidb1ec(2)
                            .checkedRead(readAfterWriteIn(Set.of("d"), "t"), five)
                            .askFirst())
                    .contains(d);
        }
    }

    @Test
    void writesAndCompletionAreTheLevels() throws Exception {
        a.holding("t");
        b.holding("u");
        ErrorCheckingLoadBalancer lb = raidb2ec(2);
        assertThat(lb.writeBackends(write("t"), List.of(a, b, c))).containsExactly(a, c);
        assertThat(lb.completion()).isEqualTo(CompletionPolicy.ALL);
        assertThat(raidb1ec(2).completion()).isEqualTo(CompletionPolicy.MAJORITY);
        assertThat(lb.readBackend(read("u"), List.of(a, b, c))).isIn(b, c);
    }

    @Test
    void aCheckedReadStartsTheVoteOverItsElectorate() throws Exception {
        CheckedRead<FakeBackend> r = raidb1ec(2).checkedRead(read("t"), List.of(a, b, c));
        ReadVote<FakeBackend, String> vote = r.startVote();
        r.askFirst().forEach(x -> vote.answered(x, x == r.askFirst().get(0) ? "x" : "y"));
        VoteOutcome<FakeBackend, String> o = vote.outcome();
        assertThat(o).isInstanceOf(VoteOutcome.AskOthers.class);
        assertThat(((VoteOutcome.AskOthers<FakeBackend, String>) o).backends())
                .hasSize(1)
                .doesNotContainAnyElementsOf(r.askFirst());
    }
}
