package org.raidb.recovery;

import java.sql.SQLException;

/**
 * A recovery-log failure. A {@link SQLException} so that the controller can hand it on to a client
 * unchanged, with a SQLState and a message that says what to check.
 */
public class RecoveryLogException extends SQLException {

    // The SQLStates the log raises, named as PostgreSQL names them. This module does not depend on the
    // driver, whose org.raidb.driver.protocol.SqlStates holds the same values for the rest of RAIDb.
    public static final String CONNECTION_UNABLE = "08001";
    public static final String INVALID_PARAMETER_VALUE = "22023";
    public static final String UNIQUE_VIOLATION = "23505";
    /** A checkpoint or position that does not exist. */
    public static final String UNDEFINED_OBJECT = "42704";
    /** The log or a backend is not in the state the operation needs. */
    public static final String OBJECT_NOT_IN_PREREQUISITE_STATE = "55000";

    public static final String OBJECT_IN_USE = "55006";
    public static final String QUERY_CANCELED = "57014";
    /** The log's store could not be created or opened. */
    public static final String SYSTEM_ERROR = "58000";
    /** The log's store could not be written. */
    public static final String IO_ERROR = "58030";

    private static final long serialVersionUID = 1L;

    public RecoveryLogException(String message, String sqlState) {
        super(message, sqlState);
    }

    public RecoveryLogException(String message, String sqlState, Throwable cause) {
        super(message, sqlState, cause);
    }
}
