package org.raidb.tools.bench;

import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** The three figures the benchmark reports for one side: throughput and two latency percentiles. */
record Figures(double opsPerSecond, double p50Millis, double p99Millis) {

    /**
     * The median of several rounds, figure by figure (with two rounds, their mean). Taken per figure
     * because the round with the median throughput need not be the one with the median p99.
     */
    static Figures medianOf(List<Figures> rounds) {
        if (rounds.isEmpty()) {
            throw new IllegalArgumentException("no round to take the median of");
        }
        return new Figures(
                median(rounds, Figures::opsPerSecond),
                median(rounds, Figures::p50Millis),
                median(rounds, Figures::p99Millis));
    }

    private static double median(List<Figures> rounds, ToDoubleFunction<Figures> figure) {
        return median(rounds.stream().mapToDouble(figure).toArray());
    }

    /** The median (with an even count, the mean of the two middle values); sorts {@code values}. */
    static double median(double[] values) {
        Arrays.sort(values);
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }
}
