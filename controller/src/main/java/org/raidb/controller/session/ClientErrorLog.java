package org.raidb.controller.session;

import java.net.InetAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The controller's log of what clients do wrong, one line per kind of error and source address per
 * interval: a fuzzer or a broken driver sending thousands of bad frames a minute must not bury the log
 * (or fill the disk). The first error of a kind from an address is logged at once; the others within
 * the interval are counted, and the count is added to the next line logged for that address and kind.
 * Messages are one line, without stack trace: these are the client's errors, not the controller's.
 */
final class ClientErrorLog {
    private static final Logger log = LoggerFactory.getLogger(ClientErrorLog.class);
    /** Addresses and kinds remembered at most; beyond, windows that are over are dropped, then all. */
    private static final int MAX_KEYS = 10_000;

    /** What went wrong, and how loud it is. */
    enum Kind {
        PROTOCOL_VIOLATION(Level.WARN, "protocol violation"),
        HANDSHAKE_TIMEOUT(Level.WARN, "slow handshake"),
        LOGIN_THROTTLED(Level.WARN, "login throttled"),
        LOGIN_REFUSED(Level.INFO, "login refused"),
        PLAIN_REFUSED(Level.INFO, "plain TCP client refused (TLS required)"),
        INVALID_VALUE(Level.INFO, "invalid value"),
        IO_ERROR(Level.INFO, "connection failed");

        private final Level level;
        private final String description;

        Kind(Level level, String description) {
            this.level = level;
            this.description = description;
        }
    }

    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private final Map<Key, Window> windows = new HashMap<>();

    ClientErrorLog(Duration interval) {
        this(interval, System::nanoTime);
    }

    ClientErrorLog(Duration interval, LongSupplier nanoTime) {
        this.intervalNanos = interval.toNanos();
        this.nanoTime = nanoTime;
    }

    /** Logs {@code message} about a client at {@code source}, unless one like it was logged within the interval. */
    void report(InetAddress source, Kind kind, String message) {
        long suppressed;
        synchronized (this) {
            long now = nanoTime.getAsLong();
            Key key = new Key(source, kind);
            Window w = windows.get(key);
            if (w != null && now - w.start < intervalNanos) {
                w.suppressed++;
                return;
            }
            suppressed = w == null ? 0 : w.suppressed;
            if (windows.size() >= MAX_KEYS) {
                forgetEndedWindows(now);
            }
            windows.put(key, new Window(now));
        }
        String address = source == null ? "unknown address" : source.getHostAddress();
        String line = kind.description + " from " + address + ": " + message;
        if (suppressed > 0) {
            line += " (" + suppressed + " more like it from this address since the previous line were not logged)";
        }
        log.atLevel(kind.level).log(line);
    }

    private void forgetEndedWindows(long now) {
        for (Iterator<Window> it = windows.values().iterator(); it.hasNext(); ) {
            if (now - it.next().start >= intervalNanos) {
                it.remove();
            }
        }
        if (windows.size() >= MAX_KEYS) {
            windows.clear();
        }
    }

    private record Key(InetAddress source, Kind kind) {}

    private static final class Window {
        final long start;
        long suppressed;

        Window(long start) {
            this.start = start;
        }
    }
}
