package org.raidb.tpcw.populate;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Inserts rows of one table in JDBC batches, one transaction per batch: large enough to load fast,
 * small enough that a RAIDb controller does not hold its write order for long.
 */
final class BatchInserter implements AutoCloseable {

    static final int BATCH_ROWS = 1000;

    private final Connection connection;
    private final PreparedStatement insert;
    private final AtomicLong rowsDone;
    private final int flushEvery;
    private int pending;

    BatchInserter(Connection connection, String table, int columns, AtomicLong rowsDone) throws SQLException {
        this(connection, table, columns, rowsDone, BATCH_ROWS);
    }

    /** {@code flushEvery} Integer.MAX_VALUE: only {@link #flush()} sends, for tables whose rows must follow their parents'. */
    BatchInserter(Connection connection, String table, int columns, AtomicLong rowsDone, int flushEvery)
            throws SQLException {
        this.connection = connection;
        this.flushEvery = flushEvery;
        this.insert =
                connection.prepareStatement("INSERT INTO " + table + " VALUES (" + "?, ".repeat(columns - 1) + "?)");
        this.rowsDone = rowsDone;
    }

    /** Adds one row; the values in column order. */
    void row(Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            insert.setObject(i + 1, values[i]);
        }
        insert.addBatch();
        if (++pending >= flushEvery) {
            flush();
        }
    }

    /** Sends and commits the rows added since the last flush. */
    void flush() throws SQLException {
        if (pending > 0) {
            insert.executeBatch();
            connection.commit();
            rowsDone.addAndGet(pending);
            pending = 0;
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            flush();
        } finally {
            insert.close();
        }
    }
}
