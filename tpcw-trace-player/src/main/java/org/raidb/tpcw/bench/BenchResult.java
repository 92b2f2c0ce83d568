package org.raidb.tpcw.bench;

/** Peak throughput of one configuration, mix and number of backends. */
public record BenchResult(String mix, String config, int backends, double requestsPerMinute, double transactionsPerSecond,
    long statements, long errors, double elapsedSeconds) {}
