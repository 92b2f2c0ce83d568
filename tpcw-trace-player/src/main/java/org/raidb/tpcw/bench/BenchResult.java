package org.raidb.tpcw.bench;

/**
 * Peak throughput of one configuration, mix and number of backends.
 *
 * @param retries transactions the player re-ran after a 40001/40P01 abort (see {@code PlayResult#retries()})
 * @param replicasIdentical after a replay through a controller, whether every backend ended with the same
 *     per-table checksums; null without a controller
 */
public record BenchResult(
        String mix,
        String config,
        int backends,
        double requestsPerMinute,
        double transactionsPerSecond,
        long statements,
        long errors,
        long retries,
        double elapsedSeconds,
        Boolean replicasIdentical) {}
