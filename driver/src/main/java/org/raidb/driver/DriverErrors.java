package org.raidb.driver;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import org.raidb.driver.protocol.SqlStates;

/** The SQLExceptions the driver raises itself, with the SQLStates and messages pgjdbc uses for the same mistakes. */
final class DriverErrors {

    private DriverErrors() {}

    static SQLException of(String message, String state) {
        return SqlStates.exception(message, state, 0);
    }

    static SQLFeatureNotSupportedException notSupported(String what) {
        return new SQLFeatureNotSupportedException(
                what + " is not supported by the RAIDb driver.", SqlStates.FEATURE_NOT_SUPPORTED);
    }

    static SQLException connectionClosed() {
        return of("This connection has been closed.", SqlStates.CONNECTION_DOES_NOT_EXIST);
    }

    static SQLException indexOutOfRange(int index, int count) {
        return of(
                "The column index is out of range: " + index + ", number of columns: " + count + ".",
                SqlStates.INVALID_PARAMETER_VALUE);
    }

    static SQLException badValue(String type, Object value, String state) {
        return of("Bad value for type " + type + " : " + value, state);
    }
}
