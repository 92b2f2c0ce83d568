package org.raidb.controller.cache;

/**
 * What the cache knows of one thing writes change (a table, a column of a table, everything): a
 * version moved on as each write that may change it starts and again as it ends, the writes running
 * now, and when the latest versions were reached (for relaxed staleness).
 *
 * <p>A read takes the versions of what it depends on before it runs and is cached with them; the
 * cached result is fresh as long as none moved. A read started while a write was running is not
 * cached at all: it may have seen that write on one backend and not on another.
 */
final class VersionCounter {
    /** Version moves remembered with their time; an older move counts as too old for relaxed staleness. */
    private static final int REMEMBERED = 64;

    private long version;
    private int running;
    private final long[] movedAt = new long[REMEMBERED];

    /** The version now, or -1 while a write that may change it is running. */
    synchronized long stableVersion() {
        return running > 0 ? -1 : version;
    }

    synchronized long version() {
        return version;
    }

    /** A write that may change it starts: what was cached before it is stale from now on. */
    synchronized void writeStarted(long nowNanos) {
        running++;
        move(nowNanos);
    }

    /** That write ended on every backend. */
    synchronized void writeEnded(long nowNanos) {
        running--;
        move(nowNanos);
    }

    private void move(long nowNanos) {
        version++;
        movedAt[(int) (version % REMEMBERED)] = nowNanos;
    }

    /**
     * When a result cached at {@code cachedVersion} became stale: the time of the move just after it;
     * {@link Long#MIN_VALUE} when that move is no longer remembered (long ago).
     */
    synchronized long staleSince(long cachedVersion) {
        long next = cachedVersion + 1;
        if (version - next >= REMEMBERED) {
            return Long.MIN_VALUE;
        }
        return movedAt[(int) (next % REMEMBERED)];
    }
}
