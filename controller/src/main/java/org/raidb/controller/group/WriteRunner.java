package org.raidb.controller.group;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.request.ExecuteRequest;
import org.raidb.controller.request.StatementResult;
import org.raidb.controller.scheduler.Claim;
import org.raidb.controller.scheduler.ConflictClass;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.BatchFrame;
import org.raidb.driver.protocol.SqlStates;

/**
 * How every member runs a delivered write: its place in {@link DeliveredOrder} at delivery, then, on
 * the thread of the session it belongs to, the wait for its conflict classes and the run through this
 * controller's request path, and the classes given back as its statement or transaction ends.
 */
final class WriteRunner {
    static final StatementResult NOTHING = new StatementResult(List.of(), null);

    private final VirtualDatabase vdb;
    private final LocalRequests local;
    private final DeliveredOrder order = new DeliveredOrder();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong applied = new AtomicLong();
    /** Who hears that a group transaction ended here (the catch-up barrier). */
    private volatile Consumer<String> transactionEnded = tx -> {};
    /** Writes enqueued here that have not finished (run or dropped). */
    private long unfinished;

    WriteRunner(VirtualDatabase vdb, LocalRequests local) {
        this.vdb = vdb;
        this.local = local;
    }

    /**
     * Tells {@code listener} of each group transaction that ends here as it runs: committed, rolled back,
     * or ended by an error its backends gave.
     */
    void onTransactionEnd(Consumer<String> listener) {
        this.transactionEnded = listener;
    }

    /** At delivery, in the group's order: the write takes its place in its conflict classes' queues. */
    DeliveredOrder.Ticket enqueue(GroupMessage.Write w) {
        delivered.incrementAndGet();
        started();
        return order.enqueue(w.tx(), claims(w));
    }

    /** A delivered write that will not run here after all: its place in the queues goes. */
    void drop(DeliveredOrder.Ticket ticket) {
        order.done(ticket);
        finished();
    }

    private synchronized void started() {
        unfinished++;
    }

    private synchronized void finished() {
        unfinished--;
        if (unfinished == 0) {
            notifyAll();
        }
    }

    /** Waits until every write delivered so far has finished here; false when the time ran out first. */
    synchronized boolean awaitIdle(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (unfinished > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /** What a departed member's transaction held here goes, once its rollback has run. */
    void ended(String tx) {
        order.ended(tx);
        transactionEnded.accept(tx);
    }

    /**
     * Runs a delivered write here once its conflict classes are granted, then gives them back as its
     * transaction (or its auto-commit statement) ends. A deadlock victim's transaction is rolled back.
     */
    StatementResult run(SessionState s, GroupMessage.Write w, DeliveredOrder.Ticket ticket) throws SQLException {
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
                transactionEnded.accept(w.tx());
            }
            applied.incrementAndGet();
            finished();
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

    /** Writes delivered here since this controller joined. */
    long delivered() {
        return delivered.get();
    }

    /** Writes this controller has finished on its backends. */
    long applied() {
        return applied.get();
    }

    /** How a group transaction stands in this member's queues (a catch-up that waited for it says so). */
    String describe(String tx) {
        return order.describe(tx);
    }

    int waiting() {
        return order.waiting();
    }

    /** The outcome members compare: update counts and row counts, or the error's SQLState. */
    static String outcomeOf(StatementResult result) {
        return result.signature();
    }

    static String outcomeOf(SQLException e) {
        return "error " + e.getSQLState();
    }
}
