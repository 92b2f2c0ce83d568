package org.raidb.controller.tree;

import java.sql.SQLException;
import org.raidb.driver.protocol.SqlStates;

/** A connection refused because the controllers it would link form a cycle; the message names it. */
public final class ControllerCycleException extends SQLException {
    private static final long serialVersionUID = 1L;

    ControllerCycleException(String message) {
        super(message, SqlStates.CONNECTION_REJECTED);
    }
}
