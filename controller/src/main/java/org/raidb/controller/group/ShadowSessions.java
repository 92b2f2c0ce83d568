package org.raidb.controller.group;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.raidb.controller.request.StatementResult;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.SqlStates;

/**
 * The other members' client sessions, as this controller replays them ({@link ShadowSession}): each
 * delivered write of theirs runs on its session's thread, and its outcome goes back to its origin.
 */
final class ShadowSessions {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ShadowSessions.class);

    private final VirtualDatabase vdb;
    private final LocalRequests local;
    private final WriteRunner runner;
    private final GroupChannel channel;
    private final String group;
    private final Map<String, ShadowSession> shadows = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    ShadowSessions(VirtualDatabase vdb, LocalRequests local, WriteRunner runner, GroupChannel channel, String group) {
        this.vdb = vdb;
        this.local = local;
        this.runner = runner;
        this.channel = channel;
        this.group = group;
    }

    /** Another member's write, delivered: queued on its session's thread, after that session's earlier ones. */
    void delivered(GroupMessage.Write w, DeliveredOrder.Ticket ticket) {
        String key = w.origin() + "/" + w.session();
        ShadowSession shadow = shadows.computeIfAbsent(
                key,
                k -> new ShadowSession(
                        w.origin(),
                        // Negative ids: never one of this controller's own client sessions.
                        new SessionState(-ids.incrementAndGet(), w.user(), vdb.transactionIds()),
                        "raidb-group-" + vdb.name() + "-" + k));
        if (w.op() == GroupMessage.Op.END_SESSION) {
            shadows.remove(key);
        }
        // From now on a failed-over client sending it again here waits for this run instead of running it twice.
        local.expectOutcome(w.clientSession(), w.requestId());
        shadow.submit(() -> run(shadow, w, ticket));
    }

    private void run(ShadowSession shadow, GroupMessage.Write w, DeliveredOrder.Ticket ticket) {
        SessionState s = shadow.state;
        shadow.lastTx = w.tx();
        if (s.currentTransaction() == null) {
            // The origin session's modes as they were when it sent the write.
            if (s.autoCommit() != w.autoCommit()) {
                s.autoCommit(w.autoCommit());
            }
            if (s.isolation() != w.isolation()) {
                s.isolation(w.isolation());
            }
            s.readOnly(w.readOnly());
        }
        String outcome;
        StatementResult result = null;
        SQLException failure = null;
        try {
            result = runner.run(s, w, ticket);
            outcome = WriteRunner.outcomeOf(result);
        } catch (SQLException e) {
            failure = e;
            outcome = WriteRunner.outcomeOf(e);
        } catch (RuntimeException e) {
            log.error("controller group {}: replaying write #{} of {} failed", group, w.seq(), w.origin(), e);
            outcome = "error " + SqlStates.INTERNAL_ERROR;
            failure = new SQLException(e.toString(), SqlStates.INTERNAL_ERROR, e);
        } finally {
            // Remembered as the client's own controller remembers it, for a client that fails over to this one.
            local.ranFor(s, w.clientSession(), w.requestId(), result, failure);
        }
        if (result != null) {
            result.discard();
        }
        if (w.op() == GroupMessage.Op.END_SESSION) {
            shadow.close();
        }
        channel.sendTo(w.origin(), new GroupMessage.Done(w.origin(), w.seq(), channel.self(), outcome));
    }

    /**
     * Members left the view: their clients' sessions end here, after the writes delivered before the
     * view (each on its session's thread), their open transactions rolled back and their classes freed.
     */
    void originsLeft(List<String> left) {
        for (Map.Entry<String, ShadowSession> e : List.copyOf(shadows.entrySet())) {
            ShadowSession shadow = e.getValue();
            if (!left.contains(shadow.origin)) {
                continue;
            }
            shadows.remove(e.getKey());
            shadow.submit(() -> {
                try {
                    local.sessionEnded(shadow.state);
                } catch (SQLException ex) {
                    log.warn(
                            "controller group {}: rolling back a session of departed member {}: {}",
                            group,
                            shadow.origin,
                            ex.toString());
                } finally {
                    String tx = shadow.lastTx;
                    if (tx != null) {
                        runner.ended(tx);
                    }
                }
            });
            shadow.close();
        }
    }

    void close() {
        shadows.values().forEach(ShadowSession::close);
    }
}
