package org.raidb.driver.protocol;

import java.sql.SQLException;
import java.sql.SQLWarning;
import java.util.ArrayList;
import java.util.List;

/**
 * The RESULTS frame, the answer to EXECUTE and METADATA:
 *
 * <pre>
 * int32 resultCount | resultCount x (byte kind, then kind 0: int64 updateCount, kind 1: rowset) |
 * byte hasGeneratedKeys | [rowset] | warnings
 * </pre>
 *
 * @param results in order, a {@code Long} update count or a {@link RowsetCodec.Rowset}
 * @param generatedKeys null when the statement did not ask for keys or produced none
 * @param warnings the chain of the backend that answered, or null
 */
public record ResultsFrame(List<Object> results, RowsetCodec.Rowset generatedKeys, SQLWarning warnings) {

    /**
     * Writes the frame. The controller streams rowsets from its backends, so a rowset result is given
     * as a {@link RowsetCodec.RowsetWriter}, called in order.
     *
     * @param results in order, a {@code Long} update count or a {@link RowsetCodec.RowsetWriter}
     * @param generatedKeys null for none
     */
    public static void write(
            PayloadWriter w, List<?> results, RowsetCodec.RowsetWriter generatedKeys, SQLWarning warnings)
            throws SQLException {
        w.begin(Protocol.RESULTS).writeInt(results.size());
        for (Object item : results) {
            if (item instanceof Long count) {
                w.writeByte(Protocol.RESULT_UPDATE_COUNT).writeLong(count);
            } else if (item instanceof RowsetCodec.RowsetWriter rows) {
                w.writeByte(Protocol.RESULT_ROWS);
                rows.write(w);
            } else {
                throw new IllegalArgumentException("a result is an update count or rows, not " + item);
            }
        }
        ResultTail.write(w, generatedKeys, warnings);
    }

    /** Writes the frame as received (or built in memory). */
    public void write(PayloadWriter w) throws SQLException {
        List<Object> items = new ArrayList<>(results.size());
        for (Object item : results) {
            items.add(item instanceof RowsetCodec.Rowset rows ? RowsetCodec.writer(rows) : item);
        }
        write(w, items, generatedKeys == null ? null : RowsetCodec.writer(generatedKeys), warnings);
    }

    public static ResultsFrame read(PayloadReader r) throws ProtocolException {
        int n = r.readCount(2); // a kind byte and at least one more byte per result
        List<Object> results = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte kind = r.readByte();
            if (kind == Protocol.RESULT_UPDATE_COUNT) {
                results.add(r.readLong());
            } else if (kind == Protocol.RESULT_ROWS) {
                results.add(RowsetCodec.readRowset(r));
            } else {
                throw new ProtocolException("unknown result kind " + kind + " in a RESULTS frame");
            }
        }
        RowsetCodec.Rowset keys = ResultTail.readGeneratedKeys(r);
        return new ResultsFrame(results, keys, Warnings.read(r));
    }
}
