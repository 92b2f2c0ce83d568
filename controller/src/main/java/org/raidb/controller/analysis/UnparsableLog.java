package org.raidb.controller.analysis;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns once per distinct text the parser cannot read, at most {@link #PER_MINUTE} times a minute. A
 * client sending many distinct unreadable texts (a fuzzer, a broken generator) would otherwise write
 * a line per text; the texts themselves are not kept, only their hashes, so that memory stays bounded.
 */
final class UnparsableLog {
    private static final Logger log = LoggerFactory.getLogger(SqlAnalyzer.class);
    static final int PER_MINUTE = 20;
    private static final int REMEMBERED = 10_000;

    private final Set<Integer> warned = ConcurrentHashMap.newKeySet();
    private final LongSupplier nanoTime;
    private long windowStart;
    private int inWindow;
    private int suppressed;

    UnparsableLog() {
        this(System::nanoTime);
    }

    UnparsableLog(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.windowStart = nanoTime.getAsLong();
    }

    /** Returns whether a line was written (tests). */
    boolean unparsable(String sql) {
        if (warned.size() >= REMEMBERED) {
            warned.clear();
        }
        if (!warned.add(sql.hashCode())) {
            return false;
        }
        int left;
        synchronized (this) {
            long now = nanoTime.getAsLong();
            if (now - windowStart >= TimeUnit.MINUTES.toNanos(1)) {
                windowStart = now;
                inWindow = 0;
            }
            if (inWindow >= PER_MINUTE) {
                suppressed++;
                return false;
            }
            inWindow++;
            left = suppressed;
            suppressed = 0;
        }
        log.warn(
                "SQL not understood by the parser, treated as a write touching every table and serialized: {}{}",
                abbreviate(sql),
                left == 0 ? "" : " (" + left + " more such texts were not logged)");
        return true;
    }

    /** The text on one line, its runs of whitespace made one space, cut after 200 characters: for log lines. */
    static String abbreviate(String sql) {
        StringBuilder line = new StringBuilder(Math.min(sql.length(), 201));
        boolean space = false;
        for (int i = 0; i < sql.length() && line.length() < 201; i++) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                space = line.length() > 0;
            } else {
                if (space) {
                    line.append(' ');
                    space = false;
                }
                line.append(c);
            }
        }
        return line.length() <= 200 ? line.toString() : line.substring(0, 200) + "…";
    }
}
