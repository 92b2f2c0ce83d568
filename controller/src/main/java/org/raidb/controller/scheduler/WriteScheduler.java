package org.raidb.controller.scheduler;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides when a write may be sent to the backends and numbers the writes. A write comes with the
 * conflict classes it claims (rows, unique values, sequences, tables: see the {@code keys} package);
 * the scheduler type decides how fine they stay and how long they last, and {@link ClassLockManager}
 * does the waiting and finds deadlocks.
 */
public final class WriteScheduler {
    private static final List<Claim> EVERYTHING = List.of(Claim.exclusive(ConflictClass.EVERYTHING));

    private final SchedulerType type;
    private final ClassLockManager locks;
    private final AtomicLong position = new AtomicLong();
    private final long lockTimeoutMillis;

    public WriteScheduler(SchedulerType type, long lockTimeoutMillis) {
        this.type = type;
        this.lockTimeoutMillis = lockTimeoutMillis;
        this.locks = new ClassLockManager(type == SchedulerType.QUERY, lockTimeoutMillis);
    }

    public SchedulerType type() {
        return type;
    }

    /** The longest a write waits for others (for its conflict classes, or for a busy backend's connection). */
    public long lockTimeoutMillis() {
        return lockTimeoutMillis;
    }

    /**
     * Waits until the write may be sent and returns the claims taken that must be released when the
     * statement has finished on every backend (empty when they last until the transaction ends). A
     * write claiming nothing (a session setting) is not held up at all. Claims worked out before a
     * wait are worked out again after it when DDL changed what they came from meanwhile: the write
     * then gives back what this statement took and waits for the new claims instead.
     *
     * @param owner the transaction id, or a fresh id for an auto-commit statement
     * @param stamp the owner's priority stamp, its age in a deadlock: the younger (larger) is the victim.
     *     A session keeps the stamp of a victim for its retry ({@code SessionState#priorityStamp}).
     * @param inTransaction whether the owner is a transaction that goes on after this statement
     */
    public List<Claim> admit(long owner, long stamp, boolean inTransaction, ClaimSource source) throws SQLException {
        List<Claim> wanted = wanted(source.claims());
        while (!wanted.isEmpty()) {
            locks.acquire(owner, stamp, wanted);
            List<Claim> again = source.changed() ? wanted(source.claims()) : wanted;
            if (again.equals(wanted)) {
                break;
            }
            locks.release(owner, wanted); // this statement's hold only: what the transaction held before stays
            wanted = again;
        }
        if (wanted.isEmpty()) {
            return List.of();
        }
        position.incrementAndGet();
        if (!inTransaction) {
            return wanted;
        }
        if (type == SchedulerType.QUERY) {
            locks.wrote(owner, wanted.stream().map(Claim::conflictClass).toList());
            return wanted; // one hold per statement, released when it finished everywhere
        }
        return List.of();
    }

    /** What the scheduler type makes of a write's claims. */
    private List<Claim> wanted(List<Claim> claims) {
        if (claims.isEmpty()) {
            return List.of();
        }
        return switch (type) {
            case PESSIMISTIC_TRANSACTION -> EVERYTHING;
            case QUERY -> tableLevel(claims);
            case OPTIMISTIC_TRANSACTION -> claims;
        };
    }

    /** The statement finished on every backend: its statement-scoped claims go (query scheduler, auto-commit). */
    public void statementDone(long owner, boolean inTransaction, List<Claim> statementClaims) {
        if (!inTransaction) {
            locks.releaseAll(owner);
        } else if (!statementClaims.isEmpty()) {
            locks.release(owner, statementClaims);
        }
    }

    /** The transaction committed or rolled back on every backend. */
    public void transactionDone(long tx) {
        locks.releaseAll(tx);
    }

    /** The number of writes admitted so far: where a backend disabled now stopped in the write order. */
    public long position() {
        return position.get();
    }

    /** Whether the transaction holds no conflict class (it has not written through the scheduler yet). */
    public boolean holdsNothing(long tx) {
        return locks.holdsNothing(tx);
    }

    /** What waiting for conflict classes has cost so far (the metrics). */
    public WaitCounts.Snapshot waitCounts() {
        return locks.waitCounts();
    }

    /** Writes waiting for a conflict class right now (admin view, tests). */
    public int waitingWrites() {
        return locks.waiting();
    }

    /**
     * The query scheduler's classes: whole tables, each exclusive, as before key classes existed; the
     * backends' own row locks order what is finer. Sequences stay sequences.
     */
    static List<Claim> tableLevel(List<Claim> claims) {
        Set<ConflictClass> tables = new LinkedHashSet<>();
        claims.forEach(c -> tables.add(c.conflictClass().tableLevel()));
        List<Claim> out = new ArrayList<>(tables.size());
        tables.forEach(t -> out.add(Claim.exclusive(t)));
        return out;
    }
}
