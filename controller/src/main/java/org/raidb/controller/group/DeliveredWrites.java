package org.raidb.controller.group;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The writes this member has had delivered, numbered by their place in the group's order: the count
 * (the member's position), the recent ones themselves, and which were seen already. Every member
 * numbers the same writes alike, so that after the sequencer dies the survivors can tell who got
 * its last broadcasts and hand them to the others ({@link SequencerHandover}); the ids of recent
 * writes weed out the copy of a write that reaches a member twice (once from the dead sequencer, once
 * forwarded again to the new one).
 */
final class DeliveredWrites {
    /** How many recent writes are kept: far more than a sequencer has in flight when it dies. */
    static final int KEPT = 10_000;

    /** A delivered write and its place in the group's order. */
    record Numbered(long position, GroupMessage.Write write) {}

    private long position;
    private final Deque<Numbered> recent = new ArrayDeque<>();
    private final Map<String, Boolean> seen = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > 4 * KEPT;
        }
    };

    /**
     * Numbers a delivered write; false (and no number) when this member had it delivered before, which
     * happens only around a change of sequencer.
     */
    synchronized boolean first(GroupMessage.Write w) {
        if (seen.put(w.origin() + "#" + w.seq(), Boolean.TRUE) != null) {
            return false;
        }
        position++;
        return true;
    }

    /** The write just numbered runs here: it is kept for members that may lack it. */
    synchronized void kept(GroupMessage.Write w) {
        recent.addLast(new Numbered(position, w));
        if (recent.size() > KEPT) {
            recent.removeFirst();
        }
    }

    /** Writes delivered to this member: its position in the group's order. */
    synchronized long position() {
        return position;
    }

    /** Moves this member's position forward past writes it will not run (delivered to others while dropped here). */
    synchronized void skipTo(long p) {
        position = Math.max(position, p);
    }

    /**
     * The place where this member's numbering starts when it joins a group that has ordered writes
     * before it (catch-up): the donor's position when the joiner's barrier was delivered.
     */
    synchronized void startAt(long p) {
        position = p;
        recent.clear();
    }

    /** The kept writes after position {@code after}, oldest first. */
    synchronized List<Numbered> after(long after) {
        List<Numbered> out = new ArrayList<>();
        for (Numbered n : recent) {
            if (n.position() > after) {
                out.add(n);
            }
        }
        return out;
    }
}
