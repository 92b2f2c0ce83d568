package org.raidb.controller.result;

import java.sql.SQLException;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.PayloadWriter;

/** Rows on their way to a client: either already in memory or read from a backend cursor batch by batch. */
public interface RowSource extends AutoCloseable {
    ColumnInfo[] columns();

    /**
     * Writes the next batch ({@code int32 rowCount | rows | byte last}) of at most {@code maxRows} rows,
     * stopping early once the frame holds {@code maxBytes}, so that wide rows cannot blow up a frame.
     *
     * @return whether this was the last batch
     */
    boolean writeBatch(PayloadWriter w, int maxRows, int maxBytes) throws SQLException;

    /** Number of rows, when known without reading them (materialized results); -1 otherwise. */
    long knownRowCount();

    @Override
    void close();
}
