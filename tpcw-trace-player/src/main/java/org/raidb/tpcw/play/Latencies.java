package org.raidb.tpcw.play;

import java.util.Arrays;

/** Latencies in microseconds, kept whole (a replay has at most millions) so that percentiles are exact. */
final class Latencies {

    private long[] values = new long[64];
    private int size;

    void add(long micros) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = micros;
    }

    void addAll(Latencies other) {
        for (int i = 0; i < other.size; i++) {
            add(other.values[i]);
        }
    }

    int count() {
        return size;
    }

    /** Nearest-rank percentiles 50, 95, 99 in milliseconds, and the mean. */
    LatencySummary summarize() {
        long[] sorted = Arrays.copyOf(values, size);
        Arrays.sort(sorted);
        return new LatencySummary(
                size,
                rank(sorted, 50),
                rank(sorted, 95),
                rank(sorted, 99),
                size == 0 ? 0 : Arrays.stream(sorted).average().orElse(0) / 1000.0);
    }

    private static double rank(long[] sorted, int percentile) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, index)] / 1000.0;
    }
}
