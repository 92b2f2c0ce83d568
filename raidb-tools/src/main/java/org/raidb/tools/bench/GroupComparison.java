package org.raidb.tools.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One workload at one client count on servers with {@code fsync} on or off, measured through every
 * setup of {@code raidb bench group} in the same run (each figure the median of the rounds).
 *
 * @param figures each setup's figures, in the order they are reported
 * @param cpu what each setup cost in CPU; a setup may lack it
 */
record GroupComparison(
        boolean fsync, Workload workload, int threads, Map<GroupSetup, Figures> figures, Map<GroupSetup, CpuUse> cpu) {

    GroupComparison {
        figures = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(figures));
        cpu = Map.copyOf(cpu);
    }

    List<GroupSetup> setups() {
        return List.copyOf(figures.keySet());
    }

    boolean has(GroupSetup setup) {
        return figures.containsKey(setup);
    }

    Figures figures(GroupSetup setup) {
        return figures.get(setup);
    }

    /** {@code setup}'s ops/s over {@code base}'s, or NaN when either was not measured. */
    double throughputRatio(GroupSetup setup, GroupSetup base) {
        return has(setup) && has(base)
                ? figures(setup).opsPerSecond() / figures(base).opsPerSecond()
                : Double.NaN;
    }

    /** {@code setup}'s p50 over {@code base}'s, or NaN when either was not measured. */
    double latencyRatio(GroupSetup setup, GroupSetup base) {
        return has(setup) && has(base)
                ? figures(setup).p50Millis() / figures(base).p50Millis()
                : Double.NaN;
    }

    String fsyncText() {
        return fsync ? "fsync on" : "fsync off";
    }
}
