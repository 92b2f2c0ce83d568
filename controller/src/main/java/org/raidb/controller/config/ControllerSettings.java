package org.raidb.controller.config;

import java.nio.file.Path;

/**
 * The {@code <controller>} element.
 *
 * @param host address the client (driver) port listens on (default 0.0.0.0: every interface)
 * @param port client port (default 25322; 0 picks a free port, for tests)
 * @param adminHost address the admin HTTP API listens on (default 127.0.0.1: only this machine)
 * @param adminPort admin HTTP port (default 25380; 0 picks a free port)
 * @param dataDir where the controller keeps its files (recovery log, dumps), relative to the working directory
 * @param maxFrameBytes largest protocol frame accepted from a logged-in client (default 64 MiB)
 * @param allowH2BackendsFromAdmin whether virtual database admins may add H2 backends through the admin API
 *     (default false: an H2 URL opens files and runs SQL on the controller's host)
 * @param shutdownTimeoutMillis how long a stop waits for sessions, background operations and writes in
 *     flight to end before it records the final checkpoint anyway (default 30 s)
 * @param clientLimits what a client may cost before and around login
 * @param postgresWire the PostgreSQL wire-protocol front end ({@code pgPort}, {@code pgAuthentication}); off by
 *     default
 * @param tls the certificate clients connect with over TLS, and whether plain TCP is refused; null: plain
 *     TCP only
 * @param metricsPort the port of the unauthenticated Prometheus {@code /metrics} listener on 127.0.0.1 (0 picks a
 *     free port); {@link #NO_METRICS_PORT} (the default): none, {@code /metrics} is on the admin port only
 */
public record ControllerSettings(
        String host,
        int port,
        String adminHost,
        int adminPort,
        Path dataDir,
        int maxFrameBytes,
        boolean allowH2BackendsFromAdmin,
        int shutdownTimeoutMillis,
        ClientLimits clientLimits,
        PostgresWireSettings postgresWire,
        TlsConfig tls,
        int metricsPort) {

    /** {@link #metricsPort} when no unauthenticated metrics listener is configured. */
    public static final int NO_METRICS_PORT = -1;

    /** With the default shutdown timeout and client limits, without the PostgreSQL front end, TLS and the metrics listener (tools and benchmarks that build their configuration in code). */
    public ControllerSettings(
            String host,
            int port,
            String adminHost,
            int adminPort,
            Path dataDir,
            int maxFrameBytes,
            boolean allowH2BackendsFromAdmin) {
        this(
                host,
                port,
                adminHost,
                adminPort,
                dataDir,
                maxFrameBytes,
                allowH2BackendsFromAdmin,
                ConfigDefaults.SHUTDOWN_TIMEOUT_MILLIS,
                ClientLimits.DEFAULT,
                PostgresWireSettings.OFF,
                null,
                NO_METRICS_PORT);
    }
}
