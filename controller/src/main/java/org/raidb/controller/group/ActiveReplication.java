package org.raidb.controller.group;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jgroups.View;
import org.raidb.controller.config.GroupConfig;
import org.raidb.controller.request.ExecuteRequest;
import org.raidb.controller.request.StatementResult;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.BatchFrame;

/**
 * The RAIDb paper's horizontal scalability (section 5.3): several controllers serve one virtual
 * database, each with its own backends. Every write, DDL, transaction end and savepoint is sent to the
 * group and delivered to every controller in one total order (JGroups SEQUENCER); each controller
 * takes its place in {@link DeliveredOrder} at delivery, then runs it through its own request path on
 * its own backends ({@link WriteRunner}): the origin on its client's session ({@link OriginWrites}),
 * the others on a shadow of it ({@link ShadowSessions}). Reads stay on the controller the client talks
 * to. The client is answered when the completion policy holds; the members' outcomes are compared,
 * and a member in the minority disables its backends ({@link Membership}).
 */
public final class ActiveReplication implements ReplicationProtocol, GroupChannel.Listener {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ActiveReplication.class);

    private final LocalRequests local;
    private final GroupConfig config;
    private final GroupChannel channel;
    private final WriteRunner runner;
    private final OriginWrites origins;
    private final ShadowSessions shadows;
    private final Membership membership;
    private final DeliveredWrites delivered = new DeliveredWrites();
    private final GroupHistory history;
    private final SequencerHandover handover;
    private final CatchUpBarrier barrier;
    private final CatchUpJoiner joiner;
    private volatile View view;

    private ActiveReplication(
            VirtualDatabase vdb, LocalRequests local, GroupConfig config, GroupChannel channel, String controllerName) {
        this.local = local;
        this.config = config;
        this.channel = channel;
        this.runner = new WriteRunner(vdb, local);
        this.history = new GroupHistory(vdb.dataDir(), vdb.name());
        this.joiner = new CatchUpJoiner(vdb, channel, config.name());
        this.membership = new Membership(vdb, config, channel, runner, history, joiner::joining, controllerName);
        CatchUpDonor donor = new CatchUpDonor(vdb, channel, runner, config.name());
        this.barrier = new CatchUpBarrier(
                new CatchUpBarrier.Member() {
                    @Override
                    public DeliveredOrder.Ticket runNow(GroupMessage.Write w) {
                        return start(w);
                    }

                    @Override
                    public void donate(GroupMessage.CatchUpAsk ask, long position, Set<String> open) {
                        donor.donate(ask, position, open);
                    }

                    @Override
                    public boolean stale(String member) {
                        return membership.stale(member);
                    }
                },
                channel::self,
                config.name());
        donor.barrier(barrier);
        runner.onTransactionEnd(barrier::ended);
        this.origins = new OriginWrites(config, channel, runner, membership::disableAll, barrier.catchingUp());
        this.shadows = new ShadowSessions(vdb, local, runner, channel, config.name());
        this.handover = new SequencerHandover(
                channel,
                delivered,
                new SequencerHandover.Member() {
                    @Override
                    public void deliver(GroupMessage m) {
                        inOrder(m);
                    }

                    @Override
                    public void runFilled(GroupMessage.Write w) {
                        runDelivered(w, true);
                    }

                    @Override
                    public void originsLeft(List<String> left) {
                        shadows.originsLeft(left);
                        barrier.originsLeft(left);
                    }

                    @Override
                    public void disableAll(String reason) {
                        membership.disableAll(reason);
                    }

                    @Override
                    public Set<String> catchingUp() {
                        Set<String> out = new java.util.HashSet<>(barrier.catchingUp());
                        if (joiner.joining()) {
                            out.add(channel.self());
                        }
                        return out;
                    }
                },
                config.name());
    }

    /**
     * Joins the virtual database's group. A member whose configuration differs from the coordinator's
     * (RAIDb level, table placement) is refused, with the difference named, and so is one joining a group
     * that has already ordered writes.
     *
     * @param controllerName how the other members and {@code show controllers} name this controller
     */
    public static ActiveReplication join(VirtualDatabase vdb, LocalRequests local, String controllerName)
            throws GroupException {
        GroupConfig config = vdb.config().group();
        GroupChannel channel = GroupChannel.create(config);
        ActiveReplication p = new ActiveReplication(vdb, local, config, channel, controllerName);
        try {
            channel.connect(p);
            if (p.membership.checkJoin()) {
                p.joiner.catchUp(p.kept());
                p.membership.caughtUp();
            } else {
                p.joiner.noCatchUpNeeded(p.kept());
            }
        } catch (GroupException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return p;
    }

    // ------------------------------------------------------------------ what the client's session asks

    @Override
    public StatementResult execute(SessionState s, ExecuteRequest r) throws SQLException {
        if (local.reads(r)) {
            return local.execute(s, r);
        }
        return origins.send(s, GroupMessage.Op.EXECUTE, local.deterministic(s, r), null, null);
    }

    @Override
    public StatementResult batch(SessionState s, BatchFrame batch) throws SQLException {
        return origins.send(s, GroupMessage.Op.BATCH, null, local.deterministic(s, batch), null);
    }

    @Override
    public void commit(SessionState s) throws SQLException {
        if (origins.inGroup(s)) {
            origins.send(s, GroupMessage.Op.COMMIT, null, null, null);
        } else {
            local.commit(s); // a transaction that only read: nothing of it is anywhere else
        }
    }

    @Override
    public void rollback(SessionState s) throws SQLException {
        if (origins.inGroup(s)) {
            origins.send(s, GroupMessage.Op.ROLLBACK, null, null, null);
        } else {
            local.rollback(s);
        }
    }

    @Override
    public void savepoint(SessionState s, String command, String name) throws SQLException {
        // Always through the group: a later ROLLBACK TO SAVEPOINT must find it on every member.
        origins.send(s, GroupMessage.Op.SAVEPOINT, null, null, command + " " + name);
    }

    @Override
    public void sessionEnded(SessionState s) throws SQLException {
        try {
            if (origins.known(s)) {
                origins.send(s, GroupMessage.Op.END_SESSION, null, null, null); // the others drop its shadow
            } else {
                local.sessionEnded(s);
            }
        } finally {
            origins.forget(s);
        }
    }

    // ------------------------------------------------------------------ what the group delivers

    /**
     * Messages sent in a view this member has not installed yet, and every message after them. The
     * coordinator installs a new view before its view message goes out, so what it sends right after can
     * reach the others before that message: they keep it until they are in the same view, where the
     * coordinator saw it; what comes after it waits behind it, so that the group's order stays whole.
     */
    private final List<Received> early = new ArrayList<>();

    private record Received(GroupMessage message, String sequencer) {}

    private volatile long installedView = -1;

    @Override
    public void received(String from, GroupMessage m, String sequencer) {
        synchronized (early) {
            if (!early.isEmpty() || sentIn(m) > installedView) {
                early.add(new Received(m, sequencer));
                return;
            }
        }
        handle(m, sequencer);
    }

    /** The view its sender was in, for the messages whose place relative to a view change matters. */
    private static long sentIn(GroupMessage m) {
        if (m instanceof GroupMessage.Write w) {
            return w.view();
        } else if (m instanceof GroupMessage.Position p) {
            return p.viewId();
        } else if (m instanceof GroupMessage.Fill f) {
            return f.viewId();
        } else if (m instanceof GroupMessage.Announce a) {
            return a.view(); // after a merge, what a part held is compared in the merged view
        }
        return -1;
    }

    private void handle(GroupMessage m, String sequencer) {
        if (m instanceof GroupMessage.Position p) {
            handover.position(p);
        } else if (m instanceof GroupMessage.Fill f) {
            handover.fill(f);
        } else if (m instanceof GroupMessage.Done d) {
            origins.answered(d);
        } else if (m instanceof GroupMessage.Status st) {
            membership.answered(st);
        } else if (m instanceof GroupMessage.CatchUpStart s) {
            joiner.started(s);
        } else if (m instanceof GroupMessage.CatchUpChunk c) {
            joiner.chunk(c);
        } else {
            // The group's order: the handover may hold it while the survivors of a dead sequencer even out.
            handover.ordered(m, sequencer);
        }
    }

    /** A message of the group's order whose turn has come (the handover let it through). */
    private void inOrder(GroupMessage m) {
        if (m instanceof GroupMessage.Write w) {
            if (!joiner.intercepts(w)) {
                runDelivered(w, false);
            }
        } else if (m instanceof GroupMessage.CatchUpAsk a) {
            joiner.asked(a);
            // The barrier first: from here on new writes do not wait for the joiner; then those sent before.
            barrier.asked(a, channel.members(), delivered.position(), () -> refuse(a));
            if (!a.joiner().equals(channel.self())) {
                origins.excused(a.joiner());
            }
        } else if (m instanceof GroupMessage.CatchUpAbort a) {
            joiner.aborted(a);
            barrier.aborted(a);
        } else if (m instanceof GroupMessage.CaughtUp c) {
            barrier.caughtUp(c);
        } else if (m instanceof GroupMessage.Verdict v) {
            if (v.member().equals(channel.self())) {
                membership.disableAll(v.reason());
            }
        } else if (m instanceof GroupMessage.Announce a) {
            membership.heard(a);
        } else if (m instanceof GroupMessage.StatusAsk q) {
            membership.asked(q);
        }
    }

    /**
     * Runs a write in the group's order, unless this member had it already (a write forwarded again to a
     * new sequencer) or its origin left before it was delivered ({@code fromFill}: it was delivered
     * elsewhere before the origin left, so it runs).
     */
    private void runDelivered(GroupMessage.Write w, boolean fromFill) {
        if (!delivered.first(w)) {
            log.info(
                    "controller group {}: write #{} of {} delivered twice; run once",
                    config.name(),
                    w.seq(),
                    w.origin());
            return;
        }
        if (!fromFill && !channel.members().contains(w.origin())) {
            // Its origin left the view before it was delivered: views are in the total order (SEQUENCER under
            // GMS), so every member drops it alike, and its client's driver runs it again elsewhere.
            log.info(
                    "controller group {}: write #{} of departed member {} dropped", config.name(), w.seq(), w.origin());
            return;
        }
        delivered.kept(w);
        barrier.admit(w);
    }

    /** A write takes its place in the group's queues here and goes to the session that runs it. */
    private DeliveredOrder.Ticket start(GroupMessage.Write w) {
        DeliveredOrder.Ticket ticket = runner.enqueue(w);
        if (w.origin().equals(channel.self())) {
            origins.delivered(w, ticket);
        } else {
            shadows.delivered(w, ticket);
        }
        return ticket;
    }

    /** What a joiner's catch-up does with the writes it kept. */
    private CatchUpJoiner.Member kept() {
        return new CatchUpJoiner.Member() {
            @Override
            public void run(GroupMessage.Write w) {
                runDelivered(w, false);
            }

            @Override
            public void skip(GroupMessage.Write w) {
                delivered.first(w);
            }

            @Override
            public void startAt(long position) {
                delivered.startAt(position);
            }
        };
    }

    /** A second joiner while one catches up: the donor tells it to come back later. */
    private void refuse(GroupMessage.CatchUpAsk a) {
        if (channel.self().equals(barrier.donor(channel.members()))) {
            channel.sendTo(
                    a.joiner(),
                    new GroupMessage.CatchUpAbort(
                            a.joiner(),
                            "another controller is catching up from the group; start this one again once it serves"
                                    + " clients",
                            true));
        }
    }

    @Override
    public void viewChanged(View view, List<String> left) {
        View before = this.view;
        this.view = view;
        List<String> members = channel.members();
        log.info(
                "controller group {}: view {} with {} member(s){}",
                config.name(),
                view.getViewId(),
                members.size(),
                left.isEmpty() ? "" : "; left: " + left);
        origins.membersNow(members);
        if (members.size() > 1) {
            history.sawOthers(config.name());
        }
        synchronized (early) {
            installedView = view.getViewId().getId();
            handover.viewChanged(before, view, left);
            joiner.left(left);
            // What was ordered before this view (what a part held, at a merge), and the merge's parts noted
            // before any Announce sent in this view is handled.
            membership.viewChanged(view, left, delivered.position());
            // In order, up to the first message of a view still to come (and all behind it).
            List<Received> now = new ArrayList<>();
            while (!early.isEmpty() && sentIn(early.get(0).message()) <= installedView) {
                now.add(early.remove(0));
            }
            now.forEach(r -> handle(r.message(), r.sequencer()));
        }
    }

    // ------------------------------------------------------------------ operations

    @Override
    public GroupStatus status() {
        return membership.status();
    }

    /** Where this controller serves clients, as the other members show it, once it listens. */
    public void servesClientsAt(String hostAndPort) {
        membership.servesClientsAt(hostAndPort);
    }

    /** Writes waiting for a conflict class in the group's order (admin view, tests). */
    public int waitingWrites() {
        return runner.waiting();
    }

    /** Writes delivered to this controller in the group's order since it joined (the metrics; read-only). */
    public long deliveredWrites() {
        return runner.delivered();
    }

    /** Writes this controller has finished on its backends (the metrics; read-only). */
    public long appliedWrites() {
        return runner.applied();
    }

    /** The members of the current view, by their JGroups names (no question asked of them). */
    public List<String> viewMembers() {
        return channel.members();
    }

    /** Members catching up from the group (admin view, tests). */
    public Set<String> catchingUp() {
        return Set.copyOf(barrier.catchingUp());
    }

    /** The port the group transport listens on (tests configure bindPort 0). */
    public int groupPort() {
        return channel.port();
    }

    @Override
    public void close() {
        if (channel.members().size() == 1 && !joiner.joining()) {
            history.leftLast(config.name()); // nobody writes after the last member: it may start alone
        }
        channel.close();
        shadows.close();
    }
}
