package org.raidb.tools.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One workload at one thread count, measured on every side in the same run, on servers running
 * with {@code fsync} on or off.
 *
 * @param figures each side's figures, in the order the sides are reported
 * @param cpu what each side cost in CPU; empty when not read
 */
record Comparison(boolean fsync, Workload workload, int threads, Map<Side, Figures> figures, Map<Side, CpuUse> cpu) {

    Comparison {
        figures = Map.copyOf(figures);
        cpu = Map.copyOf(cpu);
    }

    /** pgjdbc against RAIDb (log on), without CPU figures: the shape of the first benchmark. */
    static Comparison of(Workload workload, int threads, Figures pgjdbc, Figures raidb) {
        return new Comparison(true, workload, threads, Map.of(Side.PGJDBC, pgjdbc, Side.RAIDB, raidb), Map.of());
    }

    /** The sides measured, in {@link Side} order. */
    List<Side> sides() {
        List<Side> sides = new ArrayList<>();
        for (Side s : Side.values()) {
            if (figures.containsKey(s)) {
                sides.add(s);
            }
        }
        return sides;
    }

    boolean has(Side side) {
        return figures.containsKey(side);
    }

    Figures figures(Side side) {
        return figures.get(side);
    }

    CpuUse cpu(Side side) {
        return cpu.get(side);
    }

    boolean hasCpu() {
        return cpu.keySet().containsAll(figures.keySet());
    }

    /** The RAIDb side that stands for RAIDb: the default (recovery log on) when measured, else the log-off one. */
    Side raidb() {
        return has(Side.RAIDB) ? Side.RAIDB : Side.RAIDB_LOG_OFF;
    }

    /** {@code side} ops/s / {@code base} ops/s: the share of {@code base}'s throughput {@code side} gets. */
    double throughputRatio(Side side, Side base) {
        return figures(side).opsPerSecond() / figures(base).opsPerSecond();
    }

    /** {@code side} p50 / {@code base} p50: how many times longer a typical operation takes. */
    double latencyRatio(Side side, Side base) {
        return figures(side).p50Millis() / figures(base).p50Millis();
    }

    /**
     * {@code base}'s CPU per operation / {@code side}'s: the throughput ratio to expect when the
     * machine's cores are the limit (each side then gets the same cores, and spends them at its own
     * cost per operation).
     */
    double cpuBoundThroughputRatio(Side side, Side base) {
        return cpu(base).totalMicrosPerOp() / cpu(side).totalMicrosPerOp();
    }

    /** "fsync on" or "fsync off": printed with every figure. */
    String fsyncText() {
        return fsync ? "fsync on" : "fsync off";
    }
}
