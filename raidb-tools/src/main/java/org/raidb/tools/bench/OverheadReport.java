package org.raidb.tools.bench;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The benchmark's figures as text: a table for the terminal and a Markdown entry for
 * docs/benchmarks.md. One row per fsync setting, workload, thread count and side; every row says
 * its fsync setting, and the controller without recovery log is always named "RAIDb log off".
 */
final class OverheadReport {
    private static final DateTimeFormatter WHEN =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    private final RunDescription run;
    private final List<Comparison> comparisons;
    private final List<TargetVerdict> verdicts;

    OverheadReport(RunDescription run, List<Comparison> comparisons) {
        this.run = run;
        this.comparisons = List.copyOf(comparisons);
        this.verdicts = OverheadTargets.judge(comparisons, run.backends());
    }

    List<TargetVerdict> verdicts() {
        return verdicts;
    }

    static String consoleHeader() {
        return String.format(
                Locale.ROOT,
                "%-9s %-18s %7s %-13s | %10s %8s %8s | %10s %10s | %10s %10s",
                "fsync",
                "workload",
                "threads",
                "side",
                "ops/s",
                "p50 ms",
                "p99 ms",
                "ops/pgjdbc",
                "p50/pgjdbc",
                "ops/pgpool",
                "p50/pgpool");
    }

    /** One line per side of {@code c}: its figures, then its ratios to pgjdbc and to pgpool-II. */
    static List<String> consoleRows(Comparison c) {
        List<String> rows = new ArrayList<>();
        for (Side side : c.sides()) {
            Figures f = c.figures(side);
            rows.add(String.format(
                    Locale.ROOT,
                    "%-9s %-18s %7d %-13s | %,10.0f %8.3f %8.3f | %10s %10s | %10s %10s",
                    c.fsyncText(),
                    c.workload().title(),
                    c.threads(),
                    side.title(),
                    f.opsPerSecond(),
                    f.p50Millis(),
                    f.p99Millis(),
                    ratio(c, side, Side.PGJDBC, true),
                    ratio(c, side, Side.PGJDBC, false),
                    ratio(c, side, Side.PGPOOL, true),
                    ratio(c, side, Side.PGPOOL, false)));
        }
        return rows;
    }

    /** The ratio as text, or "" for a side against itself or against a side not measured. */
    private static String ratio(Comparison c, Side side, Side base, boolean throughput) {
        if (side == base || !c.has(base) || side == Side.PGJDBC) {
            return "";
        }
        return String.format(
                Locale.ROOT, "%.2f", throughput ? c.throughputRatio(side, base) : c.latencyRatio(side, base));
    }

    /** The ratios the run was made for, one sentence per comparison. */
    static String ratioLine(Comparison c) {
        StringBuilder s = new StringBuilder(String.format(
                Locale.ROOT,
                "%s, %s, %d thread%s:",
                c.fsyncText(),
                c.workload().title(),
                c.threads(),
                c.threads() == 1 ? "" : "s"));
        List<String> parts = new ArrayList<>();
        for (Side side : c.sides()) {
            if (side != Side.PGJDBC && c.has(Side.PGJDBC)) {
                parts.add(pair(c, side, Side.PGJDBC));
            }
        }
        for (Side side : List.of(Side.RAIDB, Side.RAIDB_LOG_OFF)) {
            if (c.has(side) && c.has(Side.PGPOOL)) {
                parts.add(pair(c, side, Side.PGPOOL));
            }
        }
        if (c.has(Side.RAIDB) && c.has(Side.RAIDB_LOG_OFF)) {
            parts.add(String.format(
                    Locale.ROOT,
                    "recovery log on/off ops/s %.2f, p50 %.2f",
                    c.throughputRatio(Side.RAIDB, Side.RAIDB_LOG_OFF),
                    c.latencyRatio(Side.RAIDB, Side.RAIDB_LOG_OFF)));
        }
        return s.append(' ').append(String.join("; ", parts)).toString();
    }

    private static String pair(Comparison c, Side side, Side base) {
        return String.format(
                Locale.ROOT,
                "%s/%s ops/s %.2f, p50 %.2f",
                side.title(),
                base.title(),
                c.throughputRatio(side, base),
                c.latencyRatio(side, base));
    }

    /** What was run, in a few lines: the same in the terminal and in the entry. */
    List<String> setup() {
        List<String> lines = new ArrayList<>();
        lines.add("Machine: " + run.machine().describe()
                + (run.load().isEmpty() ? "" : "; load average at start " + run.load()));
        lines.add(String.format(
                Locale.ROOT,
                "Run: %d s measured after %d s warm-up per side, %d round%s (median, sides "
                        + "rotating which goes first), %,d rows, PostgreSQL %s, controller in the same JVM%s.",
                run.durationSeconds(),
                run.warmupSeconds(),
                run.rounds(),
                run.rounds() == 1 ? "" : "s",
                run.rows(),
                run.postgresVersion(),
                run.profiled() ? ", JFR recording on (figures lower than without)" : ""));
        lines.add(String.format(
                Locale.ROOT,
                "Sides: pgjdbc straight to one server; RAIDb-1 over %d backend%s (readPolicy "
                        + "roundRobin, completion all, default scheduler), recovery log %s; pgpool-II: %s.",
                run.backends(),
                run.backends() == 1 ? "" : "s",
                run.recoveryLog(),
                run.pgpool()));
        if (!run.dataFileSystem().isEmpty()) {
            lines.add("Servers' data directories and the recovery log on " + run.dataFileSystem()
                    + "; fsync as printed with " + "each figure, the same on every server of that run.");
        }
        return lines;
    }

    String console() {
        StringBuilder s = new StringBuilder();
        setup().forEach(l -> s.append(l).append('\n'));
        s.append(consoleHeader()).append('\n');
        comparisons.forEach(c -> consoleRows(c).forEach(r -> s.append(r).append('\n')));
        s.append("\nRatios, each measured in the same run:\n");
        comparisons.forEach(c -> s.append("  ").append(ratioLine(c)).append('\n'));
        if (hasCpu()) {
            s.append("\nCPU per operation (microseconds) and cores busy during the measured windows:\n");
            s.append(String.format(
                    Locale.ROOT,
                    "%-9s %-18s %7s %-13s | %8s %10s %9s %9s %10s %9s %8s | %9s %13s%n",
                    "fsync",
                    "workload",
                    "threads",
                    "side",
                    "client",
                    "controller",
                    "of which kernel",
                    "other JVM",
                    "PostgreSQL",
                    "pgpool-II",
                    "total",
                    "run cores",
                    "machine cores"));
            for (Comparison c : comparisons) {
                for (Side side : c.sides()) {
                    CpuUse u = c.cpu(side);
                    s.append(String.format(
                            Locale.ROOT,
                            "%-9s %-18s %7d %-13s | %8.1f %10.1f %9.1f %9.1f %10.1f %9.1f %8.1f | %9.2f %13.2f%n",
                            c.fsyncText(),
                            c.workload().title(),
                            c.threads(),
                            side.title(),
                            u.clientMicrosPerOp(),
                            u.controllerMicrosPerOp(),
                            u.controllerKernelMicrosPerOp(),
                            u.otherJvmMicrosPerOp(),
                            u.postgresMicrosPerOp(),
                            u.pgpoolMicrosPerOp(),
                            u.totalMicrosPerOp(),
                            u.runCores(),
                            u.machineBusyCores()));
                }
            }
            s.append(
                    "\nThroughput ratio to pgjdbc expected if the cores are the limit (pgjdbc CPU/op / side's CPU/op) vs measured:\n");
            for (Comparison c : comparisons) {
                for (Side side : c.sides()) {
                    if (side != Side.PGJDBC && c.has(Side.PGJDBC)) {
                        s.append(String.format(
                                Locale.ROOT,
                                "  %-9s %-18s %2d thread%s %-13s: %.2f expected, %.2f measured%n",
                                c.fsyncText(),
                                c.workload().title(),
                                c.threads(),
                                c.threads() == 1 ? " " : "s",
                                side.title(),
                                c.cpuBoundThroughputRatio(side, Side.PGJDBC),
                                c.throughputRatio(side, Side.PGJDBC)));
                    }
                }
            }
        }
        s.append("\nTargets (issue 3, item 7; issue 14):\n");
        verdicts.forEach(v -> s.append("  ").append(v.line()).append('\n'));
        return s.toString();
    }

    private boolean hasCpu() {
        return !comparisons.isEmpty() && comparisons.stream().allMatch(Comparison::hasCpu);
    }

    /** One dated entry: what was run, where, the tables, the ratios and the targets. */
    String markdown() {
        StringBuilder s = new StringBuilder();
        s.append("### ")
                .append(WHEN.format(run.start()))
                .append(" — ")
                .append(run.label())
                .append("\n\n");
        setup().forEach(l ->
                s.append("- ").append(l).append(l.endsWith(".") ? "" : ".").append('\n'));
        s.append('\n');
        s.append("| fsync | workload | threads | side | ops/s | p50 ms | p99 ms | ops/s ÷ pgjdbc | p50 ÷ pgjdbc "
                + "| ops/s ÷ pgpool-II | p50 ÷ pgpool-II |\n");
        s.append("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Comparison c : comparisons) {
            for (Side side : c.sides()) {
                Figures f = c.figures(side);
                s.append(String.format(
                        Locale.ROOT,
                        "| %s | %s | %d | %s | %,.0f | %.3f | %.3f | %s | %s | %s | %s |\n",
                        c.fsync() ? "on" : "off",
                        c.workload().title(),
                        c.threads(),
                        side.title(),
                        f.opsPerSecond(),
                        f.p50Millis(),
                        f.p99Millis(),
                        ratio(c, side, Side.PGJDBC, true),
                        ratio(c, side, Side.PGJDBC, false),
                        ratio(c, side, Side.PGPOOL, true),
                        ratio(c, side, Side.PGPOOL, false)));
            }
        }
        s.append("\nRatios, each measured in the same run:\n\n");
        comparisons.forEach(c -> s.append("- ").append(ratioLine(c)).append('\n'));
        s.append("\nTargets:\n\n");
        for (TargetVerdict v : verdicts) {
            s.append("- ").append(v.line()).append('\n');
        }
        if (hasCpu()) {
            s.append("\nCPU per operation in microseconds, by who spent it (client threads with their JDBC driver, the "
                    + "controller's threads (and the part of it the kernel spent for them: socket calls, threads woken and parked), the rest of the JVM, PostgreSQL's processes on every server, pgpool-II's processes), "
                    + "and cores busy during the measured windows: those of this run (JVM, PostgreSQL, pgpool-II) and the whole "
                    + "machine's (other builds included). The last column is the throughput ratio to pgjdbc to expect if the "
                    + "cores are the limit: pgjdbc's CPU per operation over the side's.\n\n");
            s.append(
                    "| fsync | workload | threads | side | client µs | controller µs | of which kernel µs | other JVM µs | PostgreSQL µs "
                            + "| pgpool-II µs | total µs | run cores | machine cores | expected ops/s ratio |\n");
            s.append("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for (Comparison c : comparisons) {
                for (Side side : c.sides()) {
                    CpuUse u = c.cpu(side);
                    String expected = side == Side.PGJDBC || !c.has(Side.PGJDBC)
                            ? ""
                            : String.format(
                                    Locale.ROOT,
                                    "%.2f (measured %.2f)",
                                    c.cpuBoundThroughputRatio(side, Side.PGJDBC),
                                    c.throughputRatio(side, Side.PGJDBC));
                    s.append(String.format(
                            Locale.ROOT,
                            "| %s | %s | %d | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %s |\n",
                            c.fsync() ? "on" : "off",
                            c.workload().title(),
                            c.threads(),
                            side.title(),
                            u.clientMicrosPerOp(),
                            u.controllerMicrosPerOp(),
                            u.controllerKernelMicrosPerOp(),
                            u.otherJvmMicrosPerOp(),
                            u.postgresMicrosPerOp(),
                            u.pgpoolMicrosPerOp(),
                            u.totalMicrosPerOp(),
                            u.runCores(),
                            u.machineBusyCores(),
                            expected));
                }
            }
        }
        return s.toString();
    }
}
