package org.raidb.controller.backend;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import org.raidb.driver.protocol.SqlStates;

/**
 * Decides once, for every path, whether an error means the backend failed (so it must be disabled)
 * or the statement failed (so the client hears about it). DESIGN: SQLState class 08, socket errors and
 * timeouts are backend failures; having no free connection is not (the pool's timeout, though a
 * transient connection exception, says nothing about the backend).
 */
public final class FailureClassifier {
    /** SQLState of a pool that has no free connection in time, or of a server at its connection limit. */
    /** What HikariCP's stand-in for a connection closed under a statement throws, with no SQLState. */
    private static final String HIKARI_CLOSED = "Connection is closed";

    private FailureClassifier() {}

    public static boolean isBackendFailure(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SQLException e) {
                String state = e.getSQLState();
                if (SqlStates.TOO_MANY_CONNECTIONS.equals(state)) {
                    return false; // no free connection (our pool, or the server's limit): the backend itself is fine
                }
                if (state != null
                        && (SqlStates.isConnectionException(state)
                                || state.equals(SqlStates.ADMIN_SHUTDOWN)
                                || state.equals(SqlStates.CRASH_SHUTDOWN)
                                || state.equals(SqlStates.CANNOT_CONNECT_NOW))) {
                    return true; // connection exceptions, and admin/crash shutdown of the server
                }
                if (e instanceof SQLNonTransientConnectionException
                        || e instanceof SQLTransientConnectionException
                        || e instanceof SQLRecoverableException
                        || isClosedConnection(e)) {
                    return true;
                }
            }
            if (c instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    /**
     * HikariCP's closed connection: work queued on a connection that was closed meanwhile (its backend
     * was disabled, its pool closed) fails with this. The connection broke: SQLState 08003 in substance.
     */
    private static boolean isClosedConnection(SQLException e) {
        return e.getSQLState() == null && HIKARI_CLOSED.equals(e.getMessage());
    }

    /** Why a backend whose statement failed with {@code e} (a backend failure) is disabled, for its log line. */
    public static String failureReason(SQLException e) {
        if (e instanceof NoAnswerException) {
            return e.getMessage();
        }
        if (isClosedConnection(e)) {
            return "connection failed: its connection was closed under the statement (SQLState 08003, " + HIKARI_CLOSED
                    + ")";
        }
        return "connection failed" + (e.getSQLState() == null ? "" : " (SQLState " + e.getSQLState() + ")") + ": "
                + e.getMessage();
    }
}
