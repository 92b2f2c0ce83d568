package org.raidb.controller.admin;

import java.util.List;
import java.util.Locale;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.jdbcurl.JdbcUrl;

/**
 * One line of {@code GET /api/virtualdatabases/{vdb}/backends}.
 *
 * @param disabledCause why it is out: failure, divergence (enable refuses it) or administrator; null while enabled
 * @param lastCheckpoint the checkpoint a disabled backend stopped at (null while enabled, or when unknown)
 * @param tables the tables (views, sequences) the backend holds and serves, in name order: configured, or read
 *     from its schema and kept current by DDL
 * @param disabledTables tables whose copy on this backend was disabled after a write to it failed there (RAIDb-2)
 */
record BackendSummary(
        String name,
        String url,
        String state,
        String disabledReason,
        String disabledCause,
        int pendingRequests,
        long requestsServed,
        int weight,
        String lastCheckpoint,
        List<String> tables,
        List<String> disabledTables) {

    static BackendSummary of(DatabaseBackend backend) {
        // Without passwords: the API is read by people who may not know the backend's login.
        return new BackendSummary(
                backend.name(),
                JdbcUrl.withoutSecrets(backend.config().url()),
                backend.state().name().toLowerCase(Locale.ROOT),
                backend.disabledReason(),
                backend.disableCause() == null
                        ? null
                        : backend.disableCause().kind().name().toLowerCase(Locale.ROOT),
                backend.pendingRequests(),
                backend.requestsServed(),
                backend.weight(),
                backend.lastCheckpoint(),
                List.copyOf(backend.tables().served()),
                List.copyOf(backend.tables().disabled()));
    }
}
