package org.raidb.controller.admin;

import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.config.VirtualDatabaseConfig;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.recovery.RecoveryLog;

/**
 * One line of {@code GET /api/virtualdatabases}. {@code recoveryLog} is null when the virtual database runs
 * without a log.
 */
record VirtualDatabaseSummary(
        String name,
        String level,
        String scheduler,
        String completion,
        String readPolicy,
        int backendsEnabled,
        int backendsTotal,
        int waitingWrites,
        LogFigures recoveryLog) {

    /**
     * Entries the log wrote and the store commits that carried them, since the controller started: with
     * concurrent writers one store commit carries many entries (group commit). {@code journalWrites}: with
     * the default embedded H2 store, the journal records that made batches durable (the store then takes
     * thousands of entries per commit). {@code bytesPerEntry}: the
     * store's bytes for the log over the entries it holds ({@link RecoveryLog#bytesPerEntry()}), null when
     * the store cannot say. {@code storeBytes}: the bytes that quotient divides (null when the store cannot say);
     * {@code recordedBytes}: the SQL texts and encoded parameters appended since the controller started. On a log
     * that started empty with the controller, their quotient is the log's size against what it records (issue 15
     * sets it at most 3; {@code bin/raidb tpcw bench} prints it).
     */
    record LogFigures(
            long entriesWritten,
            long storeCommits,
            double entriesPerStoreCommit,
            long journalWrites,
            Double bytesPerEntry,
            Long storeBytes,
            long recordedBytes) {
        static LogFigures of(RecoveryLog log) {
            if (log == null) {
                return null;
            }
            RecoveryLog.GroupCommitStats stats = log.groupCommitStats();
            double perCommit = stats.storeCommits() == 0
                    ? 0
                    : Math.round(stats.entriesWritten() * 100.0 / stats.storeCommits()) / 100.0;
            java.util.OptionalDouble bytes = log.bytesPerEntry();
            long storeBytes = log.storeBytes();
            return new LogFigures(
                    stats.entriesWritten(),
                    stats.storeCommits(),
                    perCommit,
                    stats.journalWrites(),
                    bytes.isPresent() ? Math.round(bytes.getAsDouble() * 10) / 10.0 : null,
                    storeBytes < 0 ? null : storeBytes,
                    log.recordedBytes());
        }
    }

    static VirtualDatabaseSummary of(VirtualDatabase vdb, VirtualDatabaseConfig config) {
        int enabled =
                (int) vdb.backends().stream().filter(DatabaseBackend::isEnabled).count();
        return new VirtualDatabaseSummary(
                vdb.name(),
                config.replication().level(),
                vdb.scheduler().type().configName(),
                config.replication().completion(),
                config.replication().readPolicy(),
                enabled,
                vdb.backends().size(),
                vdb.scheduler().waitingWrites(),
                LogFigures.of(vdb.writeLog().log()));
    }
}
