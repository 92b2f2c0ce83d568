package org.raidb.driver;

import java.sql.SQLException;
import java.util.Arrays;
import org.raidb.driver.protocol.SqlStates;

/** The values bound to a statement's placeholders, 1-based, remembering which were never set. */
final class ParameterValues {
    private static final Object UNSET = new Object();
    private final Object[] values;

    ParameterValues(int count) {
        values = new Object[count];
        Arrays.fill(values, UNSET);
    }

    int count() {
        return values.length;
    }

    void set(int index, Object value) throws SQLException {
        check(index);
        values[index - 1] = value;
    }

    boolean isSet(int index) {
        return values[index - 1] != UNSET;
    }

    /** The value set at {@code index}, or null if none. */
    Object get(int index) throws SQLException {
        check(index);
        return isSet(index) ? values[index - 1] : null;
    }

    void clear() {
        Arrays.fill(values, UNSET);
    }

    /** A copy of every value, failing on the first parameter left unset (as pgjdbc, SQLState 22023). */
    Object[] snapshot() throws SQLException {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == UNSET) {
                throw unset(i + 1);
            }
        }
        return values.clone();
    }

    static SQLException unset(int index) {
        return DriverErrors.of("No value specified for parameter " + index + ".", SqlStates.INVALID_PARAMETER_VALUE);
    }

    private void check(int index) throws SQLException {
        if (index < 1 || index > values.length) {
            throw DriverErrors.indexOutOfRange(index, values.length);
        }
    }
}
