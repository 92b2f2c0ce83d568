package org.raidb.driver.protocol;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The bound values of one statement as EXECUTE and BATCH carry them: {@code int32 n | n × value},
 * n = -1 for none (a plain Statement).
 */
public final class ParameterList {
    /** Values per statement: what PostgreSQL's protocol can bind (its count is 16 bits), so more can never run. */
    public static final int MAX_PARAMETERS = 65_535;
    /** The smallest value on the wire: a tag and one byte (BOOLEAN). */
    private static final int MIN_VALUE_BYTES = 2;

    private ParameterList() {}

    /** Writes the values, or -1 for null. */
    public static void write(PayloadWriter w, List<?> values) {
        if (values == null) {
            w.writeInt(-1);
            return;
        }
        w.writeInt(values.size());
        for (Object v : values) {
            w.writeValue(v);
        }
    }

    /**
     * The values, or null for -1 (a plain Statement). A count the frame cannot hold is a protocol violation;
     * one it holds but no backend binds is refused with 54000, before any value is read.
     */
    public static List<Object> read(PayloadReader f) throws ProtocolException, SQLException {
        int n = f.readNullableCount(MIN_VALUE_BYTES);
        if (n < 0) {
            return null;
        }
        if (n > MAX_PARAMETERS) {
            throw new SQLException(
                    n + " parameters in one statement is more than the " + MAX_PARAMETERS
                            + " a backend can bind: split the statement",
                    SqlStates.PROGRAM_LIMIT_EXCEEDED);
        }
        if (n == 0) {
            return List.of(); // shared: a batch of many rows without parameters costs no list per row
        }
        List<Object> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            values.add(f.readValue());
        }
        return values;
    }
}
