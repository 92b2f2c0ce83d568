package org.raidb.tpcw.report;

import java.io.Console;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A live progress line on stderr, redrawn once a second from a counter the workers increment: on a
 * terminal one line rewritten in place, otherwise (a log file) one line every ten seconds.
 */
public final class ProgressBar implements AutoCloseable {

    private static final int WIDTH = 30;

    private final String unit;
    private final long total;
    private final LongSupplier done;
    private final LongSupplier errors;
    private final PrintWriter out;
    private final boolean terminal;
    private final long begin = System.nanoTime();
    private final ScheduledExecutorService ticker;
    private final ScheduledFuture<?> redrawing;
    private final AtomicLong ticks = new AtomicLong();

    /** {@code total} 0 means unknown (no bar, only the count and rate). */
    public ProgressBar(String unit, long total, LongSupplier done, LongSupplier errors, PrintWriter out) {
        this.unit = unit;
        this.total = total;
        this.done = done;
        this.errors = errors;
        this.out = out;
        this.terminal = onTerminal();
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "progress-bar");
            t.setDaemon(true);
            return t;
        });
        this.redrawing = ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
    }

    /**
     * Whether the JVM's console is a terminal. Up to JDK 21 {@code System.console()} is null when it is not; from
     * JDK 22 it returns a console even for redirected streams, and only {@code Console.isTerminal()} (reached by
     * reflection, as this code compiles for Java 17) tells.
     */
    @SuppressWarnings("SystemConsoleNull") // before JDK 22 the null check is the answer, as the check's docs say
    private static boolean onTerminal() {
        Console console = System.console();
        if (console == null || Runtime.version().feature() < 22) {
            return console != null;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) {
            return false; // a line every ten seconds is right anywhere
        }
    }

    private void tick() {
        try {
            if (terminal) {
                out.print("\r" + line());
                out.flush();
            } else if (ticks.incrementAndGet() % 10 == 0) {
                out.println(line());
            }
        } catch (RuntimeException e) {
            // A periodic task that throws never runs again, its exception kept in a future nobody reads: say why.
            out.println("progress display stopped: " + e);
            out.flush();
            throw e;
        }
    }

    /** Count, bar and rate since the start, e.g. {@code [#####.....] 50% 1,000/2,000 rows 250 rows/s}. */
    public String line() {
        long n = done.getAsLong();
        double seconds = Math.max(1e-3, (System.nanoTime() - begin) / 1e9);
        StringBuilder s = new StringBuilder();
        if (total > 0) {
            int filled = (int) Math.min(WIDTH, WIDTH * n / total);
            s.append('[')
                    .append("#".repeat(filled))
                    .append(".".repeat(WIDTH - filled))
                    .append("] ")
                    .append(String.format(Locale.ROOT, "%3d%% ", Math.min(100, 100 * n / total)));
        }
        s.append(String.format(Locale.ROOT, "%,d", n));
        if (total > 0) {
            s.append(String.format(Locale.ROOT, "/%,d", total));
        }
        s.append(' ')
                .append(unit)
                .append(String.format(Locale.ROOT, "  %,.0f %s/s  %.0f s", n / seconds, unit, seconds));
        long e = errors.getAsLong();
        if (e > 0) {
            s.append(String.format(Locale.ROOT, "  %,d errors", e));
        }
        return s.toString();
    }

    /** Stops redrawing and prints the final line. */
    @Override
    public void close() {
        redrawing.cancel(false);
        ticker.shutdownNow();
        out.println((terminal ? "\r" : "") + line());
        out.flush();
    }
}
