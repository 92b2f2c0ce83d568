package org.raidb.tools.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The targets the overhead benchmark judges, per fsync setting, on the figures of one run.
 *
 * <p>Issue 3, item 7: point SELECT p50 through RAIDb at most 1.3x pgjdbc's (at every thread count
 * measured), and 16-thread throughput at least 0.85x pgjdbc's for both workloads.
 *
 * <p>Issue 14: single-row UPDATE through RAIDb-1 over 2 backends with the recovery log on, 16
 * clients: at least 0.8x direct pgjdbc and 2x pgpool-II; 1 client p50 at most 1.5x direct; the
 * recovery log costs at most 10 % of UPDATE throughput at 16 clients; the controller's CPU per point
 * SELECT at most 20 µs. A target the run did not measure (one backend, no pgpool, log off only, no
 * 16-thread run) is said to be not measured, never met.
 */
final class OverheadTargets {
    static final double MAX_SELECT_P50_RATIO = 1.3;
    static final double MIN_THROUGHPUT_RATIO = 0.85;
    static final int THROUGHPUT_THREADS = 16;
    static final double MIN_UPDATE_RATIO_TO_DIRECT = 0.8;
    static final double MIN_UPDATE_RATIO_TO_PGPOOL = 2.0;
    static final double MAX_UPDATE_P50_RATIO_1_CLIENT = 1.5;
    static final double MIN_LOG_ON_OFF_RATIO = 0.9;
    static final double MAX_CONTROLLER_MICROS_PER_SELECT = 20;

    private OverheadTargets() {}

    /** Issue 3's targets (on RAIDb as run: log on, or log off and said so), then issue 14's; {@code backends} as run. */
    static List<TargetVerdict> judge(List<Comparison> comparisons, int backends) {
        List<TargetVerdict> verdicts = new ArrayList<>();
        for (boolean fsync : fsyncSettings(comparisons)) {
            List<Comparison> run =
                    comparisons.stream().filter(c -> c.fsync() == fsync).toList();
            String prefix = comparisons.stream().anyMatch(c -> c.fsync() != fsync)
                    ? "[" + run.get(0).fsyncText() + "] "
                    : "";
            issue3(run, prefix, verdicts);
            issue14(run, backends, prefix, verdicts);
        }
        return verdicts;
    }

    /** Without a backend count: issue 3's targets and issue 14's as measured on one backend. */
    static List<TargetVerdict> judge(List<Comparison> comparisons) {
        return judge(comparisons, 1);
    }

    private static List<Boolean> fsyncSettings(List<Comparison> comparisons) {
        return comparisons.stream().map(Comparison::fsync).distinct().toList();
    }

    private static void issue3(List<Comparison> run, String prefix, List<TargetVerdict> verdicts) {
        for (Comparison c : run) {
            if (c.workload() == Workload.POINT_SELECT) {
                verdicts.add(verdict(
                        prefix
                                + String.format(
                                        Locale.ROOT,
                                        "point SELECT p50 through %s <= %.2fx pgjdbc's at %d thread%s",
                                        c.raidb().title(),
                                        MAX_SELECT_P50_RATIO,
                                        c.threads(),
                                        c.threads() == 1 ? "" : "s"),
                        c.latencyRatio(c.raidb(), Side.PGJDBC) <= MAX_SELECT_P50_RATIO,
                        c.latencyRatio(c.raidb(), Side.PGJDBC)));
            }
        }
        // The RAIDb side this run measured, named even in a verdict it could not give.
        String side = run.isEmpty() ? Side.RAIDB.title() : run.get(0).raidb().title();
        for (Workload w : Workload.values()) {
            Optional<Comparison> at16 = find(run, w, THROUGHPUT_THREADS);
            String target = prefix
                    + String.format(
                            Locale.ROOT,
                            "%s throughput through %s >= %.2fx pgjdbc's at %d threads",
                            w.title(),
                            side,
                            MIN_THROUGHPUT_RATIO,
                            THROUGHPUT_THREADS);
            at16.ifPresentOrElse(
                    c -> verdicts.add(verdict(
                            target,
                            c.throughputRatio(c.raidb(), Side.PGJDBC) >= MIN_THROUGHPUT_RATIO,
                            c.throughputRatio(c.raidb(), Side.PGJDBC))),
                    () -> verdicts.add(notMeasured(target, "no " + THROUGHPUT_THREADS + "-thread run")));
        }
    }

    private static void issue14(List<Comparison> run, int backends, String prefix, List<TargetVerdict> verdicts) {
        String raidb2 = "RAIDb-1 on 2 backends, log on,";
        Optional<Comparison> update16 = find(run, Workload.SINGLE_ROW_UPDATE, THROUGHPUT_THREADS);
        Optional<Comparison> update1 = find(run, Workload.SINGLE_ROW_UPDATE, 1);
        String why2 = backends != 2 ? "run on " + backends + " backend" + (backends == 1 ? "" : "s") : null;

        String toDirect = prefix
                + String.format(
                        Locale.ROOT,
                        "single-row UPDATE throughput through %s >= %.2fx pgjdbc's " + "(one server) at %d threads",
                        raidb2,
                        MIN_UPDATE_RATIO_TO_DIRECT,
                        THROUGHPUT_THREADS);
        judgeRatio(
                verdicts,
                toDirect,
                why2,
                update16,
                THROUGHPUT_THREADS,
                Side.RAIDB,
                Side.PGJDBC,
                MIN_UPDATE_RATIO_TO_DIRECT,
                true);

        String toPgpool = prefix
                + String.format(
                        Locale.ROOT,
                        "single-row UPDATE throughput through %s >= %.2fx pgpool-II's " + "at %d threads",
                        raidb2,
                        MIN_UPDATE_RATIO_TO_PGPOOL,
                        THROUGHPUT_THREADS);
        judgeRatio(
                verdicts,
                toPgpool,
                why2,
                update16,
                THROUGHPUT_THREADS,
                Side.RAIDB,
                Side.PGPOOL,
                MIN_UPDATE_RATIO_TO_PGPOOL,
                true);

        String p50 = prefix
                + String.format(
                        Locale.ROOT,
                        "single-row UPDATE p50 through %s <= %.2fx pgjdbc's at 1 thread",
                        raidb2,
                        MAX_UPDATE_P50_RATIO_1_CLIENT);
        judgeRatio(verdicts, p50, why2, update1, 1, Side.RAIDB, Side.PGJDBC, MAX_UPDATE_P50_RATIO_1_CLIENT, false);

        String log = prefix
                + String.format(
                        Locale.ROOT,
                        "recovery log cost: single-row UPDATE throughput log on >= %.2fx " + "log off at %d threads",
                        MIN_LOG_ON_OFF_RATIO,
                        THROUGHPUT_THREADS);
        judgeRatio(
                verdicts,
                log,
                null,
                update16,
                THROUGHPUT_THREADS,
                Side.RAIDB,
                Side.RAIDB_LOG_OFF,
                MIN_LOG_ON_OFF_RATIO,
                true);

        Optional<Comparison> select16 = find(run, Workload.POINT_SELECT, THROUGHPUT_THREADS);
        String cpu = prefix
                + String.format(
                        Locale.ROOT,
                        "controller CPU per point SELECT <= %.0f µs at %d threads",
                        MAX_CONTROLLER_MICROS_PER_SELECT,
                        THROUGHPUT_THREADS);
        if (select16.isEmpty() || !select16.get().hasCpu()) {
            verdicts.add(notMeasured(cpu, select16.isEmpty() ? "no 16-thread point SELECT run" : "no CPU figures"));
        } else {
            Comparison c = select16.get();
            double micros = c.cpu(c.raidb()).controllerMicrosPerOp();
            verdicts.add(new TargetVerdict(
                    cpu,
                    micros <= MAX_CONTROLLER_MICROS_PER_SELECT
                            ? TargetVerdict.Status.MET
                            : TargetVerdict.Status.NOT_MET,
                    String.format(Locale.ROOT, "%.1f µs, %s", micros, c.raidb().title())));
        }
    }

    /** {@code side}/{@code base} ops/s (at least {@code bound}) or p50 (at most {@code bound}). */
    private static void judgeRatio(
            List<TargetVerdict> verdicts,
            String target,
            String notRunReason,
            Optional<Comparison> comparison,
            int threads,
            Side side,
            Side base,
            double bound,
            boolean throughput) {
        if (notRunReason != null) {
            verdicts.add(notMeasured(target, notRunReason));
        } else if (comparison.isEmpty()) {
            verdicts.add(notMeasured(target, "no " + threads + "-thread single-row UPDATE run"));
        } else if (!comparison.get().has(side) || !comparison.get().has(base)) {
            verdicts.add(notMeasured(target, "no " + (comparison.get().has(side) ? base : side).title() + " side"));
        } else {
            Comparison c = comparison.get();
            double ratio = throughput ? c.throughputRatio(side, base) : c.latencyRatio(side, base);
            verdicts.add(verdict(target, throughput ? ratio >= bound : ratio <= bound, ratio));
        }
    }

    private static Optional<Comparison> find(List<Comparison> run, Workload w, int threads) {
        return run.stream()
                .filter(c -> c.workload() == w && c.threads() == threads)
                .findFirst();
    }

    private static TargetVerdict notMeasured(String target, String why) {
        return new TargetVerdict(target, TargetVerdict.Status.NOT_MEASURED, why);
    }

    private static TargetVerdict verdict(String target, boolean met, double ratio) {
        return new TargetVerdict(
                target,
                met ? TargetVerdict.Status.MET : TargetVerdict.Status.NOT_MET,
                String.format(Locale.ROOT, "%.2fx", ratio));
    }
}
