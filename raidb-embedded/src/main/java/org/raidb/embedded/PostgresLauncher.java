package org.raidb.embedded;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A way to run PostgreSQL binaries on a data directory: zonky's bundled binaries, or the
 * machine's own as a fallback where zonky cannot run.
 */
interface PostgresLauncher {

    /** Said in the log, so that a reader knows which binaries a test used. */
    String description();

    /**
     * Starts a postmaster on {@code dataDirectory}, running initdb first when the directory holds no
     * cluster yet (first start), and returns once it accepts connections (after crash recovery, on a
     * restart after kill -9).
     *
     * @param serverDirectory a directory of this server's own, for the data directory and logs
     */
    LaunchedPostgres start(Path serverDirectory, int port) throws IOException;

    /**
     * The same binaries, started with {@link PostgresServerSettings#all()} where {@code overrides}
     * replaces or adds values.
     */
    PostgresLauncher withSettings(Map<String, String> overrides);

    /** The data directory a launcher uses inside a server's directory. */
    static Path dataDirectory(Path serverDirectory) {
        return serverDirectory.resolve("data");
    }

    /** A postmaster started by a launcher. */
    interface LaunchedPostgres {

        /** Clean, fast shutdown (pg_ctl stop -m fast); the data directory is kept. */
        void stop();

        /**
         * Releases what the launcher holds for a postmaster that was killed (kill -9) behind its
         * back, so that the same data directory can be started again in this JVM.
         */
        void forgetKilled();
    }
}
