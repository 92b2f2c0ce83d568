package org.raidb.controller.group;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Where a joining controller's copy of the group's data is cut. The joiner's {@link
 * GroupMessage.CatchUpAsk} is the barrier B in the total order. The transactions open at B go on to
 * their end; every other write delivered from B on is held (not put in the queues) until the last of
 * them has ended here (the cut). On every member the held writes then reach the queues in delivery
 * order, after every write of the transactions open at B: one order everywhere, whenever each member
 * reaches its cut. The other members run what they held at once; the donor (the first member that is
 * neither joining nor catching up) first waits for its backends to finish every write before the cut,
 * takes a snapshot of them, and only then runs what it held ({@link CatchUpDonor}): its snapshot holds
 * every write delivered before B and every write of the transactions open at B, and nothing else. So
 * the writes stop only while the transactions open at B end. The joiner loads the donor's dumps and
 * runs, in delivery order, every write from B on that does not belong to a transaction open at B: what
 * the donor ran after its snapshot, in the same order.
 *
 * <p>A transaction is open from a write outside auto-commit mode until its commit, rollback or session
 * end is delivered, its refusal as a deadlock victim, its origin leaving, or its end as it ran here
 * (an error its backends gave ends it too).
 */
final class CatchUpBarrier {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(CatchUpBarrier.class);

    /** What the barrier asks of the member it runs in. */
    interface Member {
        /** Puts a delivered write in the group's queues and starts it; returns its ticket. */
        DeliveredOrder.Ticket runNow(GroupMessage.Write w);

        /** This member is the donor: snapshot, then {@link #release}, then ship the dumps. */
        void donate(GroupMessage.CatchUpAsk ask, long position, Set<String> openAtBarrier);

        /** Whether {@code member} said it is stale ({@link GroupHistory}): its backends may lack writes. */
        boolean stale(String member);
    }

    private final Member member;
    private final Supplier<String> self; // known once connected
    private final String group;
    private final Map<String, String> openTransactions = new HashMap<>(); // tx → origin
    /** Members catching up: the completion policy does not wait for them. */
    private final Set<String> catchingUp = ConcurrentHashMap.newKeySet();

    /** The joiner being caught up, or null. */
    private String joiner;
    /** Transactions open at the barrier that have not ended yet; null once Q is passed (or no barrier). */
    private Set<String> waitingFor;

    private boolean donorHolds;
    /** When the barrier was delivered here, for the log's account of how long writes were held. */
    private long barrierAt;

    private final List<GroupMessage.Write> held = new ArrayList<>();

    CatchUpBarrier(Member member, Supplier<String> self, String group) {
        this.member = member;
        this.self = self;
        this.group = group;
    }

    /** Members whose answers to writes are not waited for: they are catching up. */
    Set<String> catchingUp() {
        return catchingUp;
    }

    /** A delivered write, numbered: it runs now, or is held until the barrier's cut. */
    synchronized void admit(GroupMessage.Write w) {
        if (waitingFor != null) {
            if (waitingFor.contains(w.tx())) {
                runAndTrack(w);
                if (!openTransactions.containsKey(w.tx())) {
                    waitingFor.remove(w.tx());
                    if (waitingFor.isEmpty()) {
                        cut();
                    }
                }
            } else {
                held.add(w);
            }
        } else if (donorHolds) {
            held.add(w);
        } else {
            runAndTrack(w);
        }
    }

    private void runAndTrack(GroupMessage.Write w) {
        DeliveredOrder.Ticket ticket = member.runNow(w);
        boolean ends = ticket.refused()
                || w.op() == GroupMessage.Op.COMMIT
                || w.op() == GroupMessage.Op.ROLLBACK
                || w.op() == GroupMessage.Op.END_SESSION;
        if (ends) {
            openTransactions.remove(w.tx());
        } else if (!w.autoCommit()) {
            openTransactions.put(w.tx(), w.origin());
        }
    }

    /**
     * A transaction ended here as it ran (committed, rolled back, or ended by its backends' error):
     * what the cut waits for. Members may see this at different moments; the writes they hold still
     * reach their queues in one order (after every write of the transactions open at the barrier, in
     * delivery order among themselves), so the moment does not matter.
     */
    synchronized void ended(String tx) {
        openTransactions.remove(tx);
        if (waitingFor != null && waitingFor.remove(tx) && waitingFor.isEmpty()) {
            cut();
        }
    }

    /** A joiner's barrier, delivered. */
    synchronized void asked(GroupMessage.CatchUpAsk ask, List<String> view, long position, Runnable refuse) {
        if (ask.joiner().equals(self.get())) {
            return;
        }
        if (joiner != null) {
            refuse.run(); // one catch-up at a time; the donor tells the second joiner to try again
            return;
        }
        joiner = ask.joiner();
        barrierAt = System.nanoTime();
        catchingUp.add(joiner);
        waitingFor = new HashSet<>(openTransactions.keySet());
        String donor = donor(view);
        donorHolds = self.get().equals(donor);
        log.info(
                "controller group {}: {} catches up from {} at position {}; {} transaction(s) open here end first",
                group,
                joiner,
                donor,
                position,
                waitingFor.size());
        if (donorHolds) {
            member.donate(ask, position, Set.copyOf(waitingFor));
        }
        if (waitingFor.isEmpty()) {
            cut();
        }
    }

    /**
     * The member that gives its backends' contents: the first that is neither joining, catching up nor
     * stale.
     */
    String donor(List<String> view) {
        for (String m : view) {
            if (!catchingUp.contains(m) && !member.stale(m)) {
                return m;
            }
        }
        return null;
    }

    /** Q: the transactions open at the barrier have ended. */
    private void cut() {
        waitingFor = null;
        log.info(
                "controller group {}: the transactions open at {}'s barrier ended after {} ms; {} write(s) held here"
                        + " meanwhile{}",
                group,
                joiner,
                java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - barrierAt),
                held.size(),
                donorHolds ? " (this member, the donor, holds them until its snapshot is taken)" : "");
        if (!donorHolds) {
            runHeld();
        } else {
            notifyAll(); // the donor's thread waits for the cut
        }
    }

    /**
     * On the donor: waits until the cut is reached; false when the catch-up was given up or the time ran
     * out first (then the barrier still holds, until the donor's {@link GroupMessage.CatchUpAbort} is
     * delivered, at one place of the order for every member).
     */
    synchronized boolean awaitCut(String forJoiner, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (waitingFor != null && forJoiner.equals(joiner)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return forJoiner.equals(joiner) && donorHolds;
    }

    /** On the donor, once its snapshot is taken: what it held runs. */
    synchronized void release() {
        donorHolds = false;
        runHeld();
    }

    private void runHeld() {
        List<GroupMessage.Write> release = List.copyOf(held);
        held.clear();
        release.forEach(this::runAndTrack);
    }

    /** The transactions of members that left end here; so does a catch-up whose joiner left. */
    synchronized void originsLeft(List<String> left) {
        openTransactions.values().removeIf(left::contains);
        if (waitingFor != null) {
            waitingFor.removeIf(tx -> !openTransactions.containsKey(tx));
        }
        for (String m : left) {
            catchingUp.remove(m);
        }
        if (joiner != null && left.contains(joiner)) {
            end(joiner, "it left the group");
        } else if (waitingFor != null && waitingFor.isEmpty()) {
            cut();
        }
    }

    /** The catch-up was given up (delivered in the order: every member ends its hold here). */
    synchronized void aborted(GroupMessage.CatchUpAbort a) {
        catchingUp.remove(a.joiner());
        if (a.joiner().equals(joiner)) {
            end(a.joiner(), a.reason());
        }
    }

    /** The joiner runs the writes after the barrier itself now. */
    synchronized void caughtUp(GroupMessage.CaughtUp c) {
        catchingUp.remove(c.joiner());
        if (c.joiner().equals(joiner)) {
            joiner = null;
        }
    }

    private void end(String who, String reason) {
        log.warn("controller group {}: catch-up of {} given up: {}", group, who, reason);
        joiner = null;
        waitingFor = null;
        donorHolds = false;
        runHeld();
        notifyAll();
    }

    /** Whether the barrier for {@code forJoiner} still waits for transactions open at it (the donor's timeout). */
    synchronized boolean waiting(String forJoiner) {
        return forJoiner.equals(joiner) && waitingFor != null;
    }

    /** The transactions open at the barrier that have not ended, for the donor's message when it gives up. */
    synchronized List<String> stillOpen() {
        return waitingFor == null ? List.of() : List.copyOf(waitingFor);
    }
}
