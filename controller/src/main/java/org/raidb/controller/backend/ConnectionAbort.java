package org.raidb.controller.backend;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * {@link Connection#abort}: closes the socket under a thread that may be blocked reading from a hung
 * server, which then fails with a connection error (08006) instead of waiting for TCP to give up.
 */
final class ConnectionAbort {
    private ConnectionAbort() {}

    static void abort(Connection c) {
        if (c == null) {
            return;
        }
        try {
            // Closing a socket does not block: the calling thread may do it.
            c.abort(Runnable::run);
        } catch (SQLException | RuntimeException ignored) {
            // already closed, or the driver cannot abort: its socket timeout or the pool's close ends it
        }
    }
}
