package org.raidb.tools.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Counts (or weights) by name, printed as the top N with their share of the total. */
final class Tally {
    private final Map<String, Long> counts = new HashMap<>();
    private long total;

    void add(String name, long weight) {
        counts.merge(name, weight, Long::sum);
    }

    /** The denominator of the shares: samples, not the sum of counts, for inclusive tallies. */
    void addToTotal(long weight) {
        total += weight;
    }

    long total() {
        return total;
    }

    List<String> top(int n) {
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(n)
                .map(e -> String.format(
                        Locale.ROOT,
                        "%10d %5.1f%%  %s",
                        e.getValue(),
                        total == 0 ? 0 : 100.0 * e.getValue() / total,
                        e.getKey()))
                .toList();
    }
}
