package org.raidb.tpcw.report;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
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
  private final AtomicLong ticks = new AtomicLong();

  /** {@code total} 0 means unknown (no bar, only the count and rate). */
  public ProgressBar(String unit, long total, LongSupplier done, LongSupplier errors, PrintWriter out) {
    this.unit = unit;
    this.total = total;
    this.done = done;
    this.errors = errors;
    this.out = out;
    this.terminal = System.console() != null;
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "progress-bar");
      t.setDaemon(true);
      return t;
    });
    ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
  }

  private void tick() {
    if (terminal) {
      out.print("\r" + line());
      out.flush();
    } else if (ticks.incrementAndGet() % 10 == 0) {
      out.println(line());
    }
  }

  /** Count, bar and rate since the start, e.g. {@code [#####.....] 50% 1,000/2,000 rows 250 rows/s}. */
  public String line() {
    long n = done.getAsLong();
    double seconds = Math.max(1e-3, (System.nanoTime() - begin) / 1e9);
    StringBuilder s = new StringBuilder();
    if (total > 0) {
      int filled = (int) Math.min(WIDTH, WIDTH * n / total);
      s.append('[').append("#".repeat(filled)).append(".".repeat(WIDTH - filled)).append("] ")
          .append(String.format(Locale.ROOT, "%3d%% ", Math.min(100, 100 * n / total)));
    }
    s.append(String.format(Locale.ROOT, "%,d", n));
    if (total > 0) {
      s.append(String.format(Locale.ROOT, "/%,d", total));
    }
    s.append(' ').append(unit).append(String.format(Locale.ROOT, "  %,.0f %s/s  %.0f s", n / seconds, unit, seconds));
    long e = errors.getAsLong();
    if (e > 0) {
      s.append(String.format(Locale.ROOT, "  %,d errors", e));
    }
    return s.toString();
  }

  /** Stops redrawing and prints the final line. */
  @Override
  public void close() {
    ticker.shutdownNow();
    out.println((terminal ? "\r" : "") + line());
    out.flush();
  }
}
