package org.raidb.controller.result;

import java.sql.SQLException;
import java.util.List;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.RowsetCodec;

/**
 * Rows already read from a backend cursor into memory, then the rest of that cursor: what the result
 * cache hands on when a result turned out too large to hold, so that nothing is read twice.
 */
public final class PrefixedRows implements RowSource {
    private final List<Object[]> prefix;
    private final BackendCursor rest;
    private int next;
    private boolean restExhausted;

    public PrefixedRows(List<Object[]> prefix, BackendCursor rest) {
        this.prefix = prefix;
        this.rest = rest;
    }

    @Override
    public ColumnInfo[] columns() {
        return rest.columns();
    }

    @Override
    public boolean writeBatch(PayloadWriter w, int maxRows, int maxBytes) throws SQLException {
        int countAt = RowsetCodec.beginBatch(w);
        int written = 0;
        while (written < maxRows && (written == 0 || w.size() < maxBytes)) {
            Object[] row;
            if (next < prefix.size()) {
                row = prefix.get(next++);
            } else {
                row = restExhausted ? null : rest.nextRow();
                if (row == null) {
                    restExhausted = true;
                    break;
                }
            }
            for (Object v : row) {
                w.writeValue(v);
            }
            written++;
        }
        RowsetCodec.endBatch(w, countAt, written, restExhausted);
        return restExhausted;
    }

    @Override
    public long knownRowCount() {
        return -1;
    }

    @Override
    public void close() {
        rest.close();
    }
}
