package org.raidb.recovery;

import java.nio.file.Path;

/**
 * Where and how a virtual database keeps its recovery log.
 *
 * @param jdbcUrl the store: an H2 file (the default, see {@link #h2File}), a PostgreSQL or MariaDB
 *     database, or a RAIDb virtual database so that the log is itself replicated
 * @param tablePrefix prefix of every table name, so that the log can live beside other tables
 * @param virtualDatabase name of the virtual database; several may share one store, each row carries
 *     it in a {@code vdb} column
 * @param maxBatchEntries most operations one store transaction carries (group commit)
 * @param maxWaitMicros how long the writer waits for more operations before committing a batch that
 *     is not full; 0 commits whatever has queued up while the previous commit ran
 */
public record RecoveryLogConfig(
        String jdbcUrl,
        String user,
        String password,
        String tablePrefix,
        String virtualDatabase,
        int maxBatchEntries,
        long maxWaitMicros) {

    public static final String DEFAULT_TABLE_PREFIX = "raidb_";
    public static final int DEFAULT_MAX_BATCH_ENTRIES = 1000;

    public RecoveryLogConfig {
        require(
                jdbcUrl != null && jdbcUrl.startsWith("jdbc:"),
                "recoveryLog.url",
                "a JDBC URL starting with jdbc:, got " + jdbcUrl);
        require(
                tablePrefix != null && tablePrefix.matches("[A-Za-z][A-Za-z0-9_]{0,30}"),
                "recoveryLog.tablePrefix",
                "letters, digits and _ (starting with a letter, at most 31), got " + tablePrefix);
        require(
                virtualDatabase != null && !virtualDatabase.isBlank() && virtualDatabase.length() <= 128,
                "recoveryLog.virtualDatabase",
                "a name of 1 to 128 characters, got " + virtualDatabase);
        require(maxBatchEntries >= 1, "recoveryLog.maxBatchEntries", "at least 1, got " + maxBatchEntries);
        require(maxWaitMicros >= 0, "recoveryLog.maxWaitMicros", "0 or more, got " + maxWaitMicros);
    }

    /** A store at {@code jdbcUrl} with the default prefix and group-commit settings. */
    public static RecoveryLogConfig of(String jdbcUrl, String user, String password, String virtualDatabase) {
        return new RecoveryLogConfig(
                jdbcUrl, user, password, DEFAULT_TABLE_PREFIX, virtualDatabase, DEFAULT_MAX_BATCH_ENTRIES, 0);
    }

    /**
     * The default store: an embedded H2 file {@code <dataDir>/recovery-log/<vdb>.mv.db}. WRITE_DELAY=0
     * makes H2 hand every commit to the operating system at once instead of up to 500 ms later, so a
     * crash of the controller process loses no committed entry (see docs/recovery-log.md for power
     * loss). H2's RETENTION_TIME stays at its default: RETENTION_TIME=0 would reuse a rewritten chunk's
     * space at once, but with it H2 2.3.232 lost committed rows across a close and reopen in our tests
     * (see {@link H2Compaction} and docs/recovery-log.md).
     * The log connects with {@code DB_CLOSE_ON_EXIT=FALSE} added, so that the store stays open
     * until the log closes it, last in a controller's shutdown ({@link StoreUrl}).
     */
    public static RecoveryLogConfig h2File(Path dataDir, String virtualDatabase) {
        Path file = h2Directory(dataDir).resolve(virtualDatabase).toAbsolutePath();
        return of("jdbc:h2:file:" + file + ";WRITE_DELAY=0", "sa", "", virtualDatabase);
    }

    /** The directory of the default stores' files: {@code <dataDir>/recovery-log}. */
    public static Path h2Directory(Path dataDir) {
        return dataDir.resolve("recovery-log");
    }

    public RecoveryLogConfig withTablePrefix(String prefix) {
        return new RecoveryLogConfig(jdbcUrl, user, password, prefix, virtualDatabase, maxBatchEntries, maxWaitMicros);
    }

    public RecoveryLogConfig withGroupCommit(int batchEntries, long waitMicros) {
        return new RecoveryLogConfig(jdbcUrl, user, password, tablePrefix, virtualDatabase, batchEntries, waitMicros);
    }

    private static void require(boolean ok, String setting, String expected) {
        if (!ok) {
            throw new IllegalArgumentException(setting + " must be " + expected);
        }
    }

    @Override
    public String toString() {
        // Never print the password.
        return "RecoveryLogConfig[url=" + jdbcUrl + ", user=" + user + ", prefix=" + tablePrefix + ", vdb="
                + virtualDatabase + ", maxBatchEntries=" + maxBatchEntries + ", maxWaitMicros=" + maxWaitMicros + "]";
    }
}
