package org.raidb.embedded;

import io.zonky.test.db.postgres.util.LinuxUtils;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which binaries a cluster runs: zonky's bundled ones when they can run, else the machine's own.
 * The system property {@value #PROPERTY} ({@code auto}, {@code zonky} or {@code system}) forces a
 * choice, e.g. to test the fallback on a machine where zonky works.
 */
final class LauncherChoice {

    static final String PROPERTY = "raidb.embedded.launcher";
    private static final Logger log = LoggerFactory.getLogger(LauncherChoice.class);

    private LauncherChoice() {}

    enum Mode {
        AUTO,
        ZONKY,
        SYSTEM
    }

    static Mode mode() {
        return Mode.valueOf(System.getProperty(PROPERTY, "auto").trim().toUpperCase(Locale.ROOT));
    }

    /** The launcher to try first. */
    static PostgresLauncher first() {
        return switch (mode()) {
            case ZONKY -> new ZonkyLauncher();
            case SYSTEM ->
                system().orElseThrow(() -> new IllegalStateException(
                        PROPERTY + "=system but no /usr/lib/postgresql/*/bin with initdb and pg_ctl (or no runuser)"));
            case AUTO -> {
                if (CurrentUser.isRoot() && !LinuxUtils.isUnshareAvailable()) {
                    Optional<PostgresLauncher> system = system();
                    if (system.isPresent()) {
                        log.warn(
                                "running as root and 'unshare -U' is not available (user namespaces blocked?): zonky's"
                                        + " binaries cannot run, falling back to {}",
                                system.get().description());
                        yield system.get();
                    }
                    log.warn(
                            "running as root without 'unshare -U' and no system PostgreSQL: zonky will most likely fail");
                }
                yield new ZonkyLauncher();
            }
        };
    }

    /** The launcher to retry with after {@code failed} could not start a cluster, in auto mode. */
    static Optional<PostgresLauncher> fallbackAfter(PostgresLauncher failed) {
        if (mode() != Mode.AUTO || !(failed instanceof ZonkyLauncher)) {
            return Optional.empty();
        }
        return system();
    }

    private static Optional<PostgresLauncher> system() {
        return SystemBinariesLauncher.find().map(l -> l);
    }
}
