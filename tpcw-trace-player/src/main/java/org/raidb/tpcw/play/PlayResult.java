package org.raidb.tpcw.play;

import java.util.Map;

/**
 * The outcome of one replay. {@code statements} counts every SQL statement sent (those that failed
 * included); {@code skipped} the statements of transactions abandoned after an error;
 * {@code transactions} commits plus auto-commit statements.
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
    Map<String, LatencySummary> latencyByStatementKind) {}
