package org.raidb.controller.pgwire;

import java.io.IOException;

/**
 * A client broke the PostgreSQL protocol (an unknown message type, a length past the frame limit, a message
 * shorter than its fields): the connection can no longer be read in step, so it is answered with an
 * ErrorResponse (08P01, or 54000 for a message too large) and closed.
 */
final class PgProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String sqlState;

    PgProtocolException(String message) {
        this(message, "08P01");
    }

    PgProtocolException(String message, String sqlState) {
        super(message);
        this.sqlState = sqlState;
    }

    String sqlState() {
        return sqlState;
    }
}
