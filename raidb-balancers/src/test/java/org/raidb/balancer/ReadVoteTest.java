package org.raidb.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReadVoteTest {
    private final FakeBackend a = new FakeBackend("a");
    private final FakeBackend b = new FakeBackend("b");
    private final FakeBackend c = new FakeBackend("c");
    private final FakeBackend d = new FakeBackend("d");
    private final FakeBackend e = new FakeBackend("e");

    /** A vote over {@code electorate} in which its first backends have given {@code answers}, in order. */
    private static ReadVote<FakeBackend, String> vote(List<FakeBackend> electorate, String... answers) {
        ReadVote<FakeBackend, String> v = new ReadVote<>(electorate);
        for (int i = 0; i < answers.length; i++) {
            v.answered(electorate.get(i), answers[i]);
        }
        return v;
    }

    private static VoteOutcome.Majority<FakeBackend, String> majority(VoteOutcome<FakeBackend, String> o) {
        assertThat(o).isInstanceOf(VoteOutcome.Majority.class);
        return (VoteOutcome.Majority<FakeBackend, String>) o;
    }

    @Test
    void allAgree() {
        ReadVote<FakeBackend, String> v = vote(List.of(a, b, c), "x", "x", "x");
        VoteOutcome.Majority<FakeBackend, String> m = majority(v.outcome());
        assertThat(m.fingerprint()).isEqualTo("x");
        assertThat(m.agreeing()).containsExactly(a, b, c);
        assertThat(m.outvoted()).isEmpty();
    }

    @Test
    void aMajorityOfTheAskedIsEnoughWhenItIsAMajorityOfTheElectorate() {
        ReadVote<FakeBackend, String> v = vote(List.of(a, b, c));
        v.answered(c, "x");
        v.answered(a, "x");
        assertThat(majority(v.outcome()).agreeing()).containsExactly(a, c);
    }

    @Test
    void oneBackendIsOutvoted() {
        ReadVote<FakeBackend, String> v = vote(List.of(a, b, c), "x", "y", "x");
        VoteOutcome.Majority<FakeBackend, String> m = majority(v.outcome());
        assertThat(m.fingerprint()).isEqualTo("x");
        assertThat(m.outvoted()).containsExactly(b);
    }

    @Test
    void threeDifferentAnswersHaveNoMajority() {
        ReadVote<FakeBackend, String> v = vote(List.of(a, b, c), "x", "y", "z");
        assertThat(v.outcome())
                .isEqualTo(
                        new VoteOutcome.NoMajority<>(
                                "no majority among the backends' answers to this read: 2 "
                                        + "of 3 must agree, but the answers split into (a), (b), (c); retry the read, and check the backends for divergence"));
    }

    @Test
    void tiesHaveNoMajority() {
        ReadVote<FakeBackend, String> four = vote(List.of(a, b, c, d), "x", "y", "x", "y");
        assertThat(four.outcome()).isInstanceOf(VoteOutcome.NoMajority.class);
        ReadVote<FakeBackend, String> two = vote(List.of(a, b), "x", "y");
        assertThat(((VoteOutcome.NoMajority<FakeBackend, String>) two.outcome()).message())
                .contains("2 of 2 must agree")
                .contains("(a), (b)");
    }

    @Test
    void disagreementAmongTheFirstAskedAsksTheOthers() {
        ReadVote<FakeBackend, String> v = vote(List.of(a, b, c, d, e), "x", "x", "y");
        assertThat(v.outcome()).isEqualTo(new VoteOutcome.AskOthers<>(List.of(d, e)));
        v.answered(d, "x");
        VoteOutcome.Majority<FakeBackend, String> m = majority(v.outcome());
        assertThat(m.agreeing()).containsExactly(a, b, d);
        assertThat(m.outvoted()).containsExactly(c);
    }

    @Test
    void aFailedBackendCountsAsNoAnswerAndCanCostTheMajority() {
        ReadVote<FakeBackend, String> v = vote(List.of(a, b, c), "x");
        v.failed(b);
        assertThat(v.outcome()).isEqualTo(new VoteOutcome.AskOthers<>(List.of(c)));
        v.answered(c, "y");
        assertThat(((VoteOutcome.NoMajority<FakeBackend, String>) v.outcome()).message())
                .contains("split into (a), (c); no answer from b");
    }

    @Test
    void theSameAnswersDecideDifferentlyAsTheElectorateChanges() {
        // Two agree and one differs: enough among three, not among four until the fourth is heard.
        for (int size = 2; size <= 5; size++) {
            List<FakeBackend> electorate = List.of(a, b, c, d, e).subList(0, size);
            VoteOutcome<FakeBackend, String> o =
                    (size == 2 ? vote(electorate, "x", "x") : vote(electorate, "x", "x", "y")).outcome();
            switch (size) {
                case 2, 3 -> assertThat(majority(o).fingerprint()).isEqualTo("x");
                case 4 -> assertThat(o).isEqualTo(new VoteOutcome.AskOthers<>(List.of(d)));
                default -> assertThat(o).isEqualTo(new VoteOutcome.AskOthers<>(List.of(d, e)));
            }
        }
        ReadVote<FakeBackend, String> five = vote(List.of(a, b, c, d, e), "x", "x", "y");
        five.failed(d);
        five.failed(e);
        assertThat(five.outcome()).isInstanceOf(VoteOutcome.NoMajority.class);
    }

    @Test
    void byteArrayHashesCompareByContentWhenWrapped() {
        ReadVote<FakeBackend, ByteBuffer> v = new ReadVote<>(List.of(a, b, c));
        v.answered(a, ByteBuffer.wrap(new byte[] {1, 2}));
        v.answered(b, ByteBuffer.wrap(new byte[] {1, 2}));
        v.answered(c, ByteBuffer.wrap(new byte[] {9}));
        VoteOutcome<FakeBackend, ByteBuffer> o = v.outcome();
        assertThat(((VoteOutcome.Majority<FakeBackend, ByteBuffer>) o).outvoted())
                .containsExactly(c);
    }

    @Test
    void eachBackendIsCountedOnceAndOnlyIfItMayVote() {
        ReadVote<FakeBackend, String> v = vote(List.of(a, b), "x");
        assertThatThrownBy(() -> v.answered(a, "x")).hasMessage("backend a is already counted in this vote");
        assertThatThrownBy(() -> v.failed(a)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> v.answered(c, "x")).hasMessage("backend c is not in this read's electorate");
        assertThatThrownBy(() -> new ReadVote<FakeBackend, String>(List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
