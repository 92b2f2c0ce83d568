package org.raidb.driver.protocol;

import java.sql.BatchUpdateException;
import java.sql.SQLException;

/**
 * The ERROR frame: {@code string sqlState | string message | int32 vendorCode | int32 n | n x int64 updateCounts}.
 * Update counts are present only for a failed batch (n = -1 otherwise).
 */
public final class ErrorFrame {
    private ErrorFrame() {}

    public static void write(PayloadWriter w, SQLException e) {
        w.begin(Protocol.ERROR);
        w.writeString(e.getSQLState());
        w.writeString(e.getMessage());
        w.writeInt(e.getErrorCode());
        if (e instanceof BatchUpdateException b && b.getLargeUpdateCounts() != null) {
            long[] counts = b.getLargeUpdateCounts();
            w.writeInt(counts.length);
            for (long c : counts) {
                w.writeLong(c);
            }
        } else {
            w.writeInt(-1);
        }
    }

    public static SQLException read(PayloadReader r) throws ProtocolException {
        String state = r.readString();
        String message = r.readString();
        int vendor = r.readInt();
        int n = r.readNullableCount(8);
        if (n >= 0) {
            long[] counts = new long[n];
            for (int i = 0; i < n; i++) {
                counts[i] = r.readLong();
            }
            return new BatchUpdateException(message, state, vendor, counts, null);
        }
        return SqlStates.exception(message, state, vendor);
    }
}
