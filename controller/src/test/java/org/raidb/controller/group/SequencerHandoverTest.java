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
 * origin forwards it again to the new sequencer) runs once.
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
        public void run(GroupMessage.Write w, boolean fromFill) {
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

        void deliver(GroupMessage m) {
            if (m instanceof GroupMessage.Write w) {
                handover.delivered(w);
            } else if (m instanceof GroupMessage.Position p) {
                handover.position(p);
            } else if (m instanceof GroupMessage.Fill f) {
                handover.fill(f);
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
        for (int i = 1; i <= writesFromTheSequencer; i++) {
            s.deliver(write(a.toString(), i));
        }
        survivors.put(s.name, s);
        return s;
    }

    /** Delivers, to every survivor in turn, what the group's order holds, until {@code count} were delivered. */
    private void deliverInOrder(int count) {
        for (int n = 0; n < count; n++) {
            await().atMost(Duration.ofSeconds(10)).until(() -> !order.isEmpty());
            GroupMessage m = order.poll();
            survivors.values().forEach(s -> s.deliver(m));
        }
    }

    @Test
    void theSurvivorBehindRunsWhatTheOneAheadHadBeforeTheDepartedSessionsEndAndBeforeWhatItHeld() {
        Survivor ahead = survivor(b, 5);
        Survivor behind = survivor(c, 3);
        ahead.handover.viewChanged(before, after, List.of(a.toString()));
        behind.handover.viewChanged(before, after, List.of(a.toString()));
        // Delivered by the new sequencer during the handover: write 4 again (its origin forwarded it once more)
        // and a new write of b's client.
        GroupMessage.Write again = write(a.toString(), 4);
        GroupMessage.Write next = write(b.toString(), 1);
        survivors.values().forEach(s -> s.deliver(again));
        survivors.values().forEach(s -> s.deliver(next));
        assertThat(behind.events).as("nothing runs during the handover").hasSize(3);

        deliverInOrder(3); // both positions, then the fill

        List<String> expected = List.of(a + "#1", a + "#2", a + "#3", a + "#4", a + "#5", "left [" + a + "]", b + "#1");
        assertThat(ahead.events).containsExactlyElementsOf(expected);
        assertThat(behind.events).containsExactlyElementsOf(expected);
        assertThat(ahead.delivered.position()).isEqualTo(6);
        assertThat(behind.delivered.position()).isEqualTo(6);
    }

    @Test
    void survivorsAtOnePositionGoOnWithoutAFill() {
        Survivor one = survivor(b, 4);
        Survivor two = survivor(c, 4);
        one.handover.viewChanged(before, after, List.of(a.toString()));
        two.handover.viewChanged(before, after, List.of(a.toString()));
        GroupMessage.Write next = write(c.toString(), 1);
        survivors.values().forEach(s -> s.deliver(next));

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
        ahead.handover.viewChanged(before, after, List.of(a.toString()));
        behind.handover.viewChanged(before, after, List.of(a.toString()));
        deliverInOrder(2); // positions: 2 and 0; the one ahead sends writes 1 and 2
        await().atMost(Duration.ofSeconds(10)).until(() -> !order.isEmpty());
        GroupMessage.Fill fill = (GroupMessage.Fill) order.poll();
        // As if write 1 had fallen out of what the one ahead keeps.
        GroupMessage.Fill shortened = new GroupMessage.Fill(
                fill.donor(), fill.viewId(), fill.upTo(), fill.writes().subList(1, 2));
        survivors.values().forEach(s -> s.deliver(shortened));

        assertThat(behind.events).containsExactly("disabled", "left [" + a + "]");
        assertThat(behind.delivered.position()).isEqualTo(2);
        assertThat(ahead.events).doesNotContain("disabled");
    }

    @Test
    void aMemberLeavingThatIsNotTheSequencerEndsItsSessionsAtOnce() {
        Survivor one = survivor(b, 1);
        View withoutC = View.create(a, 2, a, b);
        one.handover.viewChanged(before, withoutC, List.of(c.toString()));
        one.deliver(write(a.toString(), 2));
        assertThat(one.events).containsExactly(a + "#1", "left [" + c + "]", a + "#2");
        assertThat(order).isEmpty();
    }
}
