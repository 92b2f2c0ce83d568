package org.raidb.driver.protocol;

import java.sql.SQLWarning;

/**
 * The warnings that close RESULTS and BATCH_RESULT frames: what the backend that answered reported
 * while running the statement (PostgreSQL notices and warnings), in order:
 * {@code int32 n | n x (string sqlState | string message | int32 vendorCode)}.
 */
public final class Warnings {
    private Warnings() {}

    public static void write(PayloadWriter w, SQLWarning chain) {
        int countAt = w.size();
        w.writeInt(0);
        int n = 0;
        for (SQLWarning x = chain; x != null; x = x.getNextWarning()) {
            w.writeString(x.getSQLState()).writeString(x.getMessage()).writeInt(x.getErrorCode());
            n++;
        }
        w.patchInt(countAt, n);
    }

    /** The chain, or null when there is none. */
    public static SQLWarning read(PayloadReader r) throws ProtocolException {
        int n = r.readCount(12); // two strings and an int
        SQLWarning first = null;
        for (int i = 0; i < n; i++) {
            String state = r.readString();
            String message = r.readString();
            SQLWarning w = new SQLWarning(message, state, r.readInt());
            if (first == null) {
                first = w;
            } else {
                first.setNextWarning(w);
            }
        }
        return first;
    }
}
