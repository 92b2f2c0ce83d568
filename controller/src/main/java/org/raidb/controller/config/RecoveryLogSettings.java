package org.raidb.controller.config;

import java.time.Duration;

/**
 * The {@code <recoveryLog>} element.
 *
 * @param enabled false runs the virtual database without a log (nothing can be replayed)
 * @param url JDBC URL of the store, or null for the embedded H2 file under the controller's dataDir
 * @param tablePrefix prefix of the log's table names
 * @param maxBatchEntries group commit: most entries per store commit
 * @param maxWaitMicros group commit: how long the writer waits for more entries
 * @param purgeAfter automatic purge: entries older than this that no backend and no dump needs are deleted;
 *     null turns it off ({@code purgeAfter="off"})
 */
public record RecoveryLogSettings(
        boolean enabled,
        String url,
        String user,
        String password,
        String tablePrefix,
        int maxBatchEntries,
        int maxWaitMicros,
        Duration purgeAfter) {

    public static final Duration DEFAULT_PURGE_AFTER = Duration.ofHours(24);
    public static final RecoveryLogSettings DEFAULT =
            new RecoveryLogSettings(true, null, "", "", "raidb_", 1000, 0, DEFAULT_PURGE_AFTER);
    public static final RecoveryLogSettings DISABLED =
            new RecoveryLogSettings(false, null, "", "", "raidb_", 1000, 0, DEFAULT_PURGE_AFTER);

    /** {@code off}, or a number followed by s, m, h or d (the schema checks the form). */
    static Duration parsePurgeAfter(String value) {
        return value.equals("off") ? null : parseAge(value, "recoveryLog/@purgeAfter");
    }

    /** A number followed by s, m, h or d (the schema checks the form); {@code attribute} names it in the error. */
    static Duration parseAge(String value, String attribute) {
        long n = Long.parseLong(value.substring(0, value.length() - 1));
        return switch (value.charAt(value.length() - 1)) {
            case 's' -> Duration.ofSeconds(n);
            case 'm' -> Duration.ofMinutes(n);
            case 'h' -> Duration.ofHours(n);
            case 'd' -> Duration.ofDays(n);
            default ->
                throw new IllegalArgumentException(
                        attribute + " must be a number followed by s, m, h or d (24h), got " + value);
        };
    }
}
