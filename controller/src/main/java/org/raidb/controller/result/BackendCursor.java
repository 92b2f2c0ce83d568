package org.raidb.controller.result;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.RowsetCodec;

/**
 * A backend result set read a batch at a time while the client fetches: neither the controller nor
 * the driver ever holds more than one batch. Closing it closes the backend statement and runs the
 * release action (returning an auto-commit read's connection to its pool).
 */
public final class BackendCursor implements RowSource {
    private final Statement statement;
    private final ResultSet rs;
    private final ColumnInfo[] columns;
    private final BackendValues.Reader[] readers;
    private final Runnable onClose;
    private boolean exhausted;
    private boolean closed;

    public BackendCursor(Statement statement, ResultSet rs, Runnable onClose) throws SQLException {
        this.statement = statement;
        this.rs = rs;
        this.columns = BackendValues.columns(rs.getMetaData());
        this.readers = BackendValues.readers(columns);
        this.onClose = onClose;
    }

    @Override
    public ColumnInfo[] columns() {
        return columns;
    }

    @Override
    public boolean writeBatch(PayloadWriter w, int maxRows, int maxBytes) throws SQLException {
        int countAt = RowsetCodec.beginBatch(w);
        int written = 0;
        while (!exhausted && written < maxRows && (written == 0 || w.size() < maxBytes)) {
            if (!rs.next()) {
                exhausted = true;
                break;
            }
            for (int i = 0; i < columns.length; i++) {
                w.writeValue(BackendValues.read(rs, i + 1, readers[i], columns[i].typeName()));
            }
            written++;
        }
        RowsetCodec.endBatch(w, countAt, written, exhausted);
        return exhausted;
    }

    /** The next row's values as {@link #writeBatch} would send them; null once every row was read. */
    public Object[] nextRow() throws SQLException {
        if (exhausted || !rs.next()) {
            exhausted = true;
            return null;
        }
        Object[] row = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            row[i] = BackendValues.read(rs, i + 1, readers[i], columns[i].typeName());
        }
        return row;
    }

    @Override
    public long knownRowCount() {
        return -1;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            statement.close();
        } catch (SQLException ignored) {
            // the connection is being released anyway; its pool validates it
        }
        onClose.run();
    }
}
