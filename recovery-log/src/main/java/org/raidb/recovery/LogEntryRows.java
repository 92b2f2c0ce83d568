package org.raidb.recovery;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/** Maps {@link LogEntry} to and from rows of the log table. */
final class LogEntryRows {

    final String insert;
    final String updateOutcome;
    final String selectRange;

    LogEntryRows(LogSchema schema) {
        insert = "INSERT INTO " + schema.log + " (vdb, log_position, kind, tx_id, login, sql_text, params,"
                + " tables_written, outcome, sql_state, logged_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
        updateOutcome = "UPDATE " + schema.log + " SET outcome = ?, sql_state = ? WHERE vdb = ? AND log_position = ?";
        selectRange = "SELECT log_position, kind, tx_id, login, sql_text, params, tables_written, outcome, sql_state,"
                + " logged_at FROM " + schema.log + " WHERE vdb = ? AND log_position >= ? AND log_position < ?"
                + " ORDER BY log_position";
    }

    /** {@code parameters}: the entry's parameters as {@link ParameterCodec#encode} stores them, null for none. */
    static void bindInsert(PreparedStatement ps, String vdb, LogEntry e, byte[] parameters) throws SQLException {
        ps.setString(1, vdb);
        ps.setLong(2, e.position());
        ps.setString(3, e.kind().name());
        ps.setLong(4, e.transactionId());
        ps.setString(5, e.login());
        ps.setString(6, e.sql());
        if (parameters == null) {
            ps.setNull(7, Types.BINARY);
        } else {
            ps.setBytes(7, parameters);
        }
        ps.setString(8, e.tablesWritten().isEmpty() ? null : String.join(",", e.tablesWritten()));
        ps.setString(9, e.outcome().status().name());
        ps.setString(10, e.outcome().sqlState());
        ps.setLong(11, e.loggedAt().toEpochMilli());
    }

    static void bindOutcome(PreparedStatement ps, String vdb, long position, Outcome outcome) throws SQLException {
        ps.setString(1, outcome.status().name());
        ps.setString(2, outcome.sqlState());
        ps.setString(3, vdb);
        ps.setLong(4, position);
    }

    static LogEntry read(ResultSet rs) throws SQLException {
        String tables = rs.getString(7);
        String sqlState = rs.getString(9);
        Outcome.Status status = Outcome.Status.valueOf(rs.getString(8));
        return new LogEntry(
                rs.getLong(1),
                EntryKind.valueOf(rs.getString(2)),
                rs.getLong(3),
                rs.getString(4),
                rs.getString(5),
                ParameterCodec.decode(rs.getBytes(6)),
                tables == null ? List.of() : Arrays.asList(tables.split(",")),
                status == Outcome.Status.FAILED ? Outcome.failed(sqlState) : new Outcome(status, null),
                Instant.ofEpochMilli(rs.getLong(10)));
    }
}
