package org.raidb.tools.bench;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code raidb bench group}'s figures as text: a table for the terminal and a Markdown entry for
 * docs/benchmarks.md, one row per fsync setting, workload, client count and setup, with the ratios to
 * one controller without a group (issue 16's baseline) and to plain pgjdbc, then the targets.
 *
 * @param capStatus whether and how the backends were CPU-capped
 * @param capped whether the cap was applied (the read targets assume it)
 * @param threads the client counts measured, as the command line gave them
 * @param placement whether the controllers ran in-process or each in a capped JVM of its own
 */
record GroupReport(
        RunDescription run,
        String capStatus,
        boolean capped,
        List<Integer> threads,
        List<Integer> controllers,
        List<GroupComparison> comparisons,
        ControllerPlacement placement) {

    private static final DateTimeFormatter WHEN =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    GroupReport {
        threads = List.copyOf(threads);
        controllers = List.copyOf(controllers);
        comparisons = List.copyOf(comparisons);
    }

    List<TargetVerdict> verdicts() {
        return GroupTargets.judge(comparisons, capped, placement);
    }

    /** The terminal's columns; the Markdown table has the same cells. */
    private static final String CONSOLE_ROW = "%-9s %-18s %7s %-24s | %10s %8s %8s | %8s %8s | %8s %8s | %7s %7s %7s";

    static String consoleHeader() {
        return String.format(
                Locale.ROOT,
                CONSOLE_ROW,
                "fsync",
                "workload",
                "clients",
                "configuration",
                "ops/s",
                "p50 ms",
                "p99 ms",
                "ops/1c",
                "p50/1c",
                "ops/pg",
                "p50/pg",
                "ctl us",
                "jvm us",
                "pg us");
    }

    /** One line per setup of {@code c}: figures, ratios to one controller and to pgjdbc, CPU per operation. */
    static List<String> consoleRows(GroupComparison c) {
        List<String> rows = new ArrayList<>();
        for (GroupSetup setup : c.setups()) {
            rows.add(String.format(Locale.ROOT, CONSOLE_ROW, cells(c, setup).toArray()));
        }
        return rows;
    }

    /** The cells of {@code setup}'s row; "" where a figure does not apply or was not read. */
    static List<String> cells(GroupComparison c, GroupSetup setup) {
        Figures f = c.figures(setup);
        CpuUse cpu = c.cpu().get(setup);
        return List.of(
                c.fsyncText(),
                c.workload().title(),
                Integer.toString(c.threads()),
                setup.title(),
                String.format(Locale.ROOT, "%,.0f", f.opsPerSecond()),
                String.format(Locale.ROOT, "%.3f", f.p50Millis()),
                String.format(Locale.ROOT, "%.3f", f.p99Millis()),
                ratio(c, setup, GroupSetup.ONE_CONTROLLER, true),
                ratio(c, setup, GroupSetup.ONE_CONTROLLER, false),
                ratio(c, setup, GroupSetup.PGJDBC, true),
                ratio(c, setup, GroupSetup.PGJDBC, false),
                micros(cpu == null ? -1 : cpu.controllerMicrosPerOp()),
                micros(cpu == null ? -1 : cpu.otherJvmMicrosPerOp()),
                micros(cpu == null ? -1 : cpu.postgresMicrosPerOp()));
    }

    /** The ratio as text, or "" for a setup against itself or against one not measured. */
    private static String ratio(GroupComparison c, GroupSetup setup, GroupSetup base, boolean throughput) {
        if (setup.equals(base) || !c.has(base)) {
            return "";
        }
        return String.format(
                Locale.ROOT, "%.2f", throughput ? c.throughputRatio(setup, base) : c.latencyRatio(setup, base));
    }

    private static String micros(double value) {
        return value < 0 ? "" : String.format(Locale.ROOT, "%.0f", value);
    }

    /** What the terminal shows at the end: the targets. */
    String console() {
        StringBuilder s = new StringBuilder("Targets (issue 16; baseline: one controller without a group):\n");
        for (TargetVerdict v : verdicts()) {
            s.append("  ").append(v.line()).append('\n');
        }
        return s.toString();
    }

    /** The entry for docs/benchmarks.md: how the run was made, the figures, the targets. */
    String markdown() {
        StringBuilder s = new StringBuilder();
        s.append("### ")
                .append(WHEN.format(run.start()))
                .append(" — ")
                .append(run.label())
                .append("\n\n");
        s.append("* Machine: ").append(run.machine().describe());
        if (!run.load().isEmpty()) {
            s.append("; load average at the start ").append(run.load());
        }
        s.append(".\n");
        s.append("* PostgreSQL ")
                .append(run.postgresVersion())
                .append(", data on ")
                .append(run.dataFileSystem())
                .append(", ")
                .append(fsyncSettings())
                .append(".\n");
        s.append("* Backends: ")
                .append(run.backends())
                .append(" embedded PostgreSQL server")
                .append(run.backends() == 1 ? "" : "s")
                .append(" of its own per controller; CPU cap ")
                .append(capStatus)
                .append(".\n");
        s.append("* Controllers: ")
                .append(String.join(
                        ", ", controllers.stream().map(String::valueOf).toList()))
                .append(", ")
                .append(placement.describe())
                .append("; RAIDb-1 (readPolicy roundRobin, completion all), recovery log ")
                .append(run.recoveryLog())
                .append(" (the default); groups: `<controllerGroup>` on tcp-loopback.xml, completion=\"all\" "
                        + "(the default: a write is answered when every controller has applied it). "
                        + "Clients spread round-robin: client i connects to controller i % n.\n");
        s.append(String.format(
                Locale.ROOT,
                "* Clients: %s client thread(s), one connection and one PreparedStatement each, closed loop; %d s warm-up "
                        + "and %d s measured per setup, %d round(s) with the setups rotating, median reported; "
                        + "%,d rows.%n",
                threads.stream()
                        .map(String::valueOf)
                        .reduce((a, b) -> a + ", " + b)
                        .orElse(""),
                run.warmupSeconds(),
                run.durationSeconds(),
                run.rounds(),
                run.rows()));
        s.append("* Everything (clients, controllers, JGroups, PostgreSQL) runs on this one machine.\n\n");
        s.append("| fsync | workload | clients | configuration | ops/s | p50 ms | p99 ms | ops/s ÷ 1 controller "
                + "| p50 ÷ 1 controller | ops/s ÷ pgjdbc | p50 ÷ pgjdbc | controller µs/op | other JVM µs/op "
                + "| PostgreSQL µs/op |\n");
        s.append("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (GroupComparison c : comparisons) {
            for (GroupSetup setup : c.setups()) {
                s.append("| ").append(String.join(" | ", cells(c, setup))).append(" |\n");
            }
        }
        s.append("\nTargets (issue 16; baseline: one controller without a group):\n\n");
        for (TargetVerdict v : verdicts()) {
            s.append("* ").append(v.line()).append('\n');
        }
        return s.toString();
    }

    private String fsyncSettings() {
        boolean on = comparisons.stream().anyMatch(GroupComparison::fsync);
        boolean off = comparisons.stream().anyMatch(c -> !c.fsync());
        return on && off ? "fsync on, then off (servers started afresh)" : on ? "fsync on" : "fsync off";
    }
}
