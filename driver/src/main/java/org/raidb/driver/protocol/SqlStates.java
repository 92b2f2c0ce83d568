package org.raidb.driver.protocol;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;

/** SQLStates the controller and the driver raise themselves, and the SQLException subclass each maps to. */
public final class SqlStates {
    public static final String WARNING = "01000";
    /** pgjdbc's TOO_MANY_RESULTS: a statement meant to return no rows returned a result set. */
    public static final String TOO_MANY_RESULTS = "0100E";

    public static final String NO_DATA = "02000";
    /** pgjdbc's INVALID_PARAMETER_TYPE: setObject was given a value of a type it cannot send. */
    public static final String RESTRICTED_DATA_TYPE_VIOLATION = "07006";

    public static final String CONNECTION_UNABLE = "08001";
    public static final String CONNECTION_DOES_NOT_EXIST = "08003";
    public static final String CONNECTION_REJECTED = "08004";
    public static final String CONNECTION_FAILURE = "08006";
    public static final String PROTOCOL_VIOLATION = "08P01";
    public static final String FEATURE_NOT_SUPPORTED = "0A000";
    public static final String DATA_EXCEPTION = "22000";
    public static final String NUMERIC_VALUE_OUT_OF_RANGE = "22003";
    public static final String NULL_VALUE_NOT_ALLOWED = "22004";
    public static final String INVALID_DATETIME_FORMAT = "22007";
    public static final String DATETIME_OVERFLOW = "22008";
    public static final String INVALID_TIME_ZONE_DISPLACEMENT = "22009";
    public static final String INVALID_CHARACTER_VALUE_FOR_CAST = "22018";
    public static final String CHARACTER_NOT_IN_REPERTOIRE = "22021";
    public static final String INVALID_PARAMETER_VALUE = "22023";
    public static final String INVALID_TEXT_REPRESENTATION = "22P02";
    public static final String INVALID_CURSOR_STATE = "24000";
    public static final String INVALID_TRANSACTION_STATE = "25000";
    public static final String ACTIVE_TRANSACTION = "25001";
    public static final String READ_ONLY_TRANSACTION = "25006";
    public static final String NO_ACTIVE_SQL_TRANSACTION = "25P01";
    public static final String IN_FAILED_TRANSACTION = "25P02";
    public static final String INVALID_AUTHORIZATION = "28000";
    public static final String INVALID_PASSWORD = "28P01";
    /** EXECUTE or DEALLOCATE of a prepared statement the session does not have. */
    public static final String INVALID_SQL_STATEMENT_NAME = "26000";

    public static final String INVALID_SAVEPOINT = "3B001";
    public static final String INVALID_CATALOG = "3D000";
    public static final String SERIALIZATION_FAILURE = "40001";
    public static final String DEADLOCK_DETECTED = "40P01";
    public static final String SYNTAX_ERROR = "42601";
    public static final String INVALID_NAME = "42602";
    /** PREPARE of a name the session has prepared already. */
    public static final String DUPLICATE_PREPARED_STATEMENT = "42P05";

    public static final String UNDEFINED_COLUMN = "42703";
    /** A named thing (backend, checkpoint, dump) that does not exist. */
    public static final String UNDEFINED_OBJECT = "42704";
    /** A named thing (backend, checkpoint, dump) that exists already. */
    public static final String DUPLICATE_OBJECT = "42710";

    public static final String WRONG_OBJECT_TYPE = "42809";
    public static final String UNDEFINED_TABLE = "42P01";
    public static final String INSUFFICIENT_RESOURCES = "53000";
    public static final String OUT_OF_MEMORY = "53200";
    public static final String TOO_MANY_CONNECTIONS = "53300";
    public static final String PROGRAM_LIMIT_EXCEEDED = "54000";
    /** The object (backend, log, statement, result) is not in the state the operation needs. */
    public static final String OBJECT_NOT_IN_PREREQUISITE_STATE = "55000";

    public static final String OBJECT_IN_USE = "55006";
    public static final String LOCK_NOT_AVAILABLE = "55P03";
    public static final String QUERY_CANCELED = "57014";
    public static final String ADMIN_SHUTDOWN = "57P01";
    public static final String CRASH_SHUTDOWN = "57P02";
    public static final String CANNOT_CONNECT_NOW = "57P03";
    /** Class 58, system error: a file, a disk or an external tool failed, not the SQL. */
    public static final String SYSTEM_ERROR = "58000";

    public static final String IO_ERROR = "58030";
    public static final String UNDEFINED_FILE = "58P01";
    public static final String INTERNAL_ERROR = "XX000";
    /** RAIDb uses it when backends that must hold the same data answer differently. */
    public static final String DATA_CORRUPTED = "XX001";

    private SqlStates() {}

    /** Class 08, connection exception: the connection to the server failed or never existed. */
    public static boolean isConnectionException(String state) {
        return state != null && state.startsWith("08");
    }

    /** Class 58, system error: a file, a disk or a tool outside the database failed. */
    public static boolean isSystemError(String state) {
        return state != null && state.startsWith("58");
    }

    /** Class XX, internal error: a bug or corruption, not the client's mistake. */
    public static boolean isInternalError(String state) {
        return state != null && state.startsWith("XX");
    }

    /**
     * Class 40, transaction rollback: the server chose the transaction as a serialization or deadlock
     * victim and rolled it back. Nothing is wrong with the statement: the application runs the
     * transaction again.
     */
    public static boolean isTransactionRollback(String state) {
        return state != null && state.startsWith("40");
    }

    /** Builds the most specific standard SQLException subclass for a state, as pgjdbc users expect to catch. */
    public static SQLException exception(String message, String state, int vendorCode) {
        if (state == null) {
            return new SQLException(message, null, vendorCode);
        }
        if (state.equals(QUERY_CANCELED)) {
            return new SQLTimeoutException(message, state, vendorCode);
        }
        if (isConnectionException(state)) {
            return state.equals(CONNECTION_FAILURE)
                    ? new SQLTransientConnectionException(message, state, vendorCode)
                    : new SQLNonTransientConnectionException(message, state, vendorCode);
        }
        if (state.startsWith("0A")) {
            return new SQLFeatureNotSupportedException(message, state, vendorCode);
        }
        if (state.startsWith("28")) {
            return new SQLInvalidAuthorizationSpecException(message, state, vendorCode);
        }
        if (state.startsWith("23")) {
            return new SQLIntegrityConstraintViolationException(message, state, vendorCode);
        }
        if (isTransactionRollback(state)) {
            return new SQLTransactionRollbackException(message, state, vendorCode);
        }
        if (state.startsWith("42")) {
            return new SQLSyntaxErrorException(message, state, vendorCode);
        }
        return new SQLException(message, state, vendorCode);
    }
}
