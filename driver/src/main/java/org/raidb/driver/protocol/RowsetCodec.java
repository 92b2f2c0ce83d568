package org.raidb.driver.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes the rowset layout of docs/protocol.md, shared by the driver and the controller so
 * that both sides agree byte for byte:
 *
 * <pre>
 * int64 cursorId | int32 columnCount | columnCount x column | batch
 * batch = int32 rowCount | rowCount x columnCount x value | byte last
 * </pre>
 *
 * A rowset header is followed by its first batch; later batches travel alone in ROWS frames.
 */
public final class RowsetCodec {
    private RowsetCodec() {}

    /** The part of a rowset that comes before its first batch. cursorId 0 means every row is in this frame. */
    public record Header(long cursorId, List<ColumnInfo> columns) {
        public int columnCount() {
            return columns.size();
        }
    }

    /** One batch of rows; {@code last} says that no FETCH can return more. SQL NULL cells are Java null. */
    public record Batch(List<Object[]> rows, boolean last) {}

    /** A complete rowset as received: its header and its first batch. */
    public record Rowset(Header header, Batch firstBatch) {}

    /**
     * Writes one whole rowset (header and first batch) into a frame; the controller streams it from a
     * backend cursor, so the frame codecs that carry rowsets take it as a callback.
     */
    @FunctionalInterface
    public interface RowsetWriter {
        void write(PayloadWriter w) throws java.sql.SQLException;
    }

    /** Writes one batch of rows into a frame and returns its {@code last} flag. */
    @FunctionalInterface
    public interface BatchWriter {
        boolean write(PayloadWriter w) throws java.sql.SQLException;
    }

    /** A writer of a rowset held in memory (as received, or built by a test). */
    public static RowsetWriter writer(Rowset rowset) {
        return w -> writeRowset(
                w,
                rowset.header().cursorId(),
                rowset.header().columns(),
                rowset.firstBatch().rows(),
                rowset.firstBatch().last());
    }

    public static void writeHeader(PayloadWriter w, long cursorId, List<ColumnInfo> columns) {
        w.writeLong(cursorId);
        w.writeInt(columns.size());
        for (ColumnInfo c : columns) {
            c.write(w);
        }
    }

    /**
     * Marks a rowset whose header was written at payload position {@code headerAt} as complete
     * (cursorId 0): a sender that streams rows learns only after its first batch that every row fit.
     */
    public static void markComplete(PayloadWriter w, int headerAt) {
        w.patchInt(headerAt, 0);
        w.patchInt(headerAt + 4, 0);
    }

    public static Header readHeader(PayloadReader r) throws ProtocolException {
        long cursorId = r.readLong();
        // A column takes at least 4 strings of 4 bytes, 5 ints and a byte: 37 bytes.
        int n = r.readCount(37);
        List<ColumnInfo> columns = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            columns.add(ColumnInfo.read(r));
        }
        return new Header(cursorId, List.copyOf(columns));
    }

    /** Writes a batch; each row must have exactly {@code columnCount} values (null or {@link SqlNull} for SQL NULL). */
    public static void writeBatch(PayloadWriter w, List<Object[]> rows, boolean last) {
        w.writeInt(rows.size());
        for (Object[] row : rows) {
            for (Object v : row) {
                w.writeValue(v);
            }
        }
        w.writeBoolean(last);
    }

    /**
     * Starts a batch whose row count is known only after its rows (streamed from a backend): write the
     * rows' values, then {@link #endBatch} with what this returned.
     */
    public static int beginBatch(PayloadWriter w) {
        int countAt = w.size();
        w.writeInt(0);
        return countAt;
    }

    /** Ends a batch begun by {@link #beginBatch}: its row count, then {@code last}. */
    public static void endBatch(PayloadWriter w, int countAt, int rowCount, boolean last) {
        w.patchInt(countAt, rowCount);
        w.writeBoolean(last);
    }

    public static Batch readBatch(PayloadReader r, int columnCount) throws ProtocolException {
        // Each value is at least its tag byte; rows without columns cost nothing on the wire, so do not presize for
        // them.
        int n = r.readCount(columnCount);
        List<Object[]> rows = new ArrayList<>(columnCount == 0 ? Math.min(n, 16) : n);
        for (int i = 0; i < n; i++) {
            Object[] row = new Object[columnCount];
            for (int c = 0; c < columnCount; c++) {
                Object v = r.readValue();
                row[c] = v instanceof SqlNull ? null : v;
            }
            rows.add(row);
        }
        return new Batch(rows, r.readBoolean());
    }

    public static void writeRowset(
            PayloadWriter w, long cursorId, List<ColumnInfo> columns, List<Object[]> rows, boolean last) {
        writeHeader(w, cursorId, columns);
        writeBatch(w, rows, last);
    }

    public static Rowset readRowset(PayloadReader r) throws ProtocolException {
        Header header = readHeader(r);
        return new Rowset(header, readBatch(r, header.columnCount()));
    }
}
