package org.raidb.controller.pgwire;

import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.raidb.controller.result.RowSource;
import org.raidb.controller.result.RowsetFrames;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.ProtocolException;
import org.raidb.driver.protocol.RowsetCodec;
import org.raidb.driver.protocol.SqlStates;

/**
 * The rows of a result on their way to a PostgreSQL client, a batch at a time: the request path's {@link
 * RowSource} writes each batch in the driver's row codec, which is read back here into values. One codec for
 * rows, whichever protocol the client speaks; never more than a batch in memory.
 */
final class PgRows implements AutoCloseable {
    private static final int BATCH_ROWS = 1000;

    private final RowSource source;
    private final ColumnInfo[] columns;
    /** One per result, and most results are a row or two: it starts small and grows with the batch. */
    private final PayloadWriter batch = new PayloadWriter(512);

    private List<Object[]> pending = List.of();
    private int next;
    private boolean sourceDone;
    private boolean closed;
    private long sent;

    PgRows(RowSource source) {
        this.source = source;
        this.columns = source.columns();
    }

    ColumnInfo[] columns() {
        return columns;
    }

    /** The fields of a RowDescription: each column's name and type, in the format the client asked for. */
    List<PgField> fields(int[] resultFormats) {
        List<PgField> fields = new ArrayList<>(columns.length);
        for (int i = 0; i < columns.length; i++) {
            fields.add(PgField.of(columns[i], format(resultFormats, i)));
        }
        return fields;
    }

    static int format(int[] formats, int column) {
        return formats.length == 0 ? 0 : formats.length == 1 ? formats[0] : formats[column];
    }

    /** Whether a row is left; reads the next batch from the backend when this one is used up. */
    boolean hasNext() throws SQLException {
        while (next == pending.size()) {
            if (sourceDone) {
                return false;
            }
            readBatch();
        }
        return true;
    }

    /** The next row, or null after the last one. */
    Object[] next() throws SQLException {
        if (!hasNext()) {
            return null;
        }
        sent++;
        return pending.get(next++);
    }

    /** Rows handed out so far: the count in the SELECT tag. */
    long sent() {
        return sent;
    }

    private void readBatch() throws SQLException {
        batch.clear();
        sourceDone = source.writeBatch(batch, BATCH_ROWS, RowsetFrames.BATCH_BYTES);
        ByteBuffer written = batch.written(0, batch.size());
        byte[] bytes = new byte[written.remaining()];
        written.get(bytes);
        try {
            pending = RowsetCodec.readBatch(new PayloadReader((byte) 0, bytes, 0, bytes.length), columns.length)
                    .rows();
        } catch (ProtocolException e) {
            throw new SQLException(
                    "internal controller error reading a batch of rows: " + e.getMessage(),
                    SqlStates.INTERNAL_ERROR,
                    e);
        }
        next = 0;
        if (sourceDone) {
            close(); // its backend connection goes back now, not when the client closes the portal
        }
    }

    /** One row in the client's formats, timestamptz text in the session's {@code timeZone}. */
    byte[][] encode(Object[] row, int[] resultFormats, java.time.ZoneId timeZone) throws SQLException {
        byte[][] values = new byte[row.length][];
        for (int i = 0; i < row.length; i++) {
            Object v = row[i];
            if (v != null) {
                try {
                    values[i] = format(resultFormats, i) == 1
                            ? PgBinary.encode(PgType.of(columns[i]), v)
                            : PgText.encode(v, timeZone);
                } catch (ClassCastException | NumberFormatException e) {
                    throw new SQLException(
                            "column \"" + columns[i].label() + "\" of type " + columns[i].typeName() + " holds a "
                                    + v.getClass().getSimpleName()
                                    + " that has no binary form here: ask for it as text",
                            SqlStates.FEATURE_NOT_SUPPORTED);
                }
            }
        }
        return values;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            source.close();
        }
    }
}
