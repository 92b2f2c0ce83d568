package org.raidb.controller.group;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.raidb.controller.scheduler.Claim;
import org.raidb.controller.scheduler.ConflictClass;
import org.raidb.controller.scheduler.LockMode;
import org.raidb.driver.protocol.SqlStates;

/**
 * The conflict classes of a grouped virtual database, granted strictly in the group's delivery order.
 * Every controller enqueues the same writes with the same claims in the same order (the group's total
 * order), and a write is granted only when every entry ahead of it in each of its classes is
 * compatible with it or its own transaction's: so two conflicting writes run in the same order on every
 * controller's backends, however fast each controller is. The local scheduler behind it then never
 * sees two conflicting writers that this order has not already ordered.
 *
 * <p>Deadlocks are found when a write is enqueued, on the transactions' wait-for graph; the write that
 * closes a cycle is the victim (SQLState 40P01). A transaction in a cycle always waits, and a waiting
 * transaction has released nothing, so every controller finds the same cycle at the same write and
 * picks the same victim. There is no lock timeout: a timeout fires at different moments on different
 * controllers, which would abort a write on some and not on others.
 */
final class DeliveredOrder {
    /** One write's place in the queues: granted once nothing incompatible is ahead of it. */
    static final class Ticket {
        private final String tx;
        private final List<Step> steps;
        private boolean granted;
        private SQLException refused;
        private boolean victim;

        private Ticket(String tx, List<Step> steps) {
            this.tx = tx;
            this.steps = steps;
        }

        String transaction() {
            return tx;
        }

        /** Refused at delivery as a deadlock victim: its transaction ends there, on every member. */
        boolean refused() {
            return victim;
        }
    }

    private record Step(ConflictClass conflictClass, LockMode mode) {}

    private record Entry(Ticket ticket, LockMode mode) {}

    private final Map<ConflictClass, Deque<Entry>> queues = new HashMap<>();
    /**
     * Per class, its entries that are not intentions (IS, IX). A queue of intentions only blocks no one
     * (intentions are compatible with each other), and a table's queue is such a queue, as long as every
     * write on it holds one of its rows: its waiters need not be looked at one by one, which a backlog of
     * thousands of writes (a joiner's, or what a handover held) would make quadratic.
     */
    private final Map<ConflictClass, Integer> strong = new HashMap<>();
    /** Every transaction's tickets, granted or waiting, in the order they were enqueued. */
    private final Map<String, List<Ticket>> tickets = new LinkedHashMap<>();

    /**
     * Puts the write in its classes' queues, in delivery order. A write claiming nothing is granted at
     * once. A write that would close a deadlock is refused at once, on every controller alike.
     */
    synchronized Ticket enqueue(String tx, List<Claim> claims) {
        Ticket t = new Ticket(tx, steps(claims));
        if (t.steps.isEmpty()) {
            t.granted = true;
            return t;
        }
        for (Step s : t.steps) {
            queues.computeIfAbsent(s.conflictClass(), k -> new ArrayDeque<>()).addLast(new Entry(t, s.mode()));
            if (!intention(s.mode())) {
                strong.merge(s.conflictClass(), 1, Integer::sum);
            }
        }
        tickets.computeIfAbsent(tx, k -> new ArrayList<>()).add(t);
        if (grantable(t)) {
            t.granted = true;
        } else if (closesCycle(t)) {
            remove(t);
            t.victim = true;
            t.refused = new SQLException(
                    "deadlock detected in the controller group's write order: this transaction waited for a"
                            + " conflict class held by a transaction that waits for it; it was rolled back on every"
                            + " controller, run it again",
                    SqlStates.DEADLOCK_DETECTED);
        }
        return t;
    }

    /** Waits until the write may run; throws 40P01 for a deadlock victim. */
    synchronized void await(Ticket t) throws SQLException, InterruptedException {
        while (!t.granted && t.refused == null) {
            wait();
        }
        if (t.refused != null) {
            throw t.refused;
        }
    }

    /** Whether the write may run now (tests, and what an admin view would show). */
    synchronized boolean isGranted(Ticket t) {
        return t.granted;
    }

    /** An auto-commit write finished here: its classes go. */
    synchronized void done(Ticket t) {
        if (t.steps.isEmpty()) {
            return;
        }
        remove(t);
        List<Ticket> own = tickets.get(t.tx);
        if (own != null) {
            own.remove(t);
            if (own.isEmpty()) {
                tickets.remove(t.tx);
            }
        }
        regrant(List.of(t));
    }

    /** The transaction ended here: everything it holds or waits for goes. */
    synchronized void ended(String tx) {
        List<Ticket> own = tickets.remove(tx);
        if (own == null) {
            return;
        }
        for (Ticket t : own) {
            remove(t);
            if (!t.granted && t.refused == null) {
                t.refused =
                        new SQLException("the transaction ended while this write waited", SqlStates.DEADLOCK_DETECTED);
            }
        }
        regrant(own);
    }

    /** A transaction's writes in the queues: how many hold their classes, and whom the others wait for. */
    synchronized String describe(String tx) {
        List<Ticket> own = tickets.get(tx);
        if (own == null) {
            return "no write of it in the queues";
        }
        int granted = 0;
        Set<String> waitingFor = new HashSet<>();
        for (Ticket t : own) {
            if (t.granted) {
                granted++;
            } else {
                waitingFor.addAll(blockers(t));
            }
        }
        return granted + " write(s) holding their classes"
                + (waitingFor.isEmpty() ? "" : ", waiting for " + waitingFor);
    }

    /** Writes waiting for a class (admin view, tests). */
    synchronized int waiting() {
        int n = 0;
        for (List<Ticket> own : tickets.values()) {
            for (Ticket t : own) {
                if (!t.granted) {
                    n++;
                }
            }
        }
        return n;
    }

    private void remove(Ticket t) {
        for (Step s : t.steps) {
            Deque<Entry> q = queues.get(s.conflictClass());
            if (q != null && q.removeIf(e -> e.ticket() == t)) {
                if (!intention(s.mode())) {
                    strong.merge(s.conflictClass(), -1, Integer::sum);
                }
                if (q.isEmpty()) {
                    queues.remove(s.conflictClass());
                    strong.remove(s.conflictClass());
                }
            }
        }
    }

    private static boolean intention(LockMode m) {
        return m == LockMode.IS || m == LockMode.IX;
    }

    /**
     * Grants what became grantable once {@code removed} left their queues, and wakes the waiters (also
     * those ended() refused). Only a ticket in one of their classes' queues can have been waiting for them.
     */
    private void regrant(List<Ticket> removed) {
        Set<Ticket> candidates = new java.util.LinkedHashSet<>();
        for (Ticket r : removed) {
            for (Step s : r.steps) {
                for (Entry e : queues.getOrDefault(s.conflictClass(), EMPTY)) {
                    if (!e.ticket().granted && e.ticket().refused == null) {
                        candidates.add(e.ticket());
                    }
                }
            }
        }
        for (Ticket t : candidates) {
            if (grantable(t)) {
                t.granted = true;
            }
        }
        notifyAll();
    }

    private static final Deque<Entry> EMPTY = new ArrayDeque<>();

    private boolean grantable(Ticket t) {
        for (Step s : t.steps) {
            if (strong.getOrDefault(s.conflictClass(), 0) == 0) {
                continue;
            }
            for (Entry e : queues.get(s.conflictClass())) {
                if (e.ticket() == t) {
                    break;
                }
                if (!e.ticket().tx.equals(t.tx) && !e.mode().compatibleWith(s.mode())) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The transactions with an incompatible entry ahead of the ticket in one of its classes. */
    private Set<String> blockers(Ticket t) {
        Set<String> by = new HashSet<>();
        for (Step s : t.steps) {
            if (strong.getOrDefault(s.conflictClass(), 0) == 0) {
                continue; // intentions only: no one blocks there
            }
            for (Entry e : queues.get(s.conflictClass())) {
                if (e.ticket() == t) {
                    break;
                }
                if (!e.ticket().tx.equals(t.tx) && !e.mode().compatibleWith(s.mode())) {
                    by.add(e.ticket().tx);
                }
            }
        }
        return by;
    }

    /** Whether the ticket's transaction now waits, through others' waiting tickets, for itself. */
    private boolean closesCycle(Ticket t) {
        Deque<String> todo = new ArrayDeque<>(blockers(t));
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            String tx = todo.pop();
            if (tx.equals(t.tx)) {
                return true;
            }
            if (!seen.add(tx)) {
                continue;
            }
            for (Ticket w : tickets.getOrDefault(tx, List.of())) {
                if (!w.granted && w.refused == null) {
                    todo.addAll(blockers(w));
                }
            }
        }
        return false;
    }

    /** Each claim on its class, and the matching intention on every class above it. */
    private static List<Step> steps(List<Claim> claims) {
        Map<ConflictClass, LockMode> modes = new LinkedHashMap<>();
        for (Claim c : claims) {
            modes.merge(c.conflictClass(), c.mode(), DeliveredOrder::stronger);
            LockMode intention = c.mode() == LockMode.SHARED || c.mode() == LockMode.IS ? LockMode.IS : LockMode.IX;
            for (ConflictClass p = c.conflictClass().parent(); p != null; p = p.parent()) {
                modes.merge(p, intention, DeliveredOrder::stronger);
            }
        }
        List<Step> steps = new ArrayList<>(modes.size());
        modes.forEach((k, m) -> steps.add(new Step(k, m)));
        return steps;
    }

    /** The mode that covers both (SHARED and IX together are held as EXCLUSIVE: nothing else fits beside both). */
    private static LockMode stronger(LockMode a, LockMode b) {
        if (a == b) {
            return a;
        }
        if (a == LockMode.EXCLUSIVE || b == LockMode.EXCLUSIVE) {
            return LockMode.EXCLUSIVE;
        }
        if ((a == LockMode.SHARED && b == LockMode.IX) || (a == LockMode.IX && b == LockMode.SHARED)) {
            return LockMode.EXCLUSIVE;
        }
        if (a == LockMode.IS) {
            return b;
        }
        return b == LockMode.IS ? a : LockMode.EXCLUSIVE;
    }
}
