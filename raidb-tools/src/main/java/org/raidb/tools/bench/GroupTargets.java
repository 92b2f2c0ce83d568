package org.raidb.tools.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Issue 16's targets, judged on one run of {@code raidb bench group}. The baseline is always one
 * controller without a group, what users run today: reads through 2 and 3 controllers at least 1.8x
 * and 2.6x its throughput when the backends are CPU-capped (the databases, not the controllers, are
 * then the bottleneck, and each controller brings its own); single-row UPDATE through 3 controllers
 * at least 0.7x its throughput (the issue says at 16 clients) with a p50 at most 2x its.
 */
final class GroupTargets {
    static final double READ_2 = 1.8;
    static final double READ_3 = 2.6;
    static final double WRITE_THROUGHPUT_3 = 0.7;
    static final double WRITE_P50_3 = 2.0;

    private GroupTargets() {}

    /**
     * One verdict per target and measured (fsync, client count); {@code capped} says whether the
     * backends ran under the CPU cap the read targets assume (their verdict says so when not).
     */
    static List<TargetVerdict> judge(List<GroupComparison> comparisons, boolean capped) {
        return judge(comparisons, capped, ControllerPlacement.IN_PROCESS);
    }

    /** As {@link #judge(List, boolean)}; each verdict says how the controllers ran when not in-process. */
    static List<TargetVerdict> judge(List<GroupComparison> comparisons, boolean capped, ControllerPlacement placement) {
        List<TargetVerdict> verdicts = new ArrayList<>();
        boolean reads = false;
        boolean writes = false;
        for (GroupComparison c : comparisons) {
            String where = String.format(
                    Locale.ROOT,
                    " (%d clients, %s%s%s)",
                    c.threads(),
                    c.fsyncText(),
                    c.workload() == Workload.POINT_SELECT && !capped
                            ? ", backends NOT capped as the target assumes"
                            : "",
                    placement.verdictNote());
            if (c.workload() == Workload.POINT_SELECT) {
                reads = true;
                verdicts.add(atLeast(c, 2, READ_2, "point SELECT ops/s, 2 controllers", where));
                verdicts.add(atLeast(c, 3, READ_3, "point SELECT ops/s, 3 controllers", where));
            } else {
                writes = true;
                verdicts.add(atLeast(c, 3, WRITE_THROUGHPUT_3, "single-row UPDATE ops/s, 3 controllers", where));
                verdicts.add(p50AtMost(c, 3, WRITE_P50_3, where));
            }
        }
        if (!reads) {
            verdicts.add(new TargetVerdict(
                    "point SELECT through 2 and 3 controllers", TargetVerdict.Status.NOT_MEASURED, "no select run"));
        }
        if (!writes) {
            verdicts.add(new TargetVerdict(
                    "single-row UPDATE through 3 controllers", TargetVerdict.Status.NOT_MEASURED, "no update run"));
        }
        return verdicts;
    }

    private static TargetVerdict atLeast(GroupComparison c, int controllers, double target, String what, String where) {
        String text = String.format(Locale.ROOT, "%s >= %.1fx one controller's%s", what, target, where);
        double ratio = c.throughputRatio(GroupSetup.group(controllers), GroupSetup.ONE_CONTROLLER);
        if (Double.isNaN(ratio)) {
            return new TargetVerdict(text, TargetVerdict.Status.NOT_MEASURED, notMeasured(c, controllers));
        }
        return new TargetVerdict(
                text,
                ratio >= target ? TargetVerdict.Status.MET : TargetVerdict.Status.NOT_MET,
                String.format(
                        Locale.ROOT,
                        "%.2fx: %,.0f against %,.0f ops/s",
                        ratio,
                        c.figures(GroupSetup.group(controllers)).opsPerSecond(),
                        c.figures(GroupSetup.ONE_CONTROLLER).opsPerSecond()));
    }

    private static TargetVerdict p50AtMost(GroupComparison c, int controllers, double target, String where) {
        String text = String.format(
                Locale.ROOT,
                "single-row UPDATE p50, %d controllers <= %.1fx one controller's%s",
                controllers,
                target,
                where);
        double ratio = c.latencyRatio(GroupSetup.group(controllers), GroupSetup.ONE_CONTROLLER);
        if (Double.isNaN(ratio)) {
            return new TargetVerdict(text, TargetVerdict.Status.NOT_MEASURED, notMeasured(c, controllers));
        }
        return new TargetVerdict(
                text,
                ratio <= target ? TargetVerdict.Status.MET : TargetVerdict.Status.NOT_MET,
                String.format(
                        Locale.ROOT,
                        "%.2fx: %.3f against %.3f ms",
                        ratio,
                        c.figures(GroupSetup.group(controllers)).p50Millis(),
                        c.figures(GroupSetup.ONE_CONTROLLER).p50Millis()));
    }

    private static String notMeasured(GroupComparison c, int controllers) {
        return c.has(GroupSetup.ONE_CONTROLLER)
                ? controllers + " controllers not in --controllers"
                : "one controller (the baseline) not measured";
    }
}
