package org.raidb.controller.config;

/**
 * The {@code <health>} element: how long a backend may leave a statement unanswered, and how often
 * each backend is asked whether it still answers at all.
 *
 * @param backendTimeoutMillis a backend that has not answered a statement this long after the others did (or,
 *     for a statement only it runs, that has not answered the health probe sent meanwhile either) is disabled
 * @param probeIntervalMillis how often each enabled backend answers {@code SELECT 1} on a connection of its own;
 *     0: never
 */
public record HealthSettings(int backendTimeoutMillis, int probeIntervalMillis) {
    public static final HealthSettings DEFAULT = new HealthSettings(10_000, 5_000);

    /** The longest a session waits for a pooled connection: half the timeout, at most HikariCP's usual 5 s. */
    public long poolWaitMillis() {
        return Math.max(250, Math.min(5_000, backendTimeoutMillis / 2));
    }
}
