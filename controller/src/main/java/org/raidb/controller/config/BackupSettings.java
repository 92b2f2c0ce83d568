package org.raidb.controller.config;

/**
 * The {@code <backup>} element.
 *
 * @param backuper auto, pgDump or jdbcCopy
 * @param dumpDir where dumps go, or null for {@code <dataDir>/dumps/<virtual database>}
 * @param toolsDir folder of pg_dump and pg_restore, or null to look them up
 */
public record BackupSettings(String backuper, String dumpDir, String toolsDir) {
    public static final BackupSettings DEFAULT = new BackupSettings("auto", null, null);
}
