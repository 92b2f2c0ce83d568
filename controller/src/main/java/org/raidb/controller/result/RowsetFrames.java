package org.raidb.controller.result;

import java.util.Arrays;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.RowsetCodec;

/** Writes a rowset streamed from a {@link RowSource}, in the layout of {@link RowsetCodec}. */
public final class RowsetFrames {
    /** A frame of rows stops growing at this size even if the fetch size allows more rows. */
    public static final int BATCH_BYTES = 4 * 1024 * 1024;

    private RowsetFrames() {}

    /** Writes the rowset header and its first batch; returns whether every row was sent. */
    public static boolean writeRowset(PayloadWriter w, long cursorId, RowSource rows, int fetchSize)
            throws java.sql.SQLException {
        int headerAt = w.size();
        RowsetCodec.writeHeader(w, cursorId, Arrays.asList(rows.columns()));
        boolean last = rows.writeBatch(w, fetchSize, BATCH_BYTES);
        if (last) {
            RowsetCodec.markComplete(w, headerAt); // nothing left to fetch: the client must not ask for this cursor
        }
        return last;
    }
}
