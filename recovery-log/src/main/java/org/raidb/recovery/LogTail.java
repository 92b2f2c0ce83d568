package org.raidb.recovery;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * What the end of the log says, kept in memory as entries are written, so that nothing has to read
 * the whole log to learn it: the transactions still open (with the position of their first entry),
 * the items whose outcome is still pending, and the largest transaction id.
 *
 * <p>The writer saves it every {@link #SNAPSHOT_EVERY} positions in the same store transaction as the
 * entries it covers ({@code <prefix>log_state}, one row per snapshot). A restart reads the last snapshot
 * and then only the entries after it (from its oldest open transaction or pending item on), so what a
 * restart reads is bounded by that interval plus the age of the oldest transaction or write still
 * running, never by the log's length. Where a replay from a position must start (the first entry of
 * the oldest transaction open there) is found the same way: the last snapshot at or before the
 * position, then the entries up to it. Not thread-safe: each user has its own instance.
 */
final class LogTail {

    /** Positions between two snapshots: what a restart reads at most beyond the snapshot. */
    static final long SNAPSHOT_EVERY = 10_000;

    private final Map<Long, Long> openTransactions = new LinkedHashMap<>();
    private final TreeSet<Long> pendingItems = new TreeSet<>();
    private long position;
    private long maxTransactionId;

    LogTail(long position) {
        this.position = position;
    }

    /** Records an entry, in position order. */
    void accept(long entryPosition, EntryKind kind, long transactionId, Outcome.Status status) {
        position = Math.max(position, entryPosition);
        maxTransactionId = Math.max(maxTransactionId, transactionId);
        if (status == Outcome.Status.PENDING && isItem(kind, transactionId)) {
            pendingItems.add(entryPosition);
        }
        if (transactionId == 0) {
            return;
        }
        if (kind.endsTransaction()) {
            openTransactions.remove(transactionId);
        } else {
            openTransactions.putIfAbsent(transactionId, entryPosition);
        }
    }

    /** An item found pending before the saved tail (a write still running when it was saved). */
    void pending(long itemPosition) {
        pendingItems.add(itemPosition);
    }

    void outcome(long itemPosition, Outcome.Status status) {
        if (status != Outcome.Status.PENDING) {
            pendingItems.remove(itemPosition);
        }
    }

    /** The entries whose outcome {@link RecoveryLog#pendingItems()} reports. */
    static boolean isItem(EntryKind kind, long transactionId) {
        return kind == EntryKind.AUTOCOMMIT_WRITE
                || kind == EntryKind.COMMIT
                || (kind == EntryKind.DDL && transactionId == 0);
    }

    long position() {
        return position;
    }

    long maxTransactionId() {
        return maxTransactionId;
    }

    /** Open transaction id to the position of its first entry, oldest first. */
    Map<Long, Long> openTransactions() {
        return new HashMap<>(openTransactions);
    }

    /** The first position of the oldest open transaction, else {@code ifNone}. */
    long oldestOpen(long ifNone) {
        long oldest = ifNone;
        for (long first : openTransactions.values()) {
            oldest = Math.min(oldest, first);
        }
        return oldest;
    }

    /** The stored form of the open transactions: {@code tx:first,tx:first}. */
    String encodeOpenTransactions() {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<Long, Long> e : openTransactions.entrySet()) {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(e.getKey()).append(':').append(e.getValue());
        }
        return b.toString();
    }

    /** The tail as a snapshot saved it; {@link #accept} then brings it up to the log's end. */
    static LogTail of(long position, long maxTransactionId, String openTransactions) {
        LogTail tail = new LogTail(position);
        tail.maxTransactionId = maxTransactionId;
        if (openTransactions != null && !openTransactions.isEmpty()) {
            for (String pair : openTransactions.split(",", -1)) {
                int colon = pair.indexOf(':');
                tail.openTransactions.put(
                        Long.parseLong(pair.substring(0, colon)), Long.parseLong(pair.substring(colon + 1)));
            }
        }
        return tail;
    }

    /** The oldest pending item now (or {@code position + 1}), as a snapshot stores it. */
    long oldestPending() {
        return pendingItems.isEmpty() ? position + 1 : pendingItems.first();
    }
}
