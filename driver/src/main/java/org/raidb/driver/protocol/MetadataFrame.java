package org.raidb.driver.protocol;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The METADATA frame, a DatabaseMetaData method that returns a ResultSet, with its arguments in order:
 * {@code string method | int32 argCount | argCount x value}. Answered by RESULTS with one complete rowset.
 */
public record MetadataFrame(String method, List<Object> arguments) {
    /** No DatabaseMetaData method that returns a ResultSet takes more arguments (getCrossReference takes 6). */
    public static final int MAX_ARGUMENTS = 8;

    public void write(PayloadWriter w) {
        w.begin(Protocol.METADATA).writeString(method).writeInt(arguments.size());
        for (Object arg : arguments) {
            w.writeValue(arg);
        }
    }

    /** Reads the payload; more than {@link #MAX_ARGUMENTS} arguments is refused with 0A000 before any is read. */
    public static MetadataFrame read(PayloadReader r) throws ProtocolException, SQLException {
        String method = r.readString();
        int n = r.readCount(2);
        if (n > MAX_ARGUMENTS) {
            throw new SQLException(
                    "no DatabaseMetaData method takes " + n + " arguments", SqlStates.FEATURE_NOT_SUPPORTED);
        }
        List<Object> arguments = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            arguments.add(r.readValue());
        }
        return new MetadataFrame(method, arguments);
    }
}
