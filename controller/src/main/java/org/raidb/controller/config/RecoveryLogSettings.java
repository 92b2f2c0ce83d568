package org.raidb.controller.config;

/**
 * The {@code <recoveryLog>} element.
 *
 * @param enabled false runs the virtual database without a log (nothing can be replayed)
 * @param url JDBC URL of the store, or null for the embedded H2 file under the controller's dataDir
 * @param tablePrefix prefix of the log's table names
 * @param maxBatchEntries group commit: most entries per store commit
 * @param maxWaitMicros group commit: how long the writer waits for more entries
 */
public record RecoveryLogSettings(
        boolean enabled,
        String url,
        String user,
        String password,
        String tablePrefix,
        int maxBatchEntries,
        int maxWaitMicros) {

    public static final RecoveryLogSettings DEFAULT = new RecoveryLogSettings(true, null, "", "", "raidb_", 1000, 0);
    public static final RecoveryLogSettings DISABLED = new RecoveryLogSettings(false, null, "", "", "raidb_", 1000, 0);
}
