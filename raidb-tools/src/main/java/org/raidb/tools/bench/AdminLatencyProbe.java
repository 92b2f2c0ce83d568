package org.raidb.tools.bench;

import java.net.URI;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.raidb.controller.admin.client.AdminCallException;
import org.raidb.controller.admin.client.AdminClient;

/**
 * Asks the admin API what {@code show backends} asks ({@code GET /api/virtualdatabases/{vdb}/backends}, over HTTP as
 * the console does, so that the figure is what an operator waits) every 50 ms on a thread of its own, and keeps how
 * long each answer took. Issue 15 wants every answer within 200 ms while the log is purged.
 */
final class AdminLatencyProbe implements AutoCloseable {
    /** Issue 15: {@code show backends} answers within this many milliseconds throughout a purge. */
    static final double TARGET_MAX_MILLIS = 200;

    private static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final AdminClient client;
    private final String path;
    // Written by the polling thread only, read once it has ended.
    private final Histogram latencies = Measurement.newLatencyHistogram();
    private final Thread thread;
    private volatile boolean stopped;
    private int failures;
    private String firstFailure;

    /** What the probe saw: answers, their median and slowest, and the requests that failed. */
    record Figures(long answers, double p50Millis, double maxMillis, int failures, String firstFailure) {
        String describe() {
            return String.format(
                    Locale.ROOT,
                    "%,d answer%s, p50 %.1f ms, max %.1f ms%s",
                    answers,
                    answers == 1 ? "" : "s",
                    p50Millis,
                    maxMillis,
                    failures == 0 ? "" : ", " + failures + " failed (first: " + firstFailure + ")");
        }
    }

    private AdminLatencyProbe(AdminClient client, String virtualDatabase) {
        this.client = client;
        this.path = "/api/virtualdatabases/" + AdminClient.segment(virtualDatabase) + "/backends";
        this.thread = new Thread(this::poll, "bench-admin-probe");
        this.thread.setDaemon(true);
    }

    /** Starts polling the admin API at {@code adminBase} ({@code http://host:port}) as {@code user}. */
    static AdminLatencyProbe start(URI adminBase, String user, String password, String virtualDatabase) {
        AdminLatencyProbe probe = new AdminLatencyProbe(new AdminClient(adminBase, user, password), virtualDatabase);
        probe.warmUp();
        probe.thread.start();
        return probe;
    }

    /**
     * One request first, not counted: the first one of a JVM's HTTP client loads its classes and starts its threads,
     * which is not the admin API's time (it took 0.9 s on the shared machine).
     */
    private void warmUp() {
        try {
            client.get(path);
        } catch (AdminCallException e) {
            // the polls that follow record it
        }
    }

    private void poll() {
        long next = System.nanoTime();
        while (!stopped) {
            long begin = System.nanoTime();
            try {
                client.get(path);
                long took = System.nanoTime() - begin;
                latencies.recordValue(Math.min(took, latencies.getHighestTrackableValue()));
            } catch (AdminCallException e) {
                if (failures++ == 0) {
                    firstFailure = e.getMessage();
                }
            }
            next += PERIOD_NANOS;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            } else {
                next = System.nanoTime(); // an answer slower than the period: the next request goes at once
            }
        }
    }

    /** Stops polling (after the request under way) and returns what was seen. */
    Figures stop() throws InterruptedException {
        stopped = true;
        thread.join(); // the histogram and counts are the poller's alone until it has ended
        return new Figures(
                latencies.getTotalCount(),
                latencies.getValueAtPercentile(50) / 1e6,
                latencies.getMaxValue() / 1e6,
                failures,
                firstFailure);
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
