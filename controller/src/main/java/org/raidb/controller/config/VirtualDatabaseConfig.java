package org.raidb.controller.config;

import java.time.Duration;
import java.util.List;

/**
 * One {@code <virtualDatabase>}: its users, its backends, how writes are ordered and how requests are spread.
 *
 * @param verifyEvery how often its backends are verified ({@code <verify every="1h"/>}); null: only when asked
 * @param resultCache its query result cache ({@code <resultCache>}); null: reads are never cached
 */
public record VirtualDatabaseConfig(
        String name,
        AuthenticationConfig authentication,
        List<BackendConfig> backends,
        ReplicationConfig replication,
        SchedulerConfig scheduler,
        RecoveryLogSettings recoveryLog,
        BackupSettings backup,
        DeterminismConfig determinism,
        HealthSettings health,
        GroupConfig group,
        Duration verifyEvery,
        ResultCacheConfig resultCache) {

    /** A virtual database verified only when an administrator asks. */
    public VirtualDatabaseConfig(
            String name,
            AuthenticationConfig authentication,
            List<BackendConfig> backends,
            ReplicationConfig replication,
            SchedulerConfig scheduler,
            RecoveryLogSettings recoveryLog,
            BackupSettings backup,
            DeterminismConfig determinism,
            HealthSettings health,
            GroupConfig group) {
        this(
                name,
                authentication,
                backends,
                replication,
                scheduler,
                recoveryLog,
                backup,
                determinism,
                health,
                group,
                null,
                null);
    }

    /** A virtual database served by this controller alone (no {@code <controllerGroup>}). */
    public VirtualDatabaseConfig(
            String name,
            AuthenticationConfig authentication,
            List<BackendConfig> backends,
            ReplicationConfig replication,
            SchedulerConfig scheduler,
            RecoveryLogSettings recoveryLog,
            BackupSettings backup,
            DeterminismConfig determinism,
            HealthSettings health) {
        this(name, authentication, backends, replication, scheduler, recoveryLog, backup, determinism, health, null);
    }

    /** A virtual database with the default scheduler, recovery log, backuper and health settings. */
    public VirtualDatabaseConfig(
            String name,
            AuthenticationConfig authentication,
            List<BackendConfig> backends,
            ReplicationConfig replication) {
        this(
                name,
                authentication,
                backends,
                replication,
                SchedulerConfig.DEFAULT,
                RecoveryLogSettings.DEFAULT,
                BackupSettings.DEFAULT,
                DeterminismConfig.DEFAULT,
                HealthSettings.DEFAULT,
                null);
    }

    /** A virtual database with the default determinism and health settings. */
    public VirtualDatabaseConfig(
            String name,
            AuthenticationConfig authentication,
            List<BackendConfig> backends,
            ReplicationConfig replication,
            SchedulerConfig scheduler,
            RecoveryLogSettings recoveryLog,
            BackupSettings backup) {
        this(
                name,
                authentication,
                backends,
                replication,
                scheduler,
                recoveryLog,
                backup,
                DeterminismConfig.DEFAULT,
                HealthSettings.DEFAULT,
                null);
    }

    /** The same virtual database with one more backend (added online by an administrator). */
    public VirtualDatabaseConfig withBackend(BackendConfig backend) {
        List<BackendConfig> all = new java.util.ArrayList<>(backends);
        all.add(backend);
        return new VirtualDatabaseConfig(
                name,
                authentication,
                List.copyOf(all),
                replication,
                scheduler,
                recoveryLog,
                backup,
                determinism,
                health,
                group,
                verifyEvery,
                resultCache);
    }

    /** Whether a controller group serves this virtual database. */
    public boolean grouped() {
        return group != null;
    }
}
