package org.raidb.controller.group;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The answers of the group's members to one write its origin sent: how many have applied it (the
 * completion policy waits for enough of them) and what each got, which must agree. A member that
 * leaves the view is no longer waited for.
 */
final class Acks {
    private final Set<String> expected;
    private final Map<String, String> outcomes = new LinkedHashMap<>();
    private final String self;

    /** @param members the view's members when the write was sent, this one included */
    Acks(String self, Collection<String> members) {
        this.self = self;
        this.expected = new LinkedHashSet<>(members);
    }

    synchronized void answered(String member, String outcome) {
        if (expected.contains(member)) {
            outcomes.put(member, outcome);
            notifyAll();
        }
    }

    /** A member that is catching up: its answer is not waited for. */
    synchronized void excused(String member) {
        if (!member.equals(self)) {
            expected.remove(member);
            outcomes.remove(member);
            notifyAll();
        }
    }

    /** Members that left the view: their answers can no longer come. */
    synchronized void stayed(Collection<String> members) {
        expected.retainAll(members);
        expected.add(self);
        outcomes.keySet().retainAll(expected);
        notifyAll();
    }

    /**
     * Waits until {@code policy} holds (this member's own answer counted once it is in), or until the
     * deadline; returns whether it held.
     */
    synchronized boolean await(org.raidb.controller.config.GroupConfig.Completion policy, long timeoutMillis)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (outcomes.size() < Math.min(policy.required(expected.size()), expected.size())) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    synchronized boolean complete() {
        return outcomes.keySet().containsAll(expected);
    }

    /**
     * Once every member answered: those whose outcome differs from the majority's. With no majority
     * (two members that disagree), the origin's outcome wins: its client has heard it.
     */
    synchronized List<String> dissenters() {
        Map<String, Integer> votes = new HashMap<>();
        outcomes.values().forEach(o -> votes.merge(o, 1, Integer::sum));
        String own = outcomes.get(self);
        String winner = own;
        int best = own == null ? 0 : votes.get(own);
        for (Map.Entry<String, Integer> v : votes.entrySet()) {
            if (v.getValue() > best) {
                winner = v.getKey();
                best = v.getValue();
            }
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> o : outcomes.entrySet()) {
            if (!o.getValue().equals(winner)) {
                out.add(o.getKey());
            }
        }
        return out;
    }

    synchronized String outcomeOf(String member) {
        return outcomes.get(member);
    }

    synchronized String majorityOutcome() {
        List<String> d = dissenters();
        for (Map.Entry<String, String> o : outcomes.entrySet()) {
            if (!d.contains(o.getKey())) {
                return o.getValue();
            }
        }
        return null;
    }
}
