package org.raidb.driver.protocol;

import java.sql.SQLException;
import java.sql.SQLWarning;

/**
 * The BATCH_RESULT frame, the answer to BATCH:
 * {@code int32 n | n x int64 updateCount | byte hasGeneratedKeys | [rowset] | warnings}.
 *
 * @param counts the update count of each statement or row of the batch
 * @param generatedKeys one row per row of the batch, or null when not asked for
 * @param warnings the chain of the backend that answered, or null
 */
@SuppressWarnings("ArrayRecordComponent") // a decoded frame read by its components, never compared or hashed
public record BatchResultFrame(long[] counts, RowsetCodec.Rowset generatedKeys, SQLWarning warnings) {

    /** Writes the frame; the controller streams the generated keys from its backend's answer. */
    public static void write(
            PayloadWriter w, long[] counts, RowsetCodec.RowsetWriter generatedKeys, SQLWarning warnings)
            throws SQLException {
        w.begin(Protocol.BATCH_RESULT).writeInt(counts.length);
        for (long c : counts) {
            w.writeLong(c);
        }
        ResultTail.write(w, generatedKeys, warnings);
    }

    public void write(PayloadWriter w) throws SQLException {
        write(w, counts, generatedKeys == null ? null : RowsetCodec.writer(generatedKeys), warnings);
    }

    public static BatchResultFrame read(PayloadReader r) throws ProtocolException {
        int n = r.readCount(8);
        long[] counts = new long[n];
        for (int i = 0; i < n; i++) {
            counts[i] = r.readLong();
        }
        RowsetCodec.Rowset keys = ResultTail.readGeneratedKeys(r);
        return new BatchResultFrame(counts, keys, Warnings.read(r));
    }
}
