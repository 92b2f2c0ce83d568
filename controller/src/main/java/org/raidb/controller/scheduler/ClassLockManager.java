package org.raidb.controller.scheduler;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.raidb.driver.protocol.SqlStates;

/**
 * The conflict classes ({@link ConflictClass}) of one virtual database, held by transactions (an
 * auto-commit statement is a transaction of one statement). Two writes that claim one class in
 * incompatible modes are thereby applied in the same order on every backend: the second is not sent
 * before the first's transaction has finished everywhere. Classes form a tree; a claim also takes
 * the matching intention ({@link LockMode}) on every class above it, so a whole table meets each of
 * its rows and two rows meet only when they are one.
 *
 * <p>Deadlocks are found on the wait-for graph when a transaction starts to wait and whenever the
 * graph changes. The victim is the youngest transaction of the cycle that waits here, by priority
 * stamp (the smaller, the older): a session's retry of a victim keeps the victim's stamp, so it ages
 * instead of coming back youngest and losing again. A victim other than the transaction that found
 * the cycle is waiting here too: it is marked, woken and gets SQLState 40P01 from its own wait, as
 * PostgreSQL's own victims do, so that applications retry both alike (a retry keeps the age whatever
 * the victim's state: {@code SessionState#transactionEnded}). A
 * member of a cycle that waits on a backend (below) is not waiting here and cannot be told; it is
 * never chosen. With the query scheduler, classes last one statement while the backends keep the
 * transaction's row locks, so a transaction whose statement holds a class is also taken to wait for
 * every other open transaction that has written that class: that is where the backends may make it
 * wait.
 *
 * <p>One monitor guards everything: lock operations are a few map lookups, far cheaper than the
 * backend round trip they order.
 */
public final class ClassLockManager {
    /**
     * A cycle through a backend wait is only a suspicion (the statement may be running, not blocked): it
     * must persist this long before a victim is chosen, which a statement that is merely slow outlives.
     */
    static final long BACKEND_WAIT_GRACE_MILLIS = 300;

    private static final LockMode[] MODES = LockMode.values();

    private final Map<ConflictClass, Holders> classes = new HashMap<>();
    /** The classes each transaction holds in some mode, intentions included. */
    private final Map<Long, Set<ConflictClass>> heldBy = new HashMap<>();

    private final Map<Long, Set<Long>> waitsFor = new HashMap<>();
    /** The priority stamp of each waiting transaction: the smaller, the older. */
    private final Map<Long, Long> stamps = new HashMap<>();
    /**
     * Waiting transactions chosen as victims by another's wait, not yet woken to hear it, each with the
     * cycle that made it one.
     */
    private final Map<Long, List<Long>> victims = new HashMap<>();
    /**
     * Waiting requests in arrival order. A transaction that holds nothing yet queues behind earlier
     * waiters it conflicts with, so that a stream of newcomers cannot starve a waiter; one that already
     * holds classes is not made to queue, which would only add waits that can close cycles.
     */
    private final LinkedHashMap<Long, Map<ConflictClass, EnumSet<LockMode>>> queue = new LinkedHashMap<>();
    /** Query scheduler: open transactions that wrote each class (their row locks stay on the backends). */
    private final Map<ConflictClass, Set<Long>> writers = new HashMap<>();

    private final Map<Long, Set<ConflictClass>> writtenBy = new HashMap<>();
    private final boolean backendsHoldRowLocks;
    private final long timeoutMillis;

    /** Who holds one class, and how: counts per mode, in all and per transaction. */
    private static final class Holders {
        final ModeCounts total = new ModeCounts();
        final Map<Long, ModeCounts> byTransaction = new HashMap<>(4);
    }

    /** How many holds of a class there are in each mode: one per statement that claimed it or a class below. */
    private static final class ModeCounts {
        private int intentionShared;
        private int intentionExclusive;
        private int shared;
        private int exclusive;

        int get(LockMode mode) {
            return switch (mode) {
                case IS -> intentionShared;
                case IX -> intentionExclusive;
                case SHARED -> shared;
                case EXCLUSIVE -> exclusive;
            };
        }

        void add(LockMode mode, int n) {
            switch (mode) {
                case IS -> intentionShared += n;
                case IX -> intentionExclusive += n;
                case SHARED -> shared += n;
                case EXCLUSIVE -> exclusive += n;
            }
        }

        void subtract(ModeCounts other) {
            intentionShared -= other.intentionShared;
            intentionExclusive -= other.intentionExclusive;
            shared -= other.shared;
            exclusive -= other.exclusive;
        }

        boolean isEmpty() {
            return intentionShared == 0 && intentionExclusive == 0 && shared == 0 && exclusive == 0;
        }
    }

    /** One class in one mode: a claim itself, or an intention it puts above its class. */
    private record Step(ConflictClass conflictClass, LockMode mode, Claim claim) {}

    /** Why a request cannot be granted yet: the transactions in its way, and a claim of it they block. */
    private record Blocked(Set<Long> by, Claim claim, ConflictClass at) {}

    public ClassLockManager(boolean backendsHoldRowLocks, long timeoutMillis) {
        this.backendsHoldRowLocks = backendsHoldRowLocks;
        this.timeoutMillis = timeoutMillis;
    }

    /** Takes every claim for a transaction whose priority stamp is its own id (a fresh one). */
    public void acquire(long tx, List<Claim> claims) throws SQLException {
        acquire(tx, tx, claims);
    }

    /**
     * Takes every claim for the transaction, waiting as needed. What the transaction already holds is
     * kept; the claims are taken all at once, never partly, so that a waiting transaction holds nothing
     * it is waiting to complete.
     *
     * @param stamp the transaction's priority stamp: in a deadlock, the transaction with the largest is
     *     the victim
     */
    public synchronized void acquire(long tx, long stamp, List<Claim> claims) throws SQLException {
        if (claims.isEmpty()) {
            return;
        }
        List<Step> steps = steps(claims);
        long startedAt = System.nanoTime();
        long deadline = startedAt + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        long suspectedSince = 0;
        boolean newcomer = !heldBy.containsKey(tx);
        boolean waited = false;
        try {
            while (true) {
                Blocked blocked = blockers(tx, steps);
                if (newcomer) {
                    blocked = earlierWaiters(tx, steps, blocked);
                }
                List<Long> victimOf = victims.remove(tx);
                if (victimOf != null) {
                    stopWaiting(tx);
                    counts.deadlocks++;
                    throw deadlock(
                            tx,
                            victimOf,
                            blocked.claim == null
                                    ? claims.get(0).conflictClass().describe() + ","
                                    : what(blocked));
                }
                if (blocked.by.isEmpty()) {
                    stopWaiting(tx);
                    grant(tx, steps); // stopWaiting woke the waiters: the graph changed, they re-check for cycles
                    return;
                }
                waitsFor.put(tx, blocked.by);
                stamps.put(tx, stamp);
                queue.computeIfAbsent(tx, k -> wanted(steps));
                List<Long> cycle = cycle(tx, blocked.by, false);
                boolean certain = cycle != null;
                if (!certain && backendsHoldRowLocks) {
                    cycle = cycle(tx, blocked.by, true);
                }
                boolean suspected = !certain && cycle != null;
                long now = System.nanoTime();
                if (!suspected) {
                    suspectedSince = 0;
                } else if (suspectedSince == 0) {
                    suspectedSince = now;
                }
                if (certain
                        || (suspected
                                && now - suspectedSince >= TimeUnit.MILLISECONDS.toNanos(BACKEND_WAIT_GRACE_MILLIS))) {
                    long victim = youngestWaiting(cycle);
                    if (victim == tx) {
                        stopWaiting(tx);
                        counts.deadlocks++;
                        throw deadlock(tx, cycle, what(blocked));
                    }
                    // The victim waits here for a class of its own: it is told there, and its rollback frees what
                    // it holds for this transaction, which goes on waiting. Out of the graph at once, so that no
                    // other waiter picks a second victim for the same cycle.
                    victims.put(victim, cycle);
                    stopWaiting(victim);
                    suspectedSince = 0;
                    continue;
                }
                if (deadline - now <= 0) {
                    stopWaiting(tx);
                    counts.timeouts++;
                    throw new SQLException(
                            "waited " + timeoutMillis + " ms for " + what(blocked) + " held by another transaction;"
                                    + " retry, keep write transactions short, or raise the scheduler's lockTimeout",
                            SqlStates.LOCK_NOT_AVAILABLE);
                }
                long left = deadline - System.nanoTime();
                if (suspected) {
                    left = Math.min(left, TimeUnit.MILLISECONDS.toNanos(BACKEND_WAIT_GRACE_MILLIS) / 3 + 1);
                }
                if (left > 0) {
                    waited = true;
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                }
            }
        } catch (InterruptedException e) {
            victims.remove(tx);
            stopWaiting(tx);
            Thread.currentThread().interrupt();
            throw new SQLException(
                    "interrupted while waiting for "
                            + claims.get(0).conflictClass().describe(),
                    SqlStates.QUERY_CANCELED);
        } finally {
            if (waited) {
                counts.waits++;
                counts.waitNanos += System.nanoTime() - startedAt;
            }
        }
    }

    /**
     * Releases one statement's hold on the given claims (taken by {@link #acquire} with the same
     * claims); a class goes when nothing of the transaction holds it any more.
     */
    public synchronized void release(long tx, List<Claim> claims) {
        Set<ConflictClass> mine = heldBy.get(tx);
        if (mine == null) {
            return;
        }
        for (Step s : steps(claims)) {
            Holders h = classes.get(s.conflictClass);
            ModeCounts own = h == null ? null : h.byTransaction.get(tx);
            if (own == null || own.get(s.mode) == 0) {
                continue;
            }
            own.add(s.mode, -1);
            h.total.add(s.mode, -1);
            if (own.isEmpty()) {
                h.byTransaction.remove(tx);
                mine.remove(s.conflictClass);
                if (h.byTransaction.isEmpty()) {
                    classes.remove(s.conflictClass);
                }
            }
        }
        if (mine.isEmpty()) {
            heldBy.remove(tx);
        }
        notifyAll();
    }

    /** Releases everything of a transaction that ended (committed or rolled back on every backend). */
    public synchronized void releaseAll(long tx) {
        Set<ConflictClass> mine = heldBy.remove(tx);
        if (mine != null) {
            for (ConflictClass c : mine) {
                Holders h = classes.get(c);
                h.total.subtract(h.byTransaction.remove(tx));
                if (h.byTransaction.isEmpty()) {
                    classes.remove(c);
                }
            }
        }
        Set<ConflictClass> written = writtenBy.remove(tx);
        if (written != null) {
            for (ConflictClass c : written) {
                Set<Long> w = writers.get(c);
                if (w != null && w.remove(tx) && w.isEmpty()) {
                    writers.remove(c);
                }
            }
        }
        victims.remove(tx);
        stopWaiting(tx);
    }

    /** Records that an open transaction has written these classes (query scheduler bookkeeping). */
    public synchronized void wrote(long tx, Collection<ConflictClass> written) {
        if (!backendsHoldRowLocks) {
            return;
        }
        for (ConflictClass c : written) {
            writers.computeIfAbsent(c, k -> new HashSet<>()).add(tx);
            writtenBy.computeIfAbsent(tx, k -> new HashSet<>()).add(c);
        }
    }

    /**
     * Waits so far, for the metrics: read under this manager's lock, counted only by writes that had to
     * wait, so a write that finds its classes free pays nothing for them.
     */
    private final WaitCounts counts = new WaitCounts();

    /** What the waits for conflict classes came to since the virtual database started. */
    public synchronized WaitCounts.Snapshot waitCounts() {
        return counts.snapshot();
    }

    /** Transactions waiting for a class right now. */
    public synchronized int waiting() {
        return waitsFor.size();
    }

    /** The classes the transaction holds shared or exclusive (not those it only holds an intention on). */
    public synchronized Set<ConflictClass> held(long tx) {
        Set<ConflictClass> out = new HashSet<>();
        for (ConflictClass c : heldBy.getOrDefault(tx, Set.of())) {
            if (holdsItself(classes.get(c).byTransaction.get(tx))) {
                out.add(c);
            }
        }
        return out;
    }

    /** Whether the transaction holds no class in any mode. */
    public synchronized boolean holdsNothing(long tx) {
        return !heldBy.containsKey(tx);
    }

    private void stopWaiting(long tx) {
        waitsFor.remove(tx);
        stamps.remove(tx);
        queue.remove(tx);
        notifyAll();
    }

    /**
     * The victim's error: 40P01, as PostgreSQL gives its own deadlock victims, naming what the victim
     * waited for and the transaction of the cycle it waited for.
     *
     * @param cycle as {@link #cycle} returns it: each transaction waits for the one before it, the first for the last
     */
    private static SQLException deadlock(long victim, List<Long> cycle, String what) {
        int at = cycle.indexOf(victim);
        long waitedFor = cycle.get((at + cycle.size() - 1) % cycle.size());
        int between = cycle.size() - 2;
        return new SQLException(
                "deadlock detected by the controller: this transaction waited for " + what
                        + " held by a transaction that waits for it (transaction " + waitedFor
                        + (between == 0 ? "" : ", through " + between + (between == 1 ? " other" : " others"))
                        + "); it was rolled back on every backend: run the transaction again",
                SqlStates.DEADLOCK_DETECTED);
    }

    /** The youngest of the cycle's transactions that wait here: the largest stamp, then the largest id. */
    private long youngestWaiting(List<Long> cycle) {
        long victim = 0;
        long victimStamp = Long.MIN_VALUE;
        for (long t : cycle) {
            Long stamp = stamps.get(t);
            if (stamp == null) {
                continue; // waits on a backend, not here
            }
            if (stamp > victimStamp || (stamp == victimStamp && t > victim)) {
                victim = t;
                victimStamp = stamp;
            }
        }
        return victim;
    }

    private static List<Step> steps(List<Claim> claims) {
        List<Step> out = new ArrayList<>(claims.size() * 3);
        for (Claim c : claims) {
            out.add(new Step(c.conflictClass(), c.mode(), c));
            LockMode intention = c.mode().intention();
            for (ConflictClass above = c.conflictClass().parent(); above != null; above = above.parent()) {
                out.add(new Step(above, intention, c));
            }
        }
        return out;
    }

    private void grant(long tx, List<Step> steps) {
        Set<ConflictClass> mine = heldBy.computeIfAbsent(tx, k -> new HashSet<>());
        for (Step s : steps) {
            Holders h = classes.computeIfAbsent(s.conflictClass, k -> new Holders());
            h.total.add(s.mode, 1);
            h.byTransaction.computeIfAbsent(tx, k -> new ModeCounts()).add(s.mode, 1);
            mine.add(s.conflictClass);
        }
    }

    /** The other transactions holding a class of the request in a mode incompatible with it. */
    private Blocked blockers(long tx, List<Step> steps) {
        Set<Long> by = new HashSet<>();
        Step first = null;
        for (Step s : steps) {
            Holders h = classes.get(s.conflictClass);
            if (h == null) {
                continue;
            }
            ModeCounts own = h.byTransaction.get(tx);
            for (LockMode held : MODES) {
                if (h.total.get(held) - (own == null ? 0 : own.get(held)) > 0 && !s.mode.compatibleWith(held)) {
                    for (Map.Entry<Long, ModeCounts> e : h.byTransaction.entrySet()) {
                        if (e.getKey() != tx && e.getValue().get(held) > 0) {
                            by.add(e.getKey());
                        }
                    }
                    if (first == null) {
                        first = s;
                    }
                }
            }
        }
        return first == null ? new Blocked(by, null, null) : new Blocked(by, first.claim, first.conflictClass);
    }

    /** Adds the transactions queued before {@code tx} whose requests conflict with its own. */
    private Blocked earlierWaiters(long tx, List<Step> steps, Blocked blocked) {
        Set<Long> by = blocked.by;
        Step first = null;
        for (Map.Entry<Long, Map<ConflictClass, EnumSet<LockMode>>> w : queue.entrySet()) {
            if (w.getKey() == tx) {
                break;
            }
            for (Step s : steps) {
                EnumSet<LockMode> theirs = w.getValue().get(s.conflictClass);
                if (theirs != null && theirs.stream().anyMatch(m -> !s.mode.compatibleWith(m))) {
                    by.add(w.getKey());
                    if (first == null) {
                        first = s;
                    }
                    break;
                }
            }
        }
        return blocked.claim != null || first == null ? blocked : new Blocked(by, first.claim, first.conflictClass);
    }

    private static Map<ConflictClass, EnumSet<LockMode>> wanted(List<Step> steps) {
        Map<ConflictClass, EnumSet<LockMode>> out = new HashMap<>();
        for (Step s : steps) {
            out.computeIfAbsent(s.conflictClass, k -> EnumSet.noneOf(LockMode.class))
                    .add(s.mode);
        }
        return out;
    }

    /** "row (id)=(1) of table r,", or "row (id)=(1) of table r, within table r" when a class above it is what is held. */
    private static String what(Blocked blocked) {
        String claimed = blocked.claim.conflictClass().describe() + ",";
        return blocked.at.equals(blocked.claim.conflictClass())
                ? claimed
                : claimed + " within " + blocked.at.describe();
    }

    /** Whether these holds (null for none) take the class shared or exclusive, not only as an intention. */
    private static boolean holdsItself(ModeCounts counts) {
        return counts != null && (counts.get(LockMode.SHARED) > 0 || counts.get(LockMode.EXCLUSIVE) > 0);
    }

    /**
     * The transactions of a wait-for cycle through {@code tx}, which waits for {@code start} ({@code tx}
     * included), or null for none; counting waits on the backends ({@link #backendWaits}) when asked. A
     * shortest cycle, found breadth first.
     */
    private List<Long> cycle(long tx, Set<Long> start, boolean withBackendWaits) {
        Map<Long, Long> cameFrom = new HashMap<>();
        Deque<Long> todo = new ArrayDeque<>();
        for (Long n : start) {
            if (cameFrom.putIfAbsent(n, tx) == null) {
                todo.add(n);
            }
        }
        while (!todo.isEmpty()) {
            long n = todo.poll();
            if (victims.containsKey(n)) {
                continue; // told to go: its rollback ends its part of any cycle
            }
            if (n == tx) {
                List<Long> out = new ArrayList<>();
                for (long t = cameFrom.get(tx); t != tx; t = cameFrom.get(t)) {
                    out.add(t);
                }
                out.add(tx);
                return out;
            }
            List<Long> next = new ArrayList<>(waitsFor.getOrDefault(n, Set.of()));
            if (withBackendWaits) {
                next.addAll(backendWaits(n));
            }
            for (Long m : next) {
                if (cameFrom.putIfAbsent(m, n) == null) {
                    todo.add(m);
                }
            }
        }
        return null;
    }

    /** The transactions a statement of {@code tx} may wait for on the backends: other open writers of its classes. */
    private Set<Long> backendWaits(long tx) {
        Set<Long> out = new HashSet<>();
        for (ConflictClass c : heldBy.getOrDefault(tx, Set.of())) {
            if (!holdsItself(classes.get(c).byTransaction.get(tx))) {
                continue;
            }
            Collection<Long> w =
                    c.equals(ConflictClass.EVERYTHING) ? writtenBy.keySet() : writers.getOrDefault(c, Set.of());
            for (Long other : w) {
                if (other != tx) {
                    out.add(other);
                }
            }
        }
        return out;
    }
}
