package org.raidb.controller.group;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jgroups.Address;
import org.jgroups.MergeView;
import org.jgroups.View;

/**
 * What the survivors do when the group's sequencer (the coordinator, which SEQUENCER makes the one
 * broadcaster of the total order) dies. JGroups 5 has no flush: a write the sequencer had broadcast
 * just before it died may have reached some survivors and not others, and no one can retransmit it.
 * So every survivor, from the view that removed the sequencer on, holds the writes delivered to it
 * and tells the others its position ({@link DeliveredWrites}); every survivor delivered a prefix of
 * the dead sequencer's broadcasts, so the one furthest ahead has all that any other has. Once every
 * survivor's position is in (the same place in the new sequencer's order for all), the one furthest
 * ahead sends the writes past the lowest position ({@link GroupMessage.Fill}); each survivor runs those
 * it lacks, then ends the departed members' client sessions, then runs what it held, a write it
 * already had (forwarded again to the new sequencer by its origin) skipped. The survivors are then at
 * one position again, with the same writes in the same order.
 *
 * <p>A write no survivor got is lost as if never sent: its client was never answered under completion
 * "all" (it needs every member's answer). Another view change during a handover starts it again
 * among those left; what was held stays held.
 */
final class SequencerHandover {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SequencerHandover.class);

    /** What the handover asks of the member it runs in. */
    interface Member {
        /** Runs a write in the group's order; {@code fromFill}: delivered before the view change elsewhere. */
        void run(GroupMessage.Write w, boolean fromFill);

        /** The departed members' client sessions end here. */
        void originsLeft(List<String> left);

        void disableAll(String reason);

        /**
         * Members still catching up (and this one, while it does): their positions are not the group's yet,
         * so they take no part.
         */
        Set<String> catchingUp();
    }

    private final GroupSender channel;
    private final DeliveredWrites delivered;
    private final Member member;
    private final String group;

    /** The handover under way, or null. */
    private Round round;

    private final List<GroupMessage.Write> held = new ArrayList<>();
    private final List<String> departed = new ArrayList<>();

    private static final class Round {
        final long viewId;
        final Set<String> expected;
        final Map<String, Long> positions = new HashMap<>();
        boolean decided;

        Round(long viewId, Set<String> expected) {
            this.viewId = viewId;
            this.expected = expected;
        }
    }

    SequencerHandover(GroupSender channel, DeliveredWrites delivered, Member member, String group) {
        this.channel = channel;
        this.delivered = delivered;
        this.member = member;
        this.group = group;
    }

    /** A write delivered in the group's order: it runs now, or once the handover under way is over. */
    synchronized void delivered(GroupMessage.Write w) {
        if (round == null) {
            member.run(w, false);
        } else {
            held.add(w);
        }
    }

    /**
     * A new view. When it removed the sequencer (or a handover is under way) a handover starts among the
     * members that were there before; otherwise the departed members' sessions end at once.
     */
    synchronized void viewChanged(View before, View now, List<String> left) {
        boolean sequencerLeft = before != null && !(now instanceof MergeView) && !now.containsMember(before.getCoord());
        if (!sequencerLeft && round == null) {
            if (!left.isEmpty()) {
                member.originsLeft(left);
            }
            return;
        }
        departed.addAll(left);
        Set<String> catchingUp = member.catchingUp();
        if (catchingUp.contains(channel.self())) {
            member.originsLeft(List.copyOf(departed)); // a joiner runs nothing of the group's yet
            departed.clear();
            return;
        }
        Set<String> expected = new LinkedHashSet<>();
        for (Address a : now.getMembers()) {
            String name = a.toString();
            boolean wasThere = round != null ? round.expected.contains(name) : before.containsMember(a);
            if (wasThere && !catchingUp.contains(name)) {
                expected.add(name);
            }
        }
        round = new Round(now.getViewId().getId(), expected);
        long position = delivered.position();
        log.warn(
                "controller group {}: the sequencer left (view {}); this member had {} write(s) delivered; evening"
                        + " out with {}",
                group,
                now.getViewId(),
                position,
                expected);
        GroupMessage.Position mine = new GroupMessage.Position(channel.self(), round.viewId, position);
        send(mine, "its position");
    }

    /** A member's position in the handover: once all are in, the one furthest ahead sends what others lack. */
    synchronized void position(GroupMessage.Position p) {
        Round r = round;
        if (r == null || p.viewId() != r.viewId || !r.expected.contains(p.member()) || r.decided) {
            return;
        }
        r.positions.put(p.member(), p.position());
        log.info(
                "controller group {}: {} had {} write(s) delivered when the sequencer left",
                group,
                p.member(),
                p.position());
        if (!r.positions.keySet().containsAll(r.expected)) {
            return;
        }
        r.decided = true;
        long lowest = Long.MAX_VALUE;
        long highest = -1;
        String ahead = null;
        for (String m : r.expected) { // view order: ties go to the first, alike on every member
            long at = r.positions.get(m);
            lowest = Math.min(lowest, at);
            if (at > highest) {
                highest = at;
                ahead = m;
            }
        }
        if (lowest == highest) {
            finish(highest);
        } else if (channel.self().equals(ahead)) {
            send(
                    new GroupMessage.Fill(channel.self(), r.viewId, highest, delivered.after(lowest)),
                    "the writes others lack");
        }
    }

    /** The writes of the member furthest ahead: this member runs those it lacks, then goes on. */
    synchronized void fill(GroupMessage.Fill f) {
        Round r = round;
        if (r == null || f.viewId() != r.viewId || !r.decided) {
            return;
        }
        long own = delivered.position();
        if (own < f.upTo()) {
            List<DeliveredWrites.Numbered> writes = f.writes();
            if (writes.isEmpty() || writes.get(0).position() > own + 1) {
                member.disableAll("the group's sequencer died after delivering writes up to position " + f.upTo()
                        + " to " + f.donor() + "; this member had " + own
                        + " and the writes between are no longer kept");
            } else {
                for (DeliveredWrites.Numbered n : writes) {
                    if (n.position() > own) {
                        delivered.skipTo(n.position() - 1); // past writes dropped everywhere (departed origins)
                        member.run(n.write(), true);
                    }
                }
            }
            log.warn(
                    "controller group {}: ran the {} write(s) the departed sequencer had delivered to {} and not here",
                    group,
                    f.upTo() - own,
                    f.donor());
        }
        finish(f.upTo());
    }

    private void finish(long position) {
        delivered.skipTo(position);
        round = null;
        List<String> left = List.copyOf(departed);
        departed.clear();
        if (!left.isEmpty()) {
            member.originsLeft(left);
        }
        List<GroupMessage.Write> release = List.copyOf(held);
        held.clear();
        for (GroupMessage.Write w : release) {
            member.run(w, false);
        }
    }

    /** On its own thread: JGroups' delivery threads must not block on a send. */
    private void send(GroupMessage m, String what) {
        Thread t = new Thread(
                () -> {
                    try {
                        channel.sendAll(m);
                    } catch (Exception e) {
                        log.error("controller group {}: cannot send {}: {}", group, what, e.toString());
                    }
                },
                "raidb-group-handover");
        t.setDaemon(true);
        t.start();
    }
}
