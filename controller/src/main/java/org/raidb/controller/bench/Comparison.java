package org.raidb.controller.bench;

/** One workload at one thread count, measured on both sides in the same run. */
record Comparison(Workload workload, int threads, Figures pgjdbc, Figures raidb) {

  /** RAIDb p50 / pgjdbc p50: how many times longer a typical operation takes through the controller. */
  double latencyRatio() {
    return raidb.p50Millis() / pgjdbc.p50Millis();
  }

  /** RAIDb ops/s / pgjdbc ops/s: the share of plain throughput left through the controller. */
  double throughputRatio() {
    return raidb.opsPerSecond() / pgjdbc.opsPerSecond();
  }
}
