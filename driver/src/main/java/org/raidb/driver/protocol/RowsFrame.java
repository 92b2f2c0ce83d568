package org.raidb.driver.protocol;

import java.sql.SQLException;
import java.util.List;

/**
 * The ROWS frame, the answer to FETCH: one batch of a streamed rowset, in {@link RowsetCodec}'s batch
 * layout {@code int32 rowCount | rowCount x columnCount x value | byte last}.
 */
public final class RowsFrame {
    private RowsFrame() {}

    /** Writes the frame around a batch the sender streams (from a backend cursor); returns the batch's {@code last}. */
    public static boolean write(PayloadWriter w, RowsetCodec.BatchWriter batch) throws SQLException {
        w.begin(Protocol.ROWS);
        return batch.write(w);
    }

    /** Writes the frame around rows held in memory. */
    public static void write(PayloadWriter w, List<Object[]> rows, boolean last) {
        w.begin(Protocol.ROWS);
        RowsetCodec.writeBatch(w, rows, last);
    }

    /** Reads the batch of a rowset of {@code columnCount} columns (from its header). */
    public static RowsetCodec.Batch read(PayloadReader r, int columnCount) throws ProtocolException {
        return RowsetCodec.readBatch(r, columnCount);
    }
}
