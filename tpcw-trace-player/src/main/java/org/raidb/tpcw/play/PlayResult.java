package org.raidb.tpcw.play;

import java.util.Map;

/**
 * The outcome of one replay. {@code statements} counts every SQL statement sent (those that failed
 * included); {@code skipped} the statements of transactions abandoned after an error;
 * {@code transactions} commits plus auto-commit statements. A transaction aborted with 40001 or
 * 40P01 is run again up to {@code maxRetries} times: {@code retries} counts the re-runs (by
 * interaction in {@code retriesByInteraction}), {@code retriedStatements} the statements the aborted
 * attempts had sent, which {@code statements} does not count (each trace statement counts once
 * there), while the latencies by statement kind hold every statement sent.
 */
public record PlayResult(
        String url,
        String pace,
        int threads,
        int traceSessions,
        long traceStatements,
        double elapsedSeconds,
        long statements,
        long skipped,
        long transactions,
        long rolledBack,
        long errors,
        Map<String, Long> errorsBySqlState,
        double requestsPerMinute,
        double transactionsPerSecond,
        Map<String, LatencySummary> latencyByInteraction,
        Map<String, LatencySummary> latencyByStatementKind,
        int maxRetries,
        long retries,
        Map<String, Long> retriesByInteraction,
        long retriedStatements) {}
