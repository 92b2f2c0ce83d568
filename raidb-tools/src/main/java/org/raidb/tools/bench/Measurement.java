package org.raidb.tools.bench;

import org.HdrHistogram.Histogram;

/**
 * What one measured window of one side produced: every operation's latency and how long the window
 * lasted. Throughput counts operations that both started and ended inside the window.
 *
 * @param cpu what the window cost in CPU, or null when it was not read
 */
record Measurement(Histogram latencies, long windowNanos, CpuUse cpu) {

    Measurement(Histogram latencies, long windowNanos) {
        this(latencies, windowNanos, null);
    }

    /** Latencies up to one minute, three significant digits: 1 µs resolution at 1 ms. */
    static Histogram newLatencyHistogram() {
        return new Histogram(60_000_000_000L, 3);
    }

    long operations() {
        return latencies.getTotalCount();
    }

    Figures figures() {
        double seconds = windowNanos / 1e9;
        return new Figures(operations() / seconds, percentileMillis(50), percentileMillis(99));
    }

    private double percentileMillis(double percentile) {
        return latencies.getValueAtPercentile(percentile) / 1e6;
    }
}
