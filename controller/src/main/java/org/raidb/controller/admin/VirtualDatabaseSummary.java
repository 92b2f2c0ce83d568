package org.raidb.controller.admin;

import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.config.VirtualDatabaseConfig;
import org.raidb.controller.vdb.VirtualDatabase;

/** One line of {@code GET /api/virtualdatabases}. */
record VirtualDatabaseSummary(
        String name,
        String level,
        String scheduler,
        String completion,
        String readPolicy,
        int backendsEnabled,
        int backendsTotal,
        int waitingWrites) {

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
                vdb.scheduler().waitingWrites());
    }
}
