package org.raidb.recovery;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ids of the statement texts the writer has stored lately, so that a text is stored once and
 * entries refer to it. Bounded (least recently used out): a text that falls out, or that a
 * restarted log has not seen yet, is stored again under a new id, which costs a row, never a wrong
 * answer.
 *
 * <p>It also knows which statement rows no entry needs any more, for the purge: an id that fell out is
 * never used again, so once the purge has passed its last use its row can go; so can every id from
 * before the log was opened, once the purge has passed the position the log was opened at. Ids fall
 * out in the order of their last use (least recently used first), so what can go at a purge is a
 * prefix of what fell out, kept as ranges of consecutive ids. Ids still cached stay.
 *
 * <p>The writing thread calls {@link #known} and {@link #add}; the purge calls {@link #unusedBefore}
 * and {@link #forget} from another thread: hence the lock.
 */
final class StatementIds {

    static final int MAX_CACHED = 4096;
    /** Longer texts are not kept in memory (each such entry gets its own statement row). */
    static final int MAX_CACHED_KEY_CHARS = 16_384;

    /** Ids {@code from..to} (inclusive). */
    record IdRange(long from, long to) {}

    private static final class Slot {
        final long id;
        long lastUse;

        Slot(long id, long lastUse) {
            this.id = id;
            this.lastUse = lastUse;
        }
    }

    private final Map<String, Slot> ids = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Slot> eldest) {
            if (size() <= MAX_CACHED) {
                return false;
            }
            fellOut(eldest.getValue().id, eldest.getValue().lastUse);
            return true;
        }
    };
    /** Added in the store transaction being written: forgotten again if it rolls back. */
    private final List<String> uncommitted = new ArrayList<>();
    /** Ids that fell out: {from, to, last use of any of them}, last uses in increasing order. */
    private final ArrayDeque<long[]> fallenOut = new ArrayDeque<>();

    private final long idsBeforeOpen;
    private final long openedAt;
    private boolean idsBeforeOpenForgotten;
    private long lastId;

    /** {@code lastId}: the largest id in the store; {@code openedAt}: the log's last position when opened. */
    StatementIds(long lastId, long openedAt) {
        this.lastId = lastId;
        this.idsBeforeOpen = lastId;
        this.openedAt = openedAt;
    }

    /** The id of {@code key} if cached, noting its use at {@code position}. */
    synchronized Long known(String key, long position) {
        Slot s = ids.get(key);
        if (s == null) {
            return null;
        }
        s.lastUse = position;
        return s.id;
    }

    /** A new id for {@code key}, first used at {@code position}; the caller stores it in the current transaction. */
    synchronized long add(String key, long position) {
        long id = ++lastId;
        if (key.length() <= MAX_CACHED_KEY_CHARS) {
            ids.put(key, new Slot(id, position));
            uncommitted.add(key);
        } else {
            fellOut(id, position);
        }
        return id;
    }

    synchronized void committed() {
        uncommitted.clear();
    }

    synchronized void rolledBack() {
        uncommitted.forEach(ids::remove);
        uncommitted.clear();
    }

    /** The ids no entry at {@code keepFrom} or later refers to, that the store may still hold. */
    synchronized List<IdRange> unusedBefore(long keepFrom) {
        List<IdRange> unused = new ArrayList<>();
        if (!idsBeforeOpenForgotten && idsBeforeOpen > 0 && openedAt < keepFrom) {
            unused.add(new IdRange(1, idsBeforeOpen));
        }
        for (long[] r : fallenOut) {
            if (r[2] >= keepFrom) {
                break;
            }
            unused.add(new IdRange(r[0], r[1]));
        }
        return unused;
    }

    /** Forgets ranges {@link #unusedBefore} returned, once their rows are deleted. */
    synchronized void forget(List<IdRange> deleted) {
        for (IdRange d : deleted) {
            if (d.to() <= idsBeforeOpen) {
                idsBeforeOpenForgotten = true;
                continue;
            }
            long[] first = fallenOut.peekFirst();
            if (first == null || first[0] != d.from()) {
                continue; // not at the front any more: forgotten already
            }
            if (first[1] > d.to()) {
                first[0] = d.to() + 1; // grew after it was listed: its new ids stay
            } else {
                fallenOut.pollFirst();
            }
        }
    }

    private void fellOut(long id, long lastUse) {
        long[] last = fallenOut.peekLast();
        if (last != null && last[1] + 1 == id) {
            last[1] = id;
            last[2] = Math.max(last[2], lastUse);
        } else {
            fallenOut.addLast(new long[] {id, id, lastUse});
        }
    }
}
