package org.raidb.controller.group;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.raidb.controller.config.GroupConfig;
import org.raidb.controller.request.ExecuteRequest;
import org.raidb.controller.request.StatementResult;
import org.raidb.controller.transaction.SessionState;
import org.raidb.driver.protocol.BatchFrame;
import org.raidb.driver.protocol.SqlStates;

/**
 * This controller's clients' writes in the group: sent to all, run here on the client's own session
 * when they come back in the total order, answered when the completion policy holds, and their
 * outcomes compared with the other members' ({@link Acks}).
 */
final class OriginWrites {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(OriginWrites.class);
    /** How long an origin waits for its own write to come back in the order before giving up. */
    private static final long DELIVERY_TIMEOUT_MILLIS = 30_000;
    /** How long an origin waits for the other members' answers (a hung member is excluded well before). */
    private static final long ACK_TIMEOUT_MILLIS = 60_000;

    private final GroupConfig config;
    private final GroupChannel channel;
    private final WriteRunner runner;
    /** What this controller does when a write comes back after its client gave up on it. */
    private final Consumer<String> diverged;
    /** Members catching up: not waited for. */
    private final Set<String> catchingUp;

    private final AtomicLong seqs = new AtomicLong();
    private final Map<Long, OriginSession> sessions = new ConcurrentHashMap<>();
    private final Map<Long, CompletableFuture<DeliveredOrder.Ticket>> ownDeliveries = new ConcurrentHashMap<>();
    private final Map<Long, Acks> acks = new ConcurrentHashMap<>();

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

    OriginWrites(
            GroupConfig config,
            GroupChannel channel,
            WriteRunner runner,
            Consumer<String> diverged,
            Set<String> catchingUp) {
        this.catchingUp = catchingUp;
        this.config = config;
        this.channel = channel;
        this.runner = runner;
        this.diverged = diverged;
    }

    /** Whether the session's current transaction has written through the group. */
    boolean inGroup(SessionState s) {
        OriginSession o = sessions.get(s.id());
        return o != null && o.inGroup;
    }

    /** Whether the session ever sent anything to the group. */
    boolean known(SessionState s) {
        OriginSession o = sessions.get(s.id());
        return o != null && o.known;
    }

    void forget(SessionState s) {
        sessions.remove(s.id());
    }

    /**
     * Sends the request to the group, waits for it to come back in the order, runs it here, and answers
     * once the completion policy holds.
     */
    StatementResult send(SessionState s, GroupMessage.Op op, ExecuteRequest execute, BatchFrame batch, String savepoint)
            throws SQLException {
        OriginSession o = sessions.computeIfAbsent(s.id(), id -> new OriginSession());
        boolean autoCommit = !s.inTransactionMode();
        long seq = seqs.incrementAndGet();
        String self = channel.self();
        String tx =
                autoCommit && op != GroupMessage.Op.END_SESSION ? self + "/" + s.id() + "/s" + seq : o.tx(self, s.id());
        GroupMessage.Write m = new GroupMessage.Write(
                channel.viewId(),
                self,
                s.id(),
                seq,
                tx,
                op,
                autoCommit,
                s.isolation(),
                s.readOnly(),
                s.virtualUser(),
                s.clientSessionId(),
                // A session's end is no client request: the id of its last one must not get this outcome.
                op == GroupMessage.Op.END_SESSION ? 0 : s.requestId(),
                execute,
                batch,
                savepoint);
        CompletableFuture<DeliveredOrder.Ticket> mine = new CompletableFuture<>();
        ownDeliveries.put(seq, mine);
        List<String> members = new ArrayList<>(channel.members());
        members.removeAll(catchingUp);
        Acks answers = new Acks(self, members);
        acks.put(seq, answers);
        catchingUp.forEach(answers::excused); // one that started catching up since the members were read
        // A view that came between reading the members and putting the entry was not applied to it: a member
        // that left then would be waited for until the timeout (seen once: 60 s after a kill, write #365).
        answers.stayed(channel.members());
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
            result = runner.run(s, m, ticket);
        } catch (SQLException e) {
            failure = e;
        }
        answers.answered(self, failure == null ? WriteRunner.outcomeOf(result) : WriteRunner.outcomeOf(failure));
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

    /** One of this controller's writes came back in the order: its client's thread runs it. */
    void delivered(GroupMessage.Write w, DeliveredOrder.Ticket ticket) {
        CompletableFuture<DeliveredOrder.Ticket> mine = ownDeliveries.remove(w.seq());
        if (mine != null) {
            mine.complete(ticket);
            return;
        }
        // Its client gave up waiting and was told it failed, but the others run it: this member's backends
        // lack it from here on.
        runner.drop(ticket);
        diverged.accept("write #" + w.seq() + " came back in the group's order after its client had given up"
                + " waiting; the other members applied it, this controller did not");
    }

    /** Another member applied one of this controller's writes. */
    void answered(GroupMessage.Done d) {
        Acks a = acks.get(d.seq());
        if (a != null) {
            a.answered(d.member(), d.outcome());
            compareWhenComplete(d.seq(), a, "write #" + d.seq());
        }
    }

    /** A member started catching up: writes sent before are not waited for on it either. */
    void excused(String member) {
        for (Map.Entry<Long, Acks> a : acks.entrySet()) {
            a.getValue().excused(member);
            compareWhenComplete(a.getKey(), a.getValue(), "write #" + a.getKey());
        }
    }

    /** The view changed: members that left are no longer waited for. */
    void membersNow(List<String> members) {
        for (Map.Entry<Long, Acks> a : acks.entrySet()) {
            a.getValue().stayed(members);
            compareWhenComplete(a.getKey(), a.getValue(), "write #" + a.getKey());
        }
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

    /** Compares the members' outcomes once all are in; the minority disables its backends. */
    private void compareWhenComplete(long seq, Acks answers, String what) {
        if (!answers.complete() || acks.remove(seq) == null) {
            return; // not all in yet (the last answer compares), or compared already
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
}
