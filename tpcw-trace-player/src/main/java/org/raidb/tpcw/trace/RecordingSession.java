package org.raidb.tpcw.trace;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.raidb.tpcw.interactions.Interaction;
import org.raidb.tpcw.interactions.SqlSession;

/**
 * An emulated browser's JDBC session that writes each statement, with its transaction boundaries
 * and time offset, to a trace as it sends it. The event is written before the statement runs: the
 * trace holds what the database was asked, in the session's order.
 */
public final class RecordingSession implements SqlSession {

    private final Connection connection;
    private final TraceWriter trace;
    private final int session;
    private final long startNanos;
    private boolean inTransaction;

    /** {@code trace} null: run without recording (tests of the interactions themselves). */
    public RecordingSession(Connection connection, TraceWriter trace, int session, long startNanos) {
        this.connection = connection;
        this.trace = trace;
        this.session = session;
        this.startNanos = startNanos;
    }

    @Override
    public void interaction(Interaction interaction) {
        emit(new TraceEvent(offset(), session, TraceEvent.Kind.INTERACTION, interaction.traceName()));
    }

    @Override
    public List<Object[]> query(String sql) throws SQLException {
        emit(TraceEvent.statement(offset(), session, sql));
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            List<Object[]> rows = new ArrayList<>();
            while (rs.next()) {
                Object[] row = new Object[columns];
                for (int i = 0; i < columns; i++) {
                    row[i] = rs.getObject(i + 1);
                }
                rows.add(row);
            }
            return rows;
        }
    }

    @Override
    public int update(String sql) throws SQLException {
        emit(TraceEvent.statement(offset(), session, sql));
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
            return s.getUpdateCount();
        }
    }

    @Override
    public void begin() throws SQLException {
        emit(TraceEvent.of(offset(), session, TraceEvent.Kind.BEGIN));
        connection.setAutoCommit(false);
        inTransaction = true;
    }

    @Override
    public void commit() throws SQLException {
        emit(TraceEvent.of(offset(), session, TraceEvent.Kind.COMMIT));
        inTransaction = false;
        try {
            connection.commit();
        } finally {
            connection.setAutoCommit(true);
        }
    }

    /** Does nothing outside a transaction, so that callers may roll back after any failure. */
    @Override
    public void rollback() throws SQLException {
        if (!inTransaction) {
            return;
        }
        emit(TraceEvent.of(offset(), session, TraceEvent.Kind.ROLLBACK));
        inTransaction = false;
        try {
            connection.rollback();
        } finally {
            connection.setAutoCommit(true);
        }
    }

    private long offset() {
        return (System.nanoTime() - startNanos) / 1000;
    }

    private void emit(TraceEvent event) {
        if (trace != null) {
            trace.write(event);
        }
    }
}
