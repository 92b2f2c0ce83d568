package org.raidb.controller.group;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.jgroups.Address;
import org.jgroups.MergeView;
import org.jgroups.View;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.config.GroupConfig;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.recovery.DisableCause;

/**
 * Who the members are and whether this controller fits among them: each member announces itself
 * ({@link GroupMessage.Announce}) whenever the view changes; a joiner checks the coordinator's
 * announcement; {@code show controllers} asks every member how it stands; after a merge the members'
 * announcements in the merged view decide which part goes on ({@link MergeRule}). A member found out
 * of step with the group disables its backends.
 */
final class Membership {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Membership.class);

    private final VirtualDatabase vdb;
    private final GroupConfig config;
    private final GroupChannel channel;
    private final WriteRunner runner;
    private final GroupHistory history;
    /** Whether this controller is still joining: checking whether it must catch up, or catching up. */
    private final BooleanSupplier joining;
    /** Until caught up: this controller's backends may lack what the group wrote while it was stopped. */
    private volatile boolean stale;

    private final String fingerprint;
    private volatile String controllerName;
    private final Map<String, GroupMessage.Announce> announced = new ConcurrentHashMap<>();
    private final Map<Long, Map<String, GroupMessage.Status>> statusAnswers = new ConcurrentHashMap<>();
    private final AtomicLong statusIds = new AtomicLong();
    private final Object viewSeen = new Object();
    /** The view last installed here, and how many writes this member had had delivered before it. */
    private volatile long viewId = -1;

    private volatile long deliveredBeforeView;
    /** A merge whose parts' reports are not all in yet; guarded by {@link #announced}. */
    private PendingMerge pendingMerge;

    Membership(
            VirtualDatabase vdb,
            GroupConfig config,
            GroupChannel channel,
            WriteRunner runner,
            GroupHistory history,
            BooleanSupplier joining,
            String name) {
        this.joining = joining;
        this.history = history;
        this.stale = history.servedBesideOthersBeforeStart() && config.whenAlone() != GroupConfig.WhenAlone.START;
        this.vdb = vdb;
        this.config = config;
        this.channel = channel;
        this.runner = runner;
        this.controllerName = name;
        this.fingerprint = Fingerprint.of(vdb.config());
    }

    /**
     * After connecting: waits for a member when told to, then checks that this controller fits the
     * group (same configuration); returns whether it must catch up before it serves clients: the group
     * has ordered writes without it, or it is stale ({@link GroupHistory}).
     */
    boolean checkJoin() throws GroupException {
        synchronized (viewSeen) {
            long period = TimeUnit.MILLISECONDS.toNanos(Math.max(config.joinTimeoutMillis(), 1000));
            long began = System.nanoTime();
            long loggedAt = began - period;
            for (String why = reasonToWait(); why != null; why = reasonToWait()) {
                long now = System.nanoTime();
                // Stale beside others: the others' Announces take milliseconds to come; say so only if they do not.
                boolean alone = channel.view().size() == 1;
                if (now - loggedAt >= period && (alone || now - began >= period)) {
                    log.warn("controller group {}: {}", config.name(), why);
                    loggedAt = now;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(viewSeen, period);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new GroupException("interrupted while waiting for a member of group " + config.name(), e);
                }
            }
        }
        if (channel.view().size() == 1) {
            log.warn(
                    "controller group {}: no member answered at {}; this controller serves virtual database {} alone"
                            + " until others join",
                    config.name(),
                    config.members().isEmpty() ? "(no members listed)" : config.members(),
                    vdb.name());
            return false;
        }
        String coordinator = reference();
        GroupMessage.Announce theirs = awaitAnnounce(coordinator);
        if (theirs == null) {
            throw new GroupException("controller group " + config.name() + ": the member " + coordinator
                    + " did not say who it is within " + config.joinTimeoutMillis() + " ms; is it a RAIDb controller"
                    + " serving virtual database " + vdb.name() + "?");
        }
        String difference = Fingerprint.difference(fingerprint, theirs.fingerprint());
        if (difference != null) {
            throw new GroupException("controller group " + config.name() + ": this controller's virtual database "
                    + vdb.name() + " differs from that of member " + theirs.controller() + ": " + difference
                    + "; every member must have the same RAIDb level and table placement");
        }
        log.info(
                "controller group {}: joined as {} ({} members; the group has ordered {} write(s))",
                config.name(),
                channel.self(),
                channel.view().size(),
                theirs.delivered());
        return stale || theirs.delivered() > 0;
    }

    /**
     * Whose Announce tells a joiner whether the group wrote without it: the coordinator, unless this member
     * is (a merge made it so): then the first other member that said it is not stale.
     */
    private String reference() {
        String coordinator = channel.view().getCoord().toString();
        if (!coordinator.equals(channel.self())) {
            return coordinator;
        }
        List<String> others = channel.members().stream()
                .filter(m -> !m.equals(channel.self()))
                .toList();
        return others.stream()
                .filter(m -> announced.containsKey(m) && !announced.get(m).stale())
                .findFirst()
                .orElse(others.get(0));
    }

    /** Another member of the view has said it is not stale: it can be a catch-up's donor. */
    private boolean aMemberIsNotStale() {
        return channel.members().stream()
                .filter(m -> !m.equals(channel.self()))
                .anyMatch(m -> announced.containsKey(m) && !announced.get(m).stale());
    }

    /** Whether {@code member} said it is stale: it cannot give its backends' contents to a joiner. */
    boolean stale(String member) {
        GroupMessage.Announce a = announced.get(member);
        return a != null && a.stale();
    }

    /** Caught up: this controller's backends hold the group's data; it tells the others. */
    void caughtUp() {
        if (stale) {
            stale = false;
            announce();
        }
    }

    /** Why this controller may not go on yet (it waits for a view or an Announce), or null. */
    private String reasonToWait() {
        if (channel.view().size() == 1 && waitsWhenAlone()) {
            return "no member answered at " + config.members() + "; virtual database " + vdb.name()
                    + " waits for one ("
                    + (config.whenAlone() == GroupConfig.WhenAlone.WAIT
                            ? "whenAlone=\"wait\")"
                            : "it served the group beside other members before and did not stop as its last member,"
                                    + " so its backends may lack what the group wrote since; to serve alone anyway,"
                                    + " start it with whenAlone=\"start\")");
        }
        synchronized (announced) {
            if (pendingMerge != null) {
                return "the group's parts merged in view " + pendingMerge.viewId() + "; virtual database " + vdb.name()
                        + " waits for every member to say what it holds (" + pendingMerge.missing() + " not yet)";
            }
        }
        if (stale && !aMemberIsNotStale()) {
            return "every member in view " + channel.members() + " stopped while others went on, as this one did;"
                    + " virtual database " + vdb.name() + " waits for a member that did not (the one that stopped"
                    + " last: start it with whenAlone=\"start\")";
        }
        return null;
    }

    private boolean waitsWhenAlone() {
        return switch (config.whenAlone()) {
            case WAIT -> true;
            case START -> false;
            case AUTO -> history.servedBesideOthersBeforeStart();
        };
    }

    private GroupMessage.Announce awaitAnnounce(String member) throws GroupException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(config.joinTimeoutMillis(), 2000));
        synchronized (announced) {
            while (!announced.containsKey(member)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return null;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(announced, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new GroupException("interrupted while joining controller group " + config.name(), e);
                }
            }
            return announced.get(member);
        }
    }

    void heard(GroupMessage.Announce a) {
        synchronized (announced) {
            announced.put(a.member(), a);
            if (pendingMerge != null && a.view() == pendingMerge.viewId()) {
                pendingMerge.reports().putIfAbsent(a.member(), new MergeRule.Report(a.delivered(), a.stale()));
                decideMergeWhenAllSaid();
            }
            announced.notifyAll();
        }
        synchronized (viewSeen) {
            viewSeen.notifyAll(); // a stale joiner waits for a member that is not
        }
    }

    void asked(GroupMessage.StatusAsk q) {
        channel.sendTo(
                q.from(),
                new GroupMessage.Status(q.id(), channel.self(), backendStates(), runner.delivered(), runner.applied()));
    }

    void answered(GroupMessage.Status st) {
        Map<String, GroupMessage.Status> answers = statusAnswers.get(st.id());
        if (answers != null) {
            synchronized (answers) {
                answers.put(st.member(), st);
                answers.notifyAll();
            }
        }
    }

    /**
     * A new view (called as it is installed, before any message sent in it is handled): departed members
     * are forgotten, everyone announces itself again (for newcomers, and for the parts of a merge).
     *
     * @param deliveredBefore the writes this member had had delivered before the view
     */
    void viewChanged(View view, List<String> left, long deliveredBefore) {
        synchronized (announced) {
            viewId = view.getViewId().getId();
            deliveredBeforeView = deliveredBefore;
            left.forEach(announced::remove);
            if (view instanceof MergeView merge) {
                if (pendingMerge != null) {
                    log.warn(
                            "controller group {}: merged again before the merge of view {} was decided; deciding the"
                                    + " new one",
                            config.name(),
                            pendingMerge.viewId());
                }
                pendingMerge = PendingMerge.of(merge);
            } else if (pendingMerge != null) {
                // Views are in the total order: every member forgets the departed at the same place.
                pendingMerge.left(left);
                decideMergeWhenAllSaid();
            }
        }
        announce();
        synchronized (viewSeen) {
            viewSeen.notifyAll();
        }
    }

    /**
     * Parts of the group that ran apart (a partition, or members that started alone at once) merged: each
     * part may have ordered writes the other lacks. Once every member has said in the merged view what it
     * held, every member picks the same part to go on ({@link MergeRule}); a member of another part
     * that had writes, or lacks the writes of the part that goes on, disables its backends, to be restored
     * from a member's; a stale one catches up from the part that goes on, as it would have joining. Called
     * holding {@link #announced}.
     */
    private void decideMergeWhenAllSaid() {
        PendingMerge merge = pendingMerge;
        if (!merge.complete()) {
            return;
        }
        pendingMerge = null;
        List<String> winner = MergeRule.winner(merge.parts(), merge.members(), merge.reports());
        MergeRule.Outcome outcome = MergeRule.outcome(channel.self(), merge.parts(), merge.members(), merge.reports());
        log.info(
                "controller group {}: parts {} merged in view {} (what each member held: {}); {} goes on; this"
                        + " member: {}",
                config.name(),
                merge.parts(),
                merge.viewId(),
                merge.reports(),
                winner,
                outcome);
        if (outcome == MergeRule.Outcome.DISABLES && !joining()) {
            long own = merge.reports().get(channel.self()).delivered();
            disableAll("this controller ran apart from members " + winner + " (it had " + own + " write(s) delivered,"
                    + " they " + MergeRule.writes(winner, merge.reports()) + ") and has merged back; its part lost"
                    + " to theirs: restore its backends from a member's");
        }
        // A joiner waiting for the decision is woken by the caller, once it has let go of announced (the joiner
        // holds viewSeen while it looks at announced).
    }

    /** Still joining (it has not served clients): its own catch-up brings it in step. */
    private boolean joining() {
        return joining.getAsBoolean();
    }

    /** Tells every member who this one is; on its own thread, as JGroups' view thread must not block. */
    private void announce() {
        long view = viewId;
        long before = deliveredBeforeView;
        boolean staleNow = stale;
        Thread t = new Thread(
                () -> {
                    try {
                        channel.sendAll(new GroupMessage.Announce(
                                view, channel.self(), controllerName, fingerprint, before, staleNow));
                    } catch (Exception ex) {
                        log.warn("controller group {}: cannot announce this member: {}", config.name(), ex.toString());
                    }
                },
                "raidb-group-announce");
        t.setDaemon(true);
        t.start();
    }

    /** Where this controller serves clients, as the other members show it, once it listens. */
    void servesClientsAt(String hostAndPort) {
        controllerName = hostAndPort;
        announce();
    }

    /** This controller's backends are out of step with the group: they are disabled, with why. */
    void disableAll(String reason) {
        log.error("controller group {}: this controller's backends disagree with the group: {}", config.name(), reason);
        for (DatabaseBackend b : vdb.backends()) {
            if (b.isEnabled()) {
                vdb.disableWithoutWaiting(b, DisableCause.divergence("controller group: " + reason));
            }
        }
    }

    private List<String> backendStates() {
        return vdb.backends().stream()
                .map(b -> b.name() + " (" + b.state() + ")")
                .toList();
    }

    /** Asks every member how it stands; a member that does not answer within a second is shown so. */
    GroupStatus status() {
        long id = statusIds.incrementAndGet();
        Map<String, GroupMessage.Status> answers = new HashMap<>();
        statusAnswers.put(id, answers);
        View view = channel.view();
        try {
            channel.sendAll(new GroupMessage.StatusAsk(channel.self(), id));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            synchronized (answers) {
                while (answers.size() < view.size() && System.nanoTime() < deadline) {
                    TimeUnit.NANOSECONDS.timedWait(answers, Math.max(1, deadline - System.nanoTime()));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn("controller group {}: cannot ask the members: {}", config.name(), e.toString());
        } finally {
            statusAnswers.remove(id);
        }
        List<GroupStatus.Member> members = new ArrayList<>();
        synchronized (answers) {
            for (Address a : view.getMembers()) {
                String name = a.toString();
                GroupMessage.Status st = answers.get(name);
                GroupMessage.Announce who = announced.get(name);
                String shown = who != null ? name + " (" + who.controller() + ")" : name;
                boolean self = name.equals(channel.self());
                members.add(
                        st == null
                                ? new GroupStatus.Member(shown, self, List.of(), -1, -1, false)
                                : new GroupStatus.Member(
                                        shown, self, st.backends(), st.delivered(), st.applied(), true));
            }
        }
        return new GroupStatus(
                config.name(),
                String.valueOf(view.getViewId()),
                config.completion().name().toLowerCase(Locale.ROOT),
                members);
    }
}
