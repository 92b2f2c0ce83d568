package org.raidb.tools.bench;

import java.util.Locale;
import org.raidb.controller.Controller;
import org.raidb.controller.config.RaidbConfig;

/**
 * A controller that the benchmark can restart: closed, and a new one started with the same configuration, so on the
 * same dataDir and recovery log. Issue 15 wants a restart on a 1.5 M-entry log within 5 s.
 */
final class RestartableController implements AutoCloseable {
    /** Issue 15: a controller restarts on a 1.5 M-entry log within this many seconds. */
    static final double TARGET_RESTART_SECONDS = 5.0;

    private final RaidbConfig config;
    private Controller current;

    /** One restart: the entries the log held, and how long the old controller took to close and the new to start. */
    record Restart(long logEntries, double closeSeconds, double startSeconds) {
        String describe() {
            return String.format(
                    Locale.ROOT,
                    "Restart on the log of %,d entries: the new controller started in **%.2f s** (target at most %.0f"
                            + " s); closing the old one took %.2f s.",
                    logEntries,
                    startSeconds,
                    TARGET_RESTART_SECONDS,
                    closeSeconds);
        }
    }

    private RestartableController(RaidbConfig config, Controller current) {
        this.config = config;
        this.current = current;
    }

    static RestartableController start(RaidbConfig config) throws Exception {
        return new RestartableController(config, Controller.start(config));
    }

    /** The controller running now: after a restart, the new one. */
    Controller current() {
        return current;
    }

    /** Closes the controller and starts a new one on the same dataDir; {@code virtualDatabase} names the log. */
    Restart restart(String virtualDatabase) throws Exception {
        long entries = current.virtualDatabase(virtualDatabase).writeLog().log().lastPosition();
        long closing = System.nanoTime();
        current.close();
        long starting = System.nanoTime();
        current = Controller.start(config);
        return new Restart(entries, (starting - closing) / 1e9, (System.nanoTime() - starting) / 1e9);
    }

    @Override
    public void close() {
        current.close();
    }
}
