package org.raidb.controller.result;

import java.util.List;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.RowsetCodec;

/** A result held in memory: metadata answers, RETURNING rows of writes, generated keys. */
public final class MaterializedRows implements RowSource {
    private final ColumnInfo[] columns;
    private final List<Object[]> rows;
    private int next;

    public MaterializedRows(ColumnInfo[] columns, List<Object[]> rows) {
        this.columns = columns;
        this.rows = rows;
    }

    @Override
    public ColumnInfo[] columns() {
        return columns;
    }

    public List<Object[]> rows() {
        return rows;
    }

    @Override
    public boolean writeBatch(PayloadWriter w, int maxRows, int maxBytes) {
        int countAt = RowsetCodec.beginBatch(w);
        int written = 0;
        while (next < rows.size() && written < maxRows && (written == 0 || w.size() < maxBytes)) {
            for (Object v : rows.get(next)) {
                w.writeValue(v);
            }
            next++;
            written++;
        }
        boolean last = next >= rows.size();
        RowsetCodec.endBatch(w, countAt, written, last);
        return last;
    }

    @Override
    public long knownRowCount() {
        return rows.size();
    }

    @Override
    public void close() {}
}
