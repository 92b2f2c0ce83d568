package org.raidb.embedded;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The postgresql.conf settings every embedded server runs with, passed as {@code -c name=value}.
 *
 * <p>Why these values: six servers must fit on a small machine (small shared_buffers), RAIDb-0's
 * two-phase commit needs prepared transactions, and kill -9 tests must be realistic, so fsync and
 * synchronous_commit keep PostgreSQL's defaults (zonky turns both off unless told otherwise).
 */
final class PostgresServerSettings {

    private PostgresServerSettings() {}

    /** The settings; the port is given separately ({@code -p}) by each launcher. */
    static Map<String, String> all() {
        Map<String, String> settings = new LinkedHashMap<>();
        // TCP on loopback only (localhost: zonky's readiness probe may resolve it to ::1), and no Unix
        // socket, so nothing is created in /var/run/postgresql or /tmp next to the machine's own
        // PostgreSQL service.
        settings.put("listen_addresses", "localhost");
        settings.put("unix_socket_directories", "");
        settings.put("max_connections", "200");
        settings.put("shared_buffers", "32MB");
        settings.put("max_prepared_transactions", "20");
        settings.put("fsync", "on");
        settings.put("synchronous_commit", "on");
        settings.put("full_page_writes", "on");
        settings.put("timezone", "UTC");
        // Small WAL and no archiving: data directories stay small in the temp dir.
        settings.put("max_wal_size", "256MB");
        settings.put("log_min_messages", "warning");
        return settings;
    }

    /** {@link #all()} with some values replaced or added (e.g. {@code fsync=off} for a benchmark). */
    static Map<String, String> with(Map<String, String> overrides) {
        Map<String, String> settings = all();
        settings.putAll(overrides);
        return settings;
    }
}
