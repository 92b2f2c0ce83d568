package org.raidb.controller.backend;

import java.sql.SQLTransientConnectionException;
import org.raidb.driver.protocol.SqlStates;

/**
 * A backend did not answer in time: it is hung (a stopped server, a network partition that drops
 * packets without a reset). A connection-level failure (SQLState 08006), so the backend is disabled
 * and what it was running is in doubt there; the message is the reason the disable records.
 */
public final class NoAnswerException extends SQLTransientConnectionException {
    private static final long serialVersionUID = 1L;

    public NoAnswerException(String reason) {
        super(reason, SqlStates.CONNECTION_FAILURE);
    }

    /** The words every hang reason starts with, from the timeout in milliseconds: "backendTimeout (10 s)". */
    public static String backendTimeout(long millis) {
        return "backendTimeout (" + (millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms") + ")";
    }
}
