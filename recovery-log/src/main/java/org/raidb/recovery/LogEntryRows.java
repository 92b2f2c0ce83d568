package org.raidb.recovery;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every query the log runs on its entry and statement tables, and the mapping of {@link LogEntry} to
 * and from their rows. Each query is bounded by a range of positions (the primary key) or reads one
 * key: none scans the log (LogQueryPlanTest checks their plans on each store).
 */
final class LogEntryRows {

    final String log;
    final String statements;
    final String insert;
    final String insertStatement;
    final String maxStatementId;
    final String updateOutcome;
    /** Replay: entries in {@code [from, to)} with their statement. */
    final String selectRange;

    final String minPosition;
    /** Restart and replay start: what {@link LogTail} needs of the entries in {@code [from, to]}. */
    final String tailBetween;

    final String countBetween;
    /** Saved tails ({@link LogTail}): the last at or before a position, one by key, a new one, the old ones. */
    final String lastTailAtOrBefore;

    final String tailAt;
    final String insertTail;
    final String deleteTailsBefore;
    final String pendingFrom;
    final String committedFrom;
    final String deleteRange;
    final String deleteStatements;

    LogEntryRows(LogSchema schema, int vdbId) {
        log = schema.log(vdbId);
        statements = schema.statements(vdbId);
        insert = "INSERT INTO " + log + " (log_position, kind, tx_id, login, stmt_id, params, params_large,"
                + " outcome, sql_state, logged_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
        insertStatement = "INSERT INTO " + statements + " (stmt_id, sql_text, tables_written) VALUES (?, ?, ?)";
        maxStatementId = "SELECT MAX(stmt_id) FROM " + statements;
        updateOutcome = "UPDATE " + log + " SET outcome = ?, sql_state = ? WHERE log_position = ?";
        selectRange = "SELECT e.log_position, e.kind, e.tx_id, e.login, s.sql_text, e.params, e.params_large,"
                + " s.tables_written, e.outcome, e.sql_state, e.logged_at FROM " + log + " e LEFT JOIN " + statements
                + " s ON s.stmt_id = e.stmt_id WHERE e.log_position >= ? AND e.log_position < ? ORDER BY e.log_position";
        minPosition = "SELECT MIN(log_position) FROM " + log;
        tailBetween = "SELECT log_position, kind, tx_id, outcome FROM " + log
                + " WHERE log_position >= ? AND log_position <= ? ORDER BY log_position";
        lastTailAtOrBefore =
                "SELECT MAX(log_position) FROM " + schema.logState + " WHERE vdb_id = ? AND log_position <= ?";
        tailAt = "SELECT log_position, max_tx_id, oldest_pending, open_transactions FROM " + schema.logState
                + " WHERE vdb_id = ? AND log_position = ?";
        insertTail = "INSERT INTO " + schema.logState
                + " (vdb_id, log_position, max_tx_id, oldest_pending, open_transactions) VALUES (?, ?, ?, ?, ?)";
        deleteTailsBefore = "DELETE FROM " + schema.logState + " WHERE vdb_id = ? AND log_position < ?";
        countBetween = "SELECT COUNT(*) FROM " + log + " WHERE log_position > ? AND log_position <= ?";
        pendingFrom = "SELECT log_position, kind, tx_id FROM " + log
                + " WHERE log_position >= ? AND outcome = ? ORDER BY log_position";
        committedFrom =
                "SELECT COUNT(*) FROM " + log + " WHERE log_position >= ? AND tx_id = ? AND kind = ? AND outcome <> ?";
        deleteRange = "DELETE FROM " + log + " WHERE log_position >= ? AND log_position < ?";
        deleteStatements = "DELETE FROM " + statements + " WHERE stmt_id >= ? AND stmt_id <= ?";
    }

    /** The queries that read, change or delete entries, by name, for a plan check (all parameters are numbers). */
    Map<String, String> plannedQueries() {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("updateOutcome", updateOutcome);
        all.put("selectRange", selectRange);
        all.put("minPosition", minPosition);
        all.put("tailBetween", tailBetween);
        all.put("lastTailAtOrBefore", lastTailAtOrBefore);
        all.put("tailAt", tailAt);
        all.put("deleteTailsBefore", deleteTailsBefore);
        all.put("countBetween", countBetween);
        all.put("pendingFrom", pendingFrom);
        all.put("committedFrom", committedFrom);
        all.put("deleteRange", deleteRange);
        all.put("deleteStatements", deleteStatements);
        all.put("maxStatementId", maxStatementId);
        return all;
    }

    /**
     * {@code parameters}: the entry's parameters as {@link ParameterCodec#encode} stores them, null for none;
     * {@code statementId}: its SQL text's row in the statement table, null for none.
     */
    static void bindInsert(PreparedStatement ps, LogEntry e, Long statementId, byte[] parameters, int inlineLimit)
            throws SQLException {
        ps.setLong(1, e.position());
        ps.setShort(2, (short) e.kind().code());
        ps.setLong(3, e.transactionId());
        ps.setString(4, e.login());
        if (statementId == null) {
            ps.setNull(5, Types.BIGINT);
        } else {
            ps.setLong(5, statementId);
        }
        boolean inline = parameters != null && parameters.length <= inlineLimit;
        setBytes(ps, 6, inline ? parameters : null);
        setBytes(ps, 7, inline ? null : parameters);
        ps.setShort(8, (short) e.outcome().status().code());
        ps.setString(9, e.outcome().sqlState());
        ps.setLong(10, e.loggedAt().toEpochMilli());
    }

    private static void setBytes(PreparedStatement ps, int index, byte[] bytes) throws SQLException {
        if (bytes == null) {
            ps.setNull(index, Types.VARBINARY);
        } else {
            ps.setBytes(index, bytes);
        }
    }

    static void bindOutcome(PreparedStatement ps, long position, Outcome outcome) throws SQLException {
        ps.setShort(1, (short) outcome.status().code());
        ps.setString(2, outcome.sqlState());
        ps.setLong(3, position);
    }

    /** The statement table's key of an entry's SQL: the text and the tables written (the analysis of the text). */
    static String statementKey(LogEntry e) {
        return e.tablesWritten().isEmpty() ? e.sql() : e.sql() + '\u0000' + String.join(",", e.tablesWritten());
    }

    static LogEntry read(ResultSet rs) throws SQLException {
        String tables = rs.getString(8);
        String sqlState = rs.getString(10);
        Outcome.Status status = Outcome.Status.ofCode(rs.getInt(9));
        byte[] params = rs.getBytes(6);
        if (params == null) {
            params = rs.getBytes(7);
        }
        return new LogEntry(
                rs.getLong(1),
                EntryKind.ofCode(rs.getInt(2)),
                rs.getLong(3),
                rs.getString(4),
                rs.getString(5),
                ParameterCodec.decode(params),
                tables == null ? List.of() : Arrays.asList(tables.split(",")),
                status == Outcome.Status.FAILED ? Outcome.failed(sqlState) : new Outcome(status, null),
                Instant.ofEpochMilli(rs.getLong(11)));
    }
}
