package org.raidb.controller.config;

/**
 * The {@code <scheduler>} element.
 *
 * @param type optimisticTransaction (default), pessimisticTransaction or query
 * @param lockTimeoutMillis how long a write waits for a conflict class before failing with 55P03
 */
public record SchedulerConfig(String type, int lockTimeoutMillis) {
    public static final SchedulerConfig DEFAULT =
            new SchedulerConfig(ConfigDefaults.SCHEDULER, ConfigDefaults.LOCK_TIMEOUT_MILLIS);
}
