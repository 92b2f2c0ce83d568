package org.raidb.test;

import org.raidb.embedded.EmbeddedPostgresServer;

/**
 * A PostgreSQL server hung on purpose for the length of a try-with-resources block:
 * {@link EmbeddedPostgresServer#freeze()} (SIGSTOP of the postmaster and its children) on entry,
 * SIGCONT on close, whatever the test did meanwhile. {@link PostgresClusterExtension} also continues
 * it after each test.
 */
public final class FrozenServer implements AutoCloseable {
    private final EmbeddedPostgresServer server;
    private final int processes;

    private FrozenServer(EmbeddedPostgresServer server) {
        this.server = server;
        this.processes = server.freeze();
    }

    public static FrozenServer freeze(EmbeddedPostgresServer server) {
        return new FrozenServer(server);
    }

    /** How many processes were stopped (postmaster included). */
    public int processes() {
        return processes;
    }

    @Override
    public void close() {
        server.unfreeze();
    }
}
