package org.raidb.controller.group;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jgroups.Address;
import org.jgroups.View;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.config.GroupConfig;
import org.raidb.controller.request.ExecuteRequest;
import org.raidb.controller.request.StatementResult;
import org.raidb.controller.scheduler.Claim;
import org.raidb.controller.scheduler.ConflictClass;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.BatchFrame;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.recovery.DisableCause;

/**
 * The RAIDb paper's horizontal scalability (section 5.3): several controllers serve one virtual
 * database, each with its own backends. Every write, DDL, transaction end and savepoint is sent to the
 * group and delivered to every controller in one total order (JGroups SEQUENCER); each controller
 * takes its place in {@link DeliveredOrder} at delivery, then runs it through its own request path on
 * its own backends: the origin for its client's session, the others for a {@link ShadowSession} of it.
 * Reads stay on the controller the client talks to. The client is answered when the completion policy
 * holds; the members' outcomes are compared, and a member in the minority disables its backends.
 */
public final class ActiveReplication implements ReplicationProtocol, GroupChannel.Listener {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ActiveReplication.class);
    /** How long an origin waits for its own write to come back in the order before giving up. */
    private static final long DELIVERY_TIMEOUT_MILLIS = 30_000;
    /** How long an origin waits for the other members' answers (a hung member is excluded well before). */
    private static final long ACK_TIMEOUT_MILLIS = 60_000;

    private static final StatementResult NOTHING = new StatementResult(List.of(), null);

    private final VirtualDatabase vdb;
    private final LocalRequests local;
    private final GroupConfig config;
    private final GroupChannel channel;
    private volatile String controllerName;
    private final DeliveredOrder order = new DeliveredOrder();
    private final AtomicLong seqs = new AtomicLong();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong applied = new AtomicLong();
    private final AtomicLong statusIds = new AtomicLong();
    private final AtomicLong shadowIds = new AtomicLong();
    private final Map<Long, OriginSession> origins = new ConcurrentHashMap<>();
    private final Map<Long, CompletableFuture<DeliveredOrder.Ticket>> ownDeliveries = new ConcurrentHashMap<>();
    private final Map<Long, Acks> acks = new ConcurrentHashMap<>();
    private final Map<String, ShadowSession> shadows = new ConcurrentHashMap<>();
    private final Map<Long, Map<String, GroupMessage.Status>> statusAnswers = new ConcurrentHashMap<>();
    private final Map<String, GroupMessage.Announce> announced = new ConcurrentHashMap<>();
    private final String fingerprint;
    private final Object viewSeen = new Object();

    /** A client session of this controller, as the group knows it. */
    private static final class OriginSession {
        long transactions;
        /** Whether the current transaction has sent anything to the group (so its end must go there too). */
        boolean inGroup;
        /** Whether any request of it went to the group: the others then hold a shadow session to drop. */
        boolean known;

        String tx(String self, long session) {
            return self + "/" + session + "/t" + transactions;
        }
    }

    private ActiveReplication(
            VirtualDatabase vdb, LocalRequests local, GroupConfig config, GroupChannel channel, String controllerName) {
        this.vdb = vdb;
        this.local = local;
        this.config = config;
        this.channel = channel;
        this.controllerName = controllerName;
        this.fingerprint = Fingerprint.of(vdb.config());
    }

    /**
     * Joins the virtual database's group. A member whose configuration differs from the coordinator's
     * (RAIDb level, table placement) is refused, with the difference named.
     *
     * @param controllerName how the other members and {@code show controllers} name this controller
     */
    public static ActiveReplication join(VirtualDatabase vdb, LocalRequests local, String controllerName)
            throws GroupException {
        GroupConfig config = vdb.config().group();
        GroupChannel channel = GroupChannel.create(config);
        ActiveReplication p = new ActiveReplication(vdb, local, config, channel, controllerName);
        try {
            p.start();
        } catch (GroupException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return p;
    }

    private void start() throws GroupException {
        channel.connect(this);
        synchronized (viewSeen) {
            while (channel.view().size() == 1 && config.whenAlone() == GroupConfig.WhenAlone.WAIT) {
                log.warn(
                        "controller group {}: no member answered at {}; virtual database {} waits for one"
                                + " (whenAlone=\"wait\")",
                        config.name(),
                        config.members(),
                        vdb.name());
                try {
                    viewSeen.wait(Math.max(config.joinTimeoutMillis(), 1000));
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
                    config.members(),
                    vdb.name());
            return;
        }
        String coordinator = channel.view().getCoord().toString();
        GroupMessage.Announce theirs = awaitAnnounce(coordinator);
        if (theirs == null) {
            throw new GroupException("controller group " + config.name() + ": the coordinator " + coordinator
                    + " did not say who it is within " + config.joinTimeoutMillis() + " ms; is it a RAIDb controller"
                    + " serving virtual database " + vdb.name() + "?");
        }
        String difference = Fingerprint.difference(fingerprint, theirs.fingerprint());
        if (difference != null) {
            throw new GroupException("controller group " + config.name() + ": this controller's virtual database "
                    + vdb.name() + " differs from that of member " + theirs.controller() + ": " + difference
                    + "; every member must have the same RAIDb level and table placement");
        }
        if (theirs.delivered() > 0) {
            throw new GroupException("controller group " + config.name() + ": the group has already ordered "
                    + theirs.delivered() + " write(s) that this controller's backends lack, and catching up a joining"
                    + " controller is not built yet; stop every member and start them together on identical backends"
                    + " (copy a member's backends with backup and restore while the group is stopped)");
        }
        log.info(
                "controller group {}: joined as {} ({} members)",
                config.name(),
                channel.self(),
                channel.view().size());
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

    // ------------------------------------------------------------------ the client's side (origin)

    @Override
    public StatementResult execute(SessionState s, ExecuteRequest r) throws SQLException {
        if (local.reads(r)) {
            return local.execute(s, r);
        }
        return ordered(s, GroupMessage.Op.EXECUTE, local.deterministic(s, r), null, null);
    }

    @Override
    public StatementResult batch(SessionState s, BatchFrame batch) throws SQLException {
        return ordered(s, GroupMessage.Op.BATCH, null, local.deterministic(s, batch), null);
    }

    @Override
    public void commit(SessionState s) throws SQLException {
        if (origin(s).inGroup) {
            ordered(s, GroupMessage.Op.COMMIT, null, null, null);
        } else {
            local.commit(s); // a transaction that only read: nothing of it is anywhere else
        }
    }

    @Override
    public void rollback(SessionState s) throws SQLException {
        if (origin(s).inGroup) {
            ordered(s, GroupMessage.Op.ROLLBACK, null, null, null);
        } else {
            local.rollback(s);
        }
    }

    @Override
    public void savepoint(SessionState s, String command, String name) throws SQLException {
        // Always through the group: a later ROLLBACK TO SAVEPOINT must find it on every member.
        ordered(s, GroupMessage.Op.SAVEPOINT, null, null, command + " " + name);
    }

    @Override
    public void sessionEnded(SessionState s) throws SQLException {
        OriginSession o = origins.get(s.id());
        try {
            if (o != null && o.known) {
                ordered(s, GroupMessage.Op.END_SESSION, null, null, null); // the others drop its shadow
            } else {
                local.sessionEnded(s);
            }
        } finally {
            origins.remove(s.id());
        }
    }

    private OriginSession origin(SessionState s) {
        return origins.computeIfAbsent(s.id(), id -> new OriginSession());
    }

    /**
     * Sends the request to the group, waits for it to come back in the order, runs it here, and answers
     * once the completion policy holds.
     */
    private StatementResult ordered(
            SessionState s, GroupMessage.Op op, ExecuteRequest execute, BatchFrame batch, String savepoint)
            throws SQLException {
        OriginSession o = origin(s);
        boolean autoCommit = !s.inTransactionMode();
        long seq = seqs.incrementAndGet();
        String self = channel.self();
        String tx =
                autoCommit && op != GroupMessage.Op.END_SESSION ? self + "/" + s.id() + "/s" + seq : o.tx(self, s.id());
        GroupMessage.Write m = new GroupMessage.Write(
                self,
                s.id(),
                seq,
                tx,
                op,
                autoCommit,
                s.isolation(),
                s.readOnly(),
                s.virtualUser(),
                null,
                0,
                execute,
                batch,
                savepoint);
        CompletableFuture<DeliveredOrder.Ticket> mine = new CompletableFuture<>();
        ownDeliveries.put(seq, mine);
        Acks answers = new Acks(self, members());
        acks.put(seq, answers);
        o.known = true;
        if (!autoCommit) {
            o.inGroup = true;
        }
        DeliveredOrder.Ticket ticket;
        try {
            channel.sendAll(m);
            ticket = mine.get(DELIVERY_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw notDelivered(seq, e);
        } catch (Exception e) {
            throw notDelivered(seq, e);
        }
        StatementResult result = null;
        SQLException failure = null;
        try {
            result = run(s, m, ticket);
        } catch (SQLException e) {
            failure = e;
        }
        String outcome = failure == null ? result.signature() : outcomeOf(failure);
        answers.answered(self, outcome);
        if (s.currentTransaction() == null) {
            o.transactions++;
            o.inGroup = false;
        }
        try {
            if (!answers.await(config.completion(), ACK_TIMEOUT_MILLIS)) {
                log.warn(
                        "controller group {}: not enough members answered write #{} within {} ms",
                        config.name(),
                        seq,
                        ACK_TIMEOUT_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        compareWhenComplete(seq, answers, describe(m));
        if (failure != null) {
            throw failure;
        }
        return result;
    }

    private SQLException notDelivered(long seq, Exception e) {
        ownDeliveries.remove(seq);
        acks.remove(seq);
        return new SQLException(
                "the controller group " + config.name() + " did not deliver the write (" + e
                        + "); this controller may have lost the group: retry, or connect to another controller",
                SqlStates.CONNECTION_FAILURE,
                e);
    }

    private List<String> members() {
        return channel.view().getMembers().stream().map(Address::toString).toList();
    }

    /** Compares the members' outcomes once all are in; the minority disables its backends. */
    private void compareWhenComplete(long seq, Acks answers, String what) {
        if (!answers.complete()) {
            return; // the last answer to come in (onDone) compares
        }
        if (acks.remove(seq) == null) {
            return; // compared already
        }
        for (String dissenter : answers.dissenters()) {
            String reason = "its backends got [" + answers.outcomeOf(dissenter) + "] for " + what
                    + " where the group's majority got [" + answers.majorityOutcome() + "]";
            try {
                channel.sendAll(new GroupMessage.Verdict(dissenter, reason));
            } catch (Exception e) {
                log.error(
                        "controller group {}: cannot tell {} that it diverged: {}",
                        config.name(),
                        dissenter,
                        e.toString());
            }
        }
    }

    private static String describe(GroupMessage.Write m) {
        return switch (m.op()) {
            case EXECUTE -> "[" + abbreviate(m.execute().sql()) + "]";
            case BATCH -> "a batch";
            case SAVEPOINT -> m.savepoint();
            default -> m.op().name();
        };
    }

    private static String abbreviate(String sql) {
        return sql.length() <= 200 ? sql : sql.substring(0, 200) + "…";
    }

    private static String outcomeOf(SQLException e) {
        return "error " + e.getSQLState();
    }

    // ------------------------------------------------------------------ every member's side

    @Override
    public void received(String from, GroupMessage m) {
        if (m instanceof GroupMessage.Write w) {
            delivered(w);
        } else if (m instanceof GroupMessage.Done d) {
            Acks a = acks.get(d.seq());
            if (a != null) {
                a.answered(d.member(), d.outcome());
                compareWhenComplete(d.seq(), a, "write #" + d.seq() + " of " + d.origin());
            }
        } else if (m instanceof GroupMessage.Verdict v) {
            if (v.member().equals(channel.self())) {
                disableAll(v.reason());
            }
        } else if (m instanceof GroupMessage.Announce a) {
            synchronized (announced) {
                announced.put(a.member(), a);
                announced.notifyAll();
            }
        } else if (m instanceof GroupMessage.StatusAsk q) {
            channel.sendTo(
                    q.from(),
                    new GroupMessage.Status(q.id(), channel.self(), backendStates(), delivered.get(), applied.get()));
        } else if (m instanceof GroupMessage.Status st) {
            Map<String, GroupMessage.Status> answers = statusAnswers.get(st.id());
            if (answers != null) {
                synchronized (answers) {
                    answers.put(st.member(), st);
                    answers.notifyAll();
                }
            }
        }
    }

    /** A write in the group's order: its place in the conflict classes now, its run on its session's thread. */
    private void delivered(GroupMessage.Write w) {
        delivered.incrementAndGet();
        DeliveredOrder.Ticket ticket = order.enqueue(w.tx(), claims(w));
        if (w.origin().equals(channel.self())) {
            CompletableFuture<DeliveredOrder.Ticket> mine = ownDeliveries.remove(w.seq());
            if (mine != null) {
                mine.complete(ticket);
            } else {
                order.done(ticket); // its client gave up waiting: nothing runs it here
            }
            return;
        }
        String key = w.origin() + "/" + w.session();
        ShadowSession shadow = shadows.computeIfAbsent(
                key,
                k -> new ShadowSession(
                        w.origin(),
                        new SessionState(-shadowIds.incrementAndGet(), w.user(), vdb.transactionIds()),
                        "raidb-group-" + vdb.name() + "-" + k));
        if (w.op() == GroupMessage.Op.END_SESSION) {
            shadows.remove(key);
        }
        shadow.submit(() -> runShadow(shadow, w, ticket));
    }

    private void runShadow(ShadowSession shadow, GroupMessage.Write w, DeliveredOrder.Ticket ticket) {
        SessionState s = shadow.state;
        shadow.lastTx = w.tx();
        if (s.currentTransaction() == null) {
            if (s.autoCommit() != w.autoCommit()) {
                s.autoCommit(w.autoCommit());
            }
            if (s.isolation() != w.isolation()) {
                s.isolation(w.isolation());
            }
            s.readOnly(w.readOnly());
        }
        String outcome;
        try {
            StatementResult result = run(s, w, ticket);
            outcome = result.signature();
            result.discard();
        } catch (SQLException e) {
            outcome = outcomeOf(e);
        } catch (RuntimeException e) {
            log.error("controller group {}: replaying write #{} of {} failed", config.name(), w.seq(), w.origin(), e);
            outcome = "error " + SqlStates.INTERNAL_ERROR;
        }
        if (w.op() == GroupMessage.Op.END_SESSION) {
            shadow.close();
        }
        channel.sendTo(w.origin(), new GroupMessage.Done(w.origin(), w.seq(), channel.self(), outcome));
    }

    /**
     * Runs a delivered write here once its conflict classes are granted, then gives them back as its
     * transaction (or its auto-commit statement) ends. A deadlock victim's transaction is rolled back.
     */
    private StatementResult run(SessionState s, GroupMessage.Write w, DeliveredOrder.Ticket ticket)
            throws SQLException {
        try {
            order.await(ticket);
            return runHere(s, w);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException(
                    "interrupted while waiting for the group's write order", SqlStates.INTERNAL_ERROR, e);
        } catch (SQLException e) {
            if (SqlStates.DEADLOCK_DETECTED.equals(e.getSQLState()) && s.currentTransaction() != null) {
                try {
                    local.rollback(s);
                } catch (SQLException ignored) {
                    // the victim is rolled back as far as it can be; its client hears 40P01
                }
            }
            throw e;
        } finally {
            if (w.autoCommit()) {
                order.done(ticket);
            }
            if (s.currentTransaction() == null) {
                order.ended(w.tx());
            }
            applied.incrementAndGet();
        }
    }

    private StatementResult runHere(SessionState s, GroupMessage.Write w) throws SQLException {
        switch (w.op()) {
            case EXECUTE -> {
                return local.execute(s, w.execute());
            }
            case BATCH -> {
                return local.batch(s, w.batch());
            }
            case COMMIT -> local.commit(s);
            case ROLLBACK -> local.rollback(s);
            case SAVEPOINT -> {
                int space = w.savepoint().lastIndexOf(' ');
                local.savepoint(
                        s, w.savepoint().substring(0, space), w.savepoint().substring(space + 1));
            }
            case END_SESSION -> local.sessionEnded(s);
        }
        return NOTHING;
    }

    /** The conflict classes of a delivered write, worked out alike on every member from what it carries. */
    private List<Claim> claims(GroupMessage.Write w) {
        try {
            if (w.op() == GroupMessage.Op.EXECUTE) {
                ExecuteRequest r = w.execute();
                AnalyzedStatement a = r.call()
                        ? vdb.analyzer().analyzeCall(r.sql())
                        : vdb.analyzer().analyze(r.sql());
                if (a.kind() == StatementKind.TRANSACTION_CONTROL || a.kind() == StatementKind.SESSION_SETTING) {
                    return List.of();
                }
                return vdb.conflictClaims()
                        .of(List.of(a), r.parameters() == null ? null : Collections.singletonList(r.parameters()));
            }
            if (w.op() == GroupMessage.Op.BATCH) {
                BatchFrame b = w.batch();
                List<String> texts = b.form() == BatchFrame.PREPARED ? List.of(b.sql()) : b.statements();
                List<AnalyzedStatement> parts = new ArrayList<>(texts.size());
                for (String t : texts) {
                    parts.add(vdb.analyzer().analyze(t));
                }
                return vdb.conflictClaims().of(parts, b.form() == BatchFrame.PREPARED ? b.rows() : null);
            }
            return List.of();
        } catch (RuntimeException e) {
            return List.of(Claim.exclusive(ConflictClass.EVERYTHING)); // unknown means conservative
        }
    }

    @Override
    public void viewChanged(View view, List<String> left) {
        List<String> members = view.getMembers().stream().map(Address::toString).toList();
        if (view instanceof org.jgroups.MergeView merge) {
            mergedAfterRunningApart(merge);
        }
        log.info(
                "controller group {}: view {} with {} member(s){}",
                config.name(),
                view.getViewId(),
                members.size(),
                left.isEmpty() ? "" : "; left: " + left);
        for (Map.Entry<Long, Acks> a : acks.entrySet()) {
            a.getValue().stayed(members);
            compareWhenComplete(a.getKey(), a.getValue(), "write #" + a.getKey());
        }
        for (Map.Entry<String, ShadowSession> e : List.copyOf(shadows.entrySet())) {
            ShadowSession shadow = e.getValue();
            if (left.contains(shadow.origin)) {
                // Its client's open transaction is rolled back here, after the writes delivered before the view.
                shadows.remove(e.getKey());
                shadow.submit(() -> {
                    try {
                        local.sessionEnded(shadow.state);
                    } catch (SQLException ex) {
                        log.warn(
                                "controller group {}: rolling back a session of departed member {}: {}",
                                config.name(),
                                shadow.origin,
                                ex.toString());
                    } finally {
                        String tx = shadow.lastTx;
                        if (tx != null) {
                            order.ended(tx);
                        }
                    }
                });
                shadow.close();
            }
        }
        left.forEach(announced::remove);
        // Everyone says who it is, so that a newcomer can check it fits.
        announce();
        synchronized (viewSeen) {
            viewSeen.notifyAll();
        }
    }

    /**
     * Two parts of the group that ran apart (a partition, or members that started alone at once) merge:
     * each part may have ordered writes the other lacks. The part of the new coordinator goes on; a member
     * of another part that had writes delivered disables its backends, to be restored from a member's.
     */
    private void mergedAfterRunningApart(org.jgroups.MergeView merge) {
        Address coordinator = merge.getCoord();
        for (View part : merge.getSubgroups()) {
            boolean mine = part.containsMember(channel.address());
            if (mine && !part.containsMember(coordinator) && delivered.get() > 0) {
                disableAll("this controller ran apart from the group's coordinator " + coordinator + " with "
                        + delivered.get() + " write(s) delivered and has merged back; restore its backends from a"
                        + " member's");
            }
        }
    }

    /** Tells every member who this one is; on its own thread, as JGroups' view thread must not block. */
    private void announce() {
        Thread t = new Thread(
                () -> {
                    try {
                        channel.sendAll(new GroupMessage.Announce(
                                channel.self(), controllerName, fingerprint, delivered.get()));
                    } catch (Exception ex) {
                        log.warn("controller group {}: cannot announce this member: {}", config.name(), ex.toString());
                    }
                },
                "raidb-group-announce");
        t.setDaemon(true);
        t.start();
    }

    /** Where this controller serves clients, as the other members show it, once it listens. */
    public void servesClientsAt(String hostAndPort) {
        controllerName = hostAndPort;
        announce();
    }

    private void disableAll(String reason) {
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

    @Override
    public GroupStatus status() {
        long id = statusIds.incrementAndGet();
        Map<String, GroupMessage.Status> answers = new java.util.HashMap<>();
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
                members.add(
                        st == null
                                ? new GroupStatus.Member(shown, name.equals(channel.self()), List.of(), -1, -1, false)
                                : new GroupStatus.Member(
                                        shown,
                                        name.equals(channel.self()),
                                        st.backends(),
                                        st.delivered(),
                                        st.applied(),
                                        true));
            }
        }
        return new GroupStatus(
                config.name(),
                String.valueOf(view.getViewId()),
                config.completion().name().toLowerCase(java.util.Locale.ROOT),
                members);
    }

    /** Writes waiting for a conflict class in the group's order (admin view, tests). */
    public int waitingWrites() {
        return order.waiting();
    }

    /** The members of the current view, by their JGroups names (no question asked of them). */
    public List<String> viewMembers() {
        return members();
    }

    /** The port the group transport listens on (tests configure bindPort 0). */
    public int groupPort() {
        return channel.port();
    }

    @Override
    public void close() {
        channel.close();
        shadows.values().forEach(ShadowSession::close);
    }
}
