package org.raidb.tools.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The targets of issue 3, item 7, as they are meant: the latency target is on point SELECT (at
 * every thread count measured; at 1 thread it is the controller's own cost, at 16 queueing adds to
 * it), the throughput target is at 16 client threads, for both workloads.
 */
final class OverheadTargets {
  static final double MAX_SELECT_P50_RATIO = 1.3;
  static final double MIN_THROUGHPUT_RATIO = 0.85;
  static final int THROUGHPUT_THREADS = 16;

  private OverheadTargets() {}

  static List<TargetVerdict> judge(List<Comparison> comparisons) {
    List<TargetVerdict> verdicts = new ArrayList<>();
    for (Comparison c : comparisons) {
      if (c.workload() == Workload.POINT_SELECT) {
        verdicts.add(verdict(String.format(Locale.ROOT, "point SELECT p50 through RAIDb <= %.2fx pgjdbc's at %d thread%s",
            MAX_SELECT_P50_RATIO, c.threads(), c.threads() == 1 ? "" : "s"), c.latencyRatio() <= MAX_SELECT_P50_RATIO,
            c.latencyRatio()));
      }
    }
    for (Workload w : Workload.values()) {
      String target = String.format(Locale.ROOT, "%s throughput through RAIDb >= %.2fx pgjdbc's at %d threads", w.title(),
          MIN_THROUGHPUT_RATIO, THROUGHPUT_THREADS);
      comparisons.stream().filter(c -> c.workload() == w && c.threads() == THROUGHPUT_THREADS).findFirst()
          .ifPresentOrElse(c -> verdicts.add(verdict(target, c.throughputRatio() >= MIN_THROUGHPUT_RATIO, c.throughputRatio())),
              () -> verdicts.add(new TargetVerdict(target, TargetVerdict.Status.NOT_MEASURED,
                  "no " + THROUGHPUT_THREADS + "-thread run")));
    }
    return verdicts;
  }

  private static TargetVerdict verdict(String target, boolean met, double ratio) {
    return new TargetVerdict(target, met ? TargetVerdict.Status.MET : TargetVerdict.Status.NOT_MET,
        String.format(Locale.ROOT, "%.2fx", ratio));
  }
}
