package org.raidb.tpcw.play;

import java.sql.SQLException;
import java.util.random.RandomGenerator;

/**
 * When and how soon the player re-runs a transaction that was aborted as a deadlock victim or a
 * serialization failure (SQLState 40001 or 40P01), as a JDBC application should: roll back, wait a
 * short random time so that the transactions that collided do not collide again in step, and send
 * every statement of the transaction again from its first.
 *
 * @param maxRetries re-runs of one transaction at most; past them its abort counts as an error
 * @param baseBackoffMillis the bound of the first wait; each further retry doubles it
 * @param maxBackoffMillis the bound the doubling stops at
 */
public record RetryPolicy(int maxRetries, long baseBackoffMillis, long maxBackoffMillis) {

    public static final int DEFAULT_MAX_RETRIES = 10;

    /** Waits of up to 2, 4, 8 ... ms, never above 100 ms. */
    public static RetryPolicy withMaxRetries(int maxRetries) {
        return new RetryPolicy(maxRetries, 2, 100);
    }

    public static RetryPolicy defaults() {
        return withMaxRetries(DEFAULT_MAX_RETRIES);
    }

    public RetryPolicy {
        if (maxRetries < 0) {
            throw new IllegalArgumentException("max retries must be 0 or more, not " + maxRetries);
        }
        if (baseBackoffMillis < 1 || maxBackoffMillis < baseBackoffMillis) {
            throw new IllegalArgumentException("backoff bounds must satisfy 1 <= base <= max, not " + baseBackoffMillis
                    + " and " + maxBackoffMillis);
        }
    }

    /** Serialization failure or deadlock victim: the transaction was rolled back and running it again may succeed. */
    public static boolean retryable(SQLException e) {
        String state = e.getSQLState();
        return "40001".equals(state) || "40P01".equals(state);
    }

    /** Whether retry number {@code retry} (1 for the first) is still allowed. */
    public boolean allows(int retry) {
        return retry <= maxRetries;
    }

    /** The wait before retry number {@code retry}: uniform in 1 .. min(max, base × 2^(retry-1)) ms. */
    public long backoffMillis(int retry, RandomGenerator random) {
        long bound = Math.min(maxBackoffMillis, baseBackoffMillis << Math.min(Math.max(retry - 1, 0), 30));
        return 1 + random.nextLong(bound);
    }
}
