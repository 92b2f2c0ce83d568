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
 * broadcaster of the total order) dies. JGroups 5 has no flush: a message the sequencer had broadcast
 * just before it died may have reached some survivors and not others, and no one can retransmit it.
 * Every survivor had a prefix of the dead sequencer's broadcasts delivered; the one furthest ahead has
 * all that any other has. So each survivor holds everything of the group's order from the first
 * message the new sequencer broadcast on, and tells the others its position then ({@link
 * DeliveredWrites}): the writes of the dead sequencer's order it had. Once every survivor's position is
 * in, the one furthest ahead sends the writes past the lowest position ({@link GroupMessage.Fill});
 * each survivor runs those it lacks, then ends the departed members' client sessions, then runs what it
 * held, in the new sequencer's order, a write it already had skipped. The survivors are then at one
 * position again, with the same writes in the same order.
 *
 * <p>The boundary is where the broadcaster changes ({@link SequencerTap}), not the view that removes the
 * dead sequencer: that view reaches each member at a different place of the new sequencer's order. The
 * new sequencer broadcasts the messages it had sent and not seen come back as soon as it takes over,
 * before its view message goes out, and its own view can reach its application after some of them. And
 * SEQUENCER drops a message resent to the new sequencer where the dead one had delivered it, so the same
 * message can be before the view on one survivor (from the dead sequencer) and after it on another (from
 * the new one, the resend). Counting to the view made the positions of different orders look alike: a
 * survivor was "filled" with writes it then ran again in another place, or skipped some it lacked.
 *
 * <p>Everything of the order is held, not only writes: a catch-up's barrier, a verdict, an announcement
 * run after the fill, in the same place on every survivor. A write no survivor got is lost as if never
 * sent: its client was never answered under completion "all" (it needs every member's answer). Another
 * view change during a handover starts it again among those left; what was held stays held.
 */
final class SequencerHandover {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SequencerHandover.class);

    /** What the handover asks of the member it runs in. */
    interface Member {
        /** A message of the group's order whose turn has come. */
        void deliver(GroupMessage m);

        /** Runs a write of the dead sequencer's order that another survivor had and this one lacked. */
        void runFilled(GroupMessage.Write w);

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

    /** The view this member is in (null before the first): its coordinator is the sequencer. */
    private View view;

    /**
     * Whether a new sequencer's broadcasts reached this member before the view that removed the old one:
     * it holds them from the first on.
     */
    private boolean newSequencer;

    private final List<GroupMessage> held = new ArrayList<>();
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

    /**
     * A message delivered in the group's order, broadcast by {@code by} (null: not known): it goes on now,
     * or once the handover under way is over. A new sequencer's first broadcast, before the view that
     * makes it the coordinator, starts the holding.
     */
    synchronized void ordered(GroupMessage m, String by) {
        if (by != null && round == null && !newSequencer && broadcastsAhead(by)) {
            newSequencer = true;
            log.info(
                    "controller group {}: {} broadcasts in place of {} before this member saw the view; it had {}"
                            + " write(s) delivered; holding the new order until the survivors even out",
                    group,
                    by,
                    view.getCoord(),
                    delivered.position());
        }
        if (round == null && !newSequencer) {
            member.deliver(m);
        } else {
            if (log.isDebugEnabled()) {
                log.debug("controller group {}: held during the handover: {}", group, describe(m));
            }
            held.add(m);
        }
    }

    /**
     * Whether {@code by} is a member of this member's view other than its coordinator: it broadcasts
     * because it is the coordinator of a view this member has not installed yet. (A late broadcast of a
     * departed sequencer is not: it is no member any more.)
     */
    private boolean broadcastsAhead(String by) {
        if (view == null
                || view instanceof MergeView
                || by.equals(view.getCoord().toString())) {
            // Right after a merge, the other part's old sequencer still delivers what it broadcast before: that
            // is no new sequencer, and no view would come to end the holding (seen in ControllerGroupFailoverIT:
            // a stale member merging in as coordinator held the group's order for good).
            return false;
        }
        for (Address a : view.getMembers()) {
            if (a.toString().equals(by)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A new view. When it removed the sequencer (or a handover is under way) a handover starts among the
     * members that were there before; otherwise the departed members' sessions end at once.
     */
    synchronized void viewChanged(View before, View now, List<String> left) {
        boolean sequencerLeft = before != null && !(now instanceof MergeView) && !now.containsMember(before.getCoord());
        view = now;
        if (!sequencerLeft && round == null) {
            if (!left.isEmpty()) {
                member.originsLeft(left);
            }
            if (newSequencer) { // a new broadcaster without the sequencer leaving (a merge): nothing to even out
                newSequencer = false;
                release();
            }
            return;
        }
        departed.addAll(left);
        Set<String> catchingUp = member.catchingUp();
        if (catchingUp.contains(channel.self())) {
            member.originsLeft(List.copyOf(departed)); // a joiner runs nothing of the group's yet
            departed.clear();
            round = null;
            newSequencer = false;
            release();
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
        // Held writes are not numbered: the position is still where the dead sequencer's order ended here.
        long position = delivered.position();
        newSequencer = false;
        log.warn(
                "controller group {}: the sequencer left (view {}); this member had {} write(s) of its order"
                        + " delivered ({} message(s) of the new order held); evening out with {}",
                group,
                now.getViewId(),
                position,
                held.size(),
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
                        member.runFilled(n.write());
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
        newSequencer = false;
        List<String> left = List.copyOf(departed);
        departed.clear();
        if (!left.isEmpty()) {
            member.originsLeft(left);
        }
        release();
    }

    /** What was held goes on, in the order it was delivered in. */
    private void release() {
        if (held.isEmpty()) {
            return;
        }
        List<GroupMessage> release = List.copyOf(held);
        held.clear();
        log.info("controller group {}: running the {} message(s) held during the handover", group, release.size());
        for (GroupMessage m : release) {
            member.deliver(m);
        }
    }

    private static String describe(GroupMessage m) {
        if (m instanceof GroupMessage.Write w) {
            return "write #" + w.seq() + " of " + w.origin() + " (" + w.op() + ")";
        }
        return m.getClass().getSimpleName();
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
