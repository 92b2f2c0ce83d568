package org.raidb.controller.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jgroups.Address;
import org.jgroups.View;
import org.jgroups.stack.IpAddress;
import org.junit.jupiter.api.Test;

/**
 * The survivors of a dead sequencer, each having had a different prefix of its broadcasts, end with
 * the same writes in the same order: the one furthest ahead hands the others what they lack, before
 * the departed member's sessions end and before what they held runs; a write delivered twice (its
 * origin forwards it again to the new sequencer) runs once; what the new sequencer broadcast before a
 * survivor saw the view waits like what came after it.
 */
class SequencerHandoverTest {
    private final Address a = address(7801);
    private final Address b = address(7802);
    private final Address c = address(7803);
    private final View before = View.create(a, 1, a, b, c);
    private final View after = View.create(b, 2, b, c);

    /** The group's total order, as a queue the test delivers from, to every member in turn. */
    private final ConcurrentLinkedQueue<GroupMessage> order = new ConcurrentLinkedQueue<>();

    private final Map<String, Survivor> survivors = new LinkedHashMap<>();

    /** One survivor: its handover, its numbering and what it ran, in order. */
    private final class Survivor implements SequencerHandover.Member, GroupSender {
        final String name;
        final DeliveredWrites delivered = new DeliveredWrites();
        final SequencerHandover handover;
        final List<String> events = Collections.synchronizedList(new ArrayList<>());

        Survivor(Address address) {
            this.name = address.toString();
            this.handover = new SequencerHandover(this, delivered, this, "test");
        }

        @Override
        public String self() {
            return name;
        }

        @Override
        public void sendAll(GroupMessage m) {
            order.add(m);
        }

        @Override
        public void deliver(GroupMessage m) {
            if (m instanceof GroupMessage.Write w) {
                runFilled(w);
            } else {
                events.add(m.getClass().getSimpleName());
            }
        }

        @Override
        public void runFilled(GroupMessage.Write w) {
            if (delivered.first(w)) { // as ActiveReplication runs a delivered write
                delivered.kept(w);
                events.add(w.origin() + "#" + w.seq());
            }
        }

        @Override
        public void originsLeft(List<String> left) {
            events.add("left " + left);
        }

        @Override
        public void disableAll(String reason) {
            events.add("disabled");
        }

        @Override
        public java.util.Set<String> catchingUp() {
            return java.util.Set.of();
        }

        /** A message of the group's order, broadcast by the new sequencer (b) unless said otherwise. */
        void receive(GroupMessage m) {
            receive(m, b.toString());
        }

        void receive(GroupMessage m, String broadcaster) {
            if (m instanceof GroupMessage.Position p) {
                handover.position(p);
            } else if (m instanceof GroupMessage.Fill f) {
                handover.fill(f);
            } else {
                handover.ordered(m, broadcaster);
            }
        }
    }

    private static Address address(int port) {
        try {
            return new IpAddress("127.0.0.1", port);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static GroupMessage.Write write(String origin, long seq) {
        return new GroupMessage.Write(
                1,
                origin,
                1,
                seq,
                origin + "/1/s" + seq,
                GroupMessage.Op.COMMIT,
                true,
                -1,
                false,
                "u",
                null,
                0,
                null,
                null,
                null);
    }

    private Survivor survivor(Address address, int writesFromTheSequencer) {
        Survivor s = new Survivor(address);
        s.handover.viewChanged(null, before, List.of());
        for (int i = 1; i <= writesFromTheSequencer; i++) {
            s.receive(write(a.toString(), i), a.toString());
        }
        survivors.put(s.name, s);
        return s;
    }

    /** The view that removed the sequencer a reaches these survivors' applications. */
    private void theViewWithoutAReaches(Survivor... these) {
        for (Survivor s : these) {
            s.handover.viewChanged(before, after, List.of(a.toString()));
        }
    }

    /** Delivers, to every survivor in turn, what the group's order holds, until {@code count} were delivered. */
    private void deliverInOrder(int count) {
        for (int n = 0; n < count; n++) {
            await().atMost(Duration.ofSeconds(10)).until(() -> !order.isEmpty());
            GroupMessage m = order.poll();
            survivors.values().forEach(s -> s.receive(m));
        }
    }

    @Test
    void theSurvivorBehindRunsWhatTheOneAheadHadBeforeTheDepartedSessionsEndAndBeforeWhatItHeld() {
        Survivor ahead = survivor(b, 5);
        Survivor behind = survivor(c, 3);
        theViewWithoutAReaches(ahead, behind);
        // Delivered by the new sequencer during the handover: write 4 again (its origin forwarded it once more)
        // and a new write of b's client.
        GroupMessage.Write again = write(a.toString(), 4);
        GroupMessage.Write next = write(b.toString(), 1);
        survivors.values().forEach(s -> s.receive(again));
        survivors.values().forEach(s -> s.receive(next));
        assertThat(behind.events).as("nothing runs during the handover").hasSize(3);

        deliverInOrder(3); // both positions, then the fill

        List<String> expected = List.of(a + "#1", a + "#2", a + "#3", a + "#4", a + "#5", "left [" + a + "]", b + "#1");
        assertThat(ahead.events).containsExactlyElementsOf(expected);
        assertThat(behind.events).containsExactlyElementsOf(expected);
        assertThat(ahead.delivered.position()).isEqualTo(6);
        assertThat(behind.delivered.position()).isEqualTo(6);
    }

    /**
     * Issue 16, as the logs of a failing run showed it: c's write #10, broadcast by the dead sequencer a,
     * reached b and not c; c forwards it again to b, the new sequencer, whose SEQUENCER drops it as a
     * duplicate while c has it delivered. And b, taking over, broadcasts the write of its own that it had
     * not seen come back (#5) before its view message: c has #5 and #10 delivered before it sees the view,
     * b sees the view before #5. Counted to the view, c was ahead with #5 where b had #10, and the two ran
     * them in opposite orders.
     */
    @Test
    void whatTheNewSequencerBroadcastBeforeASurvivorSawTheViewRunsAfterTheFillInOnePlaceOnEverySurvivor() {
        Survivor newSequencer = survivor(b, 2);
        Survivor other = survivor(c, 2);
        GroupMessage.Write resent = write(c.toString(), 10);
        newSequencer.receive(resent, a.toString()); // the dead sequencer's last broadcast, to b only
        GroupMessage.Write own = write(b.toString(), 5);

        theViewWithoutAReaches(newSequencer);
        newSequencer.receive(own);
        other.receive(own);
        other.receive(resent); // b's SEQUENCER dropped it: b had it from a
        assertThat(other.events).as("the new sequencer's order waits").hasSize(2);
        theViewWithoutAReaches(other);

        deliverInOrder(3); // both positions (3 and 2), then b's fill: #10

        List<String> expected = List.of(a + "#1", a + "#2", c + "#10", "left [" + a + "]", b + "#5");
        assertThat(newSequencer.events).containsExactlyElementsOf(expected);
        assertThat(other.events).containsExactlyElementsOf(expected);
        assertThat(other.delivered.position()).isEqualTo(newSequencer.delivered.position());
    }

    @Test
    void messagesOfTheOrderOtherThanWritesWaitForTheFillToo() {
        Survivor ahead = survivor(b, 3);
        Survivor behind = survivor(c, 2);
        GroupMessage.CaughtUp caughtUp = new GroupMessage.CaughtUp("d");
        theViewWithoutAReaches(ahead, behind);
        survivors.values().forEach(s -> s.receive(caughtUp));

        deliverInOrder(3);

        List<String> expected = List.of(a + "#1", a + "#2", a + "#3", "left [" + a + "]", "CaughtUp");
        assertThat(ahead.events).containsExactlyElementsOf(expected);
        assertThat(behind.events).containsExactlyElementsOf(expected);
    }

    @Test
    void aNewBroadcasterWithoutTheSequencerLeavingHoldsNothingOnceTheViewIsIn() {
        Survivor one = survivor(b, 1);
        one.receive(write(b.toString(), 1)); // broadcast by b before a view that keeps a (a merge)
        assertThat(one.events).containsExactly(a + "#1");
        one.receive(write(a.toString(), 2), a.toString()); // a's broadcasts wait behind it
        assertThat(one.events).containsExactly(a + "#1");
        View merged = new org.jgroups.MergeView(
                new org.jgroups.ViewId(b, 2), List.of(b, a, c), List.of(View.create(b, 1, b), before));
        one.handover.viewChanged(before, merged, List.of());
        assertThat(one.events).containsExactly(a + "#1", b + "#1", a + "#2");
        assertThat(order).isEmpty();
    }

    /**
     * After a merge that made another member coordinator, the other part's old sequencer still delivers what
     * it broadcast before the merge: that is no new sequencer, and nothing is held (nothing would release it).
     */
    @Test
    void whatTheOtherPartsOldSequencerDeliversAfterAMergeIsNotHeld() {
        Survivor one = survivor(c, 0);
        View merged = new org.jgroups.MergeView(
                new org.jgroups.ViewId(c, 2), List.of(c, a, b), List.of(View.create(c, 1, c), before));
        one.handover.viewChanged(View.create(c, 1, c), merged, List.of());
        one.receive(write(a.toString(), 1), a.toString()); // a, the other part's sequencer, not the coordinator
        one.receive(write(b.toString(), 1), a.toString());
        assertThat(one.events).containsExactly(a + "#1", b + "#1");
    }

    @Test
    void survivorsAtOnePositionGoOnWithoutAFill() {
        Survivor one = survivor(b, 4);
        Survivor two = survivor(c, 4);
        theViewWithoutAReaches(one, two);
        GroupMessage.Write next = write(c.toString(), 1);
        survivors.values().forEach(s -> s.receive(next));

        deliverInOrder(2);

        assertThat(order).as("no fill sent").isEmpty();
        for (Survivor s : List.of(one, two)) {
            assertThat(s.events.subList(4, s.events.size())).containsExactly("left [" + a + "]", c + "#1");
        }
    }

    @Test
    void aSurvivorBehindBeyondWhatTheOthersKeepDisablesItsBackends() {
        Survivor ahead = survivor(b, 2);
        Survivor behind = survivor(c, 0);
        theViewWithoutAReaches(ahead, behind);
        deliverInOrder(2); // positions: 2 and 0; the one ahead sends writes 1 and 2
        await().atMost(Duration.ofSeconds(10)).until(() -> !order.isEmpty());
        GroupMessage.Fill fill = (GroupMessage.Fill) order.poll();
        // As if write 1 had fallen out of what the one ahead keeps.
        GroupMessage.Fill shortened = new GroupMessage.Fill(
                fill.donor(), fill.viewId(), fill.upTo(), fill.writes().subList(1, 2));
        survivors.values().forEach(s -> s.receive(shortened));

        assertThat(behind.events).containsExactly("disabled", "left [" + a + "]");
        assertThat(behind.delivered.position()).isEqualTo(2);
        assertThat(ahead.events).doesNotContain("disabled");
    }

    @Test
    void afterTheHandoverTheNewSequencersBroadcastsAndALateOneOfTheDeadSequencerAreNotHeld() {
        Survivor one = survivor(b, 1);
        Survivor two = survivor(c, 1);
        theViewWithoutAReaches(one, two);
        deliverInOrder(2); // the positions: alike, no fill
        survivors.values().forEach(s -> s.receive(write(b.toString(), 1)));
        survivors.values().forEach(s -> s.receive(write(c.toString(), 1), a.toString()));
        for (Survivor s : List.of(one, two)) {
            assertThat(s.events).containsExactly(a + "#1", "left [" + a + "]", b + "#1", c + "#1");
        }
    }

    @Test
    void aMemberLeavingThatIsNotTheSequencerEndsItsSessionsAtOnce() {
        Survivor one = survivor(b, 1);
        View withoutC = View.create(a, 2, a, b);
        one.handover.viewChanged(before, withoutC, List.of(c.toString()));
        one.receive(write(a.toString(), 2), a.toString());
        assertThat(one.events).containsExactly(a + "#1", "left [" + c + "]", a + "#2");
        assertThat(order).isEmpty();
    }
}
