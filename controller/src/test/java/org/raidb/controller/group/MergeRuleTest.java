package org.raidb.controller.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.jgroups.Address;
import org.jgroups.MergeView;
import org.jgroups.View;
import org.jgroups.ViewId;
import org.jgroups.stack.IpAddress;
import org.junit.jupiter.api.Test;
import org.raidb.controller.group.MergeRule.Outcome;
import org.raidb.controller.group.MergeRule.Report;

/**
 * Which part goes on after a merge depends on what the parts held, never on who came first in the
 * merged view (JGroups' choice of coordinator), except to break a tie; every member reaches the same
 * decision from the same reports.
 */
class MergeRuleTest {
    private static final Report STALE = new Report(0, true);

    private static Report live(long delivered) {
        return new Report(delivered, false);
    }

    @Test
    void aStaleMemberThatBecameCoordinatorLosesToTheEstablishedPartAndCatchesUp() {
        List<List<String>> parts = List.of(List.of("stale"), List.of("a", "b"));
        List<String> merged = List.of("stale", "a", "b");
        Map<String, Report> reports = Map.of("stale", STALE, "a", live(25_152), "b", live(25_152));

        assertThat(MergeRule.winner(parts, merged, reports)).containsExactly("a", "b");
        assertThat(MergeRule.outcome("a", parts, merged, reports)).isEqualTo(Outcome.GOES_ON);
        assertThat(MergeRule.outcome("b", parts, merged, reports)).isEqualTo(Outcome.GOES_ON);
        assertThat(MergeRule.outcome("stale", parts, merged, reports)).isEqualTo(Outcome.CATCHES_UP);
    }

    @Test
    void aPartWithoutWritesSinceItStartedLosesToOneThatWroteWhoeverIsCoordinator() {
        List<List<String>> parts = List.of(List.of("fresh"), List.of("a", "b"));
        Map<String, Report> reports = Map.of("fresh", live(0), "a", live(10), "b", live(10));
        for (List<String> merged : List.of(List.of("fresh", "a", "b"), List.of("a", "b", "fresh"))) {
            assertThat(MergeRule.winner(parts, merged, reports)).containsExactly("a", "b");
            // It lacks the winner's writes: its backends are disabled, to be restored.
            assertThat(MergeRule.outcome("fresh", parts, merged, reports)).isEqualTo(Outcome.DISABLES);
        }
    }

    @Test
    void aPartOfStaleMembersOnlyLosesEvenToALiveMemberWithoutWrites() {
        List<List<String>> parts = List.of(List.of("s1", "s2"), List.of("fresh"));
        Map<String, Report> reports = Map.of("s1", STALE, "s2", STALE, "fresh", live(0));

        assertThat(MergeRule.winner(parts, List.of("s1", "s2", "fresh"), reports))
                .containsExactly("fresh");
    }

    @Test
    void twoDivergedPartsLeaveThePartWithMoreWritesWhicheverIsFirst() {
        List<List<String>> parts = List.of(List.of("x"), List.of("y", "z"));
        Map<String, Report> reports = Map.of("x", live(120), "y", live(80), "z", live(80));
        for (List<String> merged : List.of(List.of("x", "y", "z"), List.of("y", "z", "x"))) {
            assertThat(MergeRule.winner(parts, merged, reports)).containsExactly("x");
            assertThat(MergeRule.outcome("y", parts, merged, reports)).isEqualTo(Outcome.DISABLES);
            assertThat(MergeRule.outcome("z", parts, merged, reports)).isEqualTo(Outcome.DISABLES);
            assertThat(MergeRule.outcome("x", parts, merged, reports)).isEqualTo(Outcome.GOES_ON);
        }
    }

    @Test
    void aTieGoesToThePartWhoseMemberComesFirstInTheMergedView() {
        List<List<String>> parts = List.of(List.of("x"), List.of("y"));
        Map<String, Report> reports = Map.of("x", live(5), "y", live(5));

        assertThat(MergeRule.winner(parts, List.of("y", "x"), reports)).containsExactly("y");
        assertThat(MergeRule.outcome("x", parts, List.of("y", "x"), reports)).isEqualTo(Outcome.DISABLES);
        assertThat(MergeRule.winner(parts, List.of("x", "y"), reports)).containsExactly("x");
    }

    @Test
    void partsThatStartedAloneAtOnceWithoutWritesKeepTheirBackends() {
        List<List<String>> parts = List.of(List.of("x"), List.of("y"));
        Map<String, Report> reports = Map.of("x", live(0), "y", live(0));

        assertThat(MergeRule.outcome("y", parts, List.of("x", "y"), reports)).isEqualTo(Outcome.KEEPS);
    }

    @Test
    void aStaleMemberDoesNotCountTowardsItsPartsWrites() {
        // A stale member reports no writes of its own; a live member beside it carries the part's.
        List<List<String>> parts = List.of(List.of("s", "a"), List.of("b"));
        Map<String, Report> reports = Map.of("s", new Report(999, true), "a", live(3), "b", live(7));

        assertThat(MergeRule.winner(parts, List.of("s", "a", "b"), reports)).containsExactly("b");
        assertThat(MergeRule.outcome("s", parts, List.of("s", "a", "b"), reports))
                .isEqualTo(Outcome.CATCHES_UP);
    }

    @Test
    void aPendingMergeIsCompleteWhenEveryMemberStillThereHasSaidWhatItHeld() {
        Address s = new IpAddress(7901);
        Address a = new IpAddress(7902);
        Address b = new IpAddress(7903);
        MergeView view = new MergeView(
                new ViewId(s, 7), List.of(s, a, b), List.of(View.create(s, 1, s), View.create(a, 6, a, b)));
        PendingMerge merge = PendingMerge.of(view);

        assertThat(merge.viewId()).isEqualTo(7);
        assertThat(merge.parts()).containsExactly(List.of(s.toString()), List.of(a.toString(), b.toString()));
        merge.reports().put(s.toString(), STALE);
        merge.reports().put(a.toString(), live(4));
        assertThat(merge.complete()).isFalse();
        assertThat(merge.missing()).containsExactly(b.toString());

        merge.left(List.of(b.toString())); // b left before it said: the decision does without it
        assertThat(merge.complete()).isTrue();
        assertThat(MergeRule.winner(merge.parts(), merge.members(), merge.reports()))
                .containsExactly(a.toString());
    }
}
