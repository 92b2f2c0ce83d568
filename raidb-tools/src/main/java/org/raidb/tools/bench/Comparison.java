package org.raidb.tools.bench;

/**
 * One workload at one thread count, measured on both sides in the same run.
 *
 * @param pgjdbcCpu what pgjdbc's side cost in CPU, or null when not read
 * @param raidbCpu what RAIDb's side cost in CPU, or null when not read
 */
record Comparison(Workload workload, int threads, Figures pgjdbc, Figures raidb, CpuUse pgjdbcCpu, CpuUse raidbCpu) {

  Comparison(Workload workload, int threads, Figures pgjdbc, Figures raidb) {
    this(workload, threads, pgjdbc, raidb, null, null);
  }

  /**
   * pgjdbc's CPU per operation / RAIDb's: the throughput ratio to expect when the machine's cores are
   * the limit (each side then gets the same cores, and spends them at its own cost per operation).
   */
  double cpuBoundThroughputRatio() {
    return pgjdbcCpu.totalMicrosPerOp() / raidbCpu.totalMicrosPerOp();
  }

  /** RAIDb p50 / pgjdbc p50: how many times longer a typical operation takes through the controller. */
  double latencyRatio() {
    return raidb.p50Millis() / pgjdbc.p50Millis();
  }

  /** RAIDb ops/s / pgjdbc ops/s: the share of plain throughput left through the controller. */
  double throughputRatio() {
    return raidb.opsPerSecond() / pgjdbc.opsPerSecond();
  }
}
