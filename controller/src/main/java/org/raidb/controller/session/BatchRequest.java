package org.raidb.controller.session;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.RoutineChange;
import org.raidb.controller.analysis.SchemaChange;
import org.raidb.controller.analysis.SqlAnalyzer;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.determinism.DeterministicBatch;
import org.raidb.controller.recovery.LoggedStatement;
import org.raidb.controller.request.StatementResult;
import org.raidb.controller.result.BackendValues;
import org.raidb.controller.result.MaterializedRows;
import org.raidb.controller.result.Result;
import org.raidb.controller.result.UpdateCount;
import org.raidb.driver.protocol.BatchFrame;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.RequestTag;
import org.raidb.driver.protocol.SqlStates;

/** A BATCH frame: Statement.addBatch texts, or one prepared statement with rows of parameters. */
final class BatchRequest {
    /**
     * What the client asked of the batch as a whole.
     *
     * @param returnKeys the keys of every row inserted (prepared form), as getGeneratedKeys() reads them
     * @param keyColumns the key columns asked for by name, or null for pgjdbc's choice (every column)
     * @param escapeProcessing false when the client turned it off: the texts keep their JDBC escapes
     */
    record Options(int timeoutSeconds, boolean returnKeys, List<String> keyColumns, boolean escapeProcessing) {}

    private final List<String> statements; // form 0
    private final String sql; // form 1
    private final List<List<Object>> rows;
    private final Options options;

    private BatchRequest(List<String> statements, String sql, List<List<Object>> rows, Options options) {
        this.statements = statements;
        this.sql = sql;
        this.rows = rows;
        this.options = options;
    }

    /**
     * Reads the frame ({@link BatchFrame}); every text that will run as SQL is checked ({@link ClientText})
     * before anything reaches a backend.
     */
    static BatchRequest of(BatchFrame frame) throws SQLException {
        List<String> keyColumns = ClientText.columnNames(frame.keyColumns(), "the list of generated key columns");
        Options options = new Options(
                frame.queryTimeoutSeconds(), frame.returnGeneratedKeys(), keyColumns, frame.escapeProcessing());
        if (frame.form() == BatchFrame.STATEMENTS) {
            List<String> list = ClientText.all(frame.statements(), "the batch");
            return new BatchRequest(list == null ? List.of() : list, null, null, options);
        }
        return new BatchRequest(null, ClientText.statement(frame.sql()), frame.rows(), options);
    }

    /**
     * The batch as every backend must run it: each text, or the prepared statement with its rows,
     * rewritten so that now(), random(), the volatile defaults it relies on and the like have the same
     * values everywhere.
     */
    BatchRequest deterministic(TextRewriter texts, PreparedRewriter prepared) throws SQLException {
        if (sql != null) {
            DeterministicBatch b = prepared.rewrite(sql, rows);
            return unchanged(b) ? this : new BatchRequest(null, b.sql(), b.rows(), options);
        }
        List<String> out = new ArrayList<>(statements.size());
        for (String t : statements) {
            out.add(texts.rewrite(t));
        }
        return new BatchRequest(out, null, null, options);
    }

    /** Whether the rewriter handed back this batch's own text and rows, which it does when it had nothing to change. */
    @SuppressWarnings(
            "ReferenceEquality") // identity is the rewriter's contract, and comparing every row would cost a copy's
    // time
    private boolean unchanged(DeterministicBatch b) {
        return b.sql() == sql && b.rows() == rows;
    }

    /** The batch as a frame again (what a controller group sends the other controllers). */
    BatchFrame frame() {
        int flags = (options.returnKeys() ? Protocol.FLAG_RETURN_GENERATED_KEYS : 0)
                | (options.escapeProcessing() ? 0 : Protocol.FLAG_NO_ESCAPE_PROCESSING);
        return sql != null
                ? BatchFrame.ofPrepared(options.timeoutSeconds(), flags, options.keyColumns(), sql, rows)
                : new BatchFrame(
                        BatchFrame.STATEMENTS,
                        options.timeoutSeconds(),
                        flags,
                        options.keyColumns(),
                        statements,
                        null,
                        null,
                        RequestTag.NONE);
    }

    /** Rewrites one statement text. */
    @FunctionalInterface
    interface TextRewriter {
        String rewrite(String sql) throws SQLException;
    }

    /** Rewrites a prepared statement and its rows of parameters. */
    @FunctionalInterface
    interface PreparedRewriter {
        DeterministicBatch rewrite(String sql, List<List<Object>> rows) throws SQLException;
    }

    /** The statements as the client sent them. */
    List<String> texts() {
        return sql != null ? List.of(sql) : statements;
    }

    /** A prepared batch's rows of values, or null for a batch of texts. */
    List<List<Object>> parameterRows() {
        return rows;
    }

    /** A batch is a write whose tables are the union of its statements' tables. */
    AnalyzedStatement analyze(SqlAnalyzer analyzer) throws SQLException {
        List<String> texts = texts();
        Set<String> read = new LinkedHashSet<>();
        Set<String> written = new LinkedHashSet<>();
        boolean everything = false;
        List<SchemaChange> changes = new ArrayList<>();
        RoutineChange routines = null;
        for (String t : texts) {
            AnalyzedStatement a = analyzer.analyze(t);
            if (a.kind() == StatementKind.TRANSACTION_CONTROL) {
                throw new SQLException(
                        "transaction control statements cannot be batched: use commit() and rollback()",
                        SqlStates.FEATURE_NOT_SUPPORTED);
            }
            if (a.refusal() != null) {
                throw new SQLException(a.refusal(), SqlStates.FEATURE_NOT_SUPPORTED);
            }
            read.addAll(a.tablesRead());
            written.addAll(a.tablesWritten());
            everything |= a.touchesEverything();
            if (a.routineChange() != null) {
                routines = a.routineChange().plus(routines);
            }
            if (a.schemaChange() != null) {
                changes.add(a.schemaChange());
                // Where a new table goes is decided per statement; a batch runs as one unit on each of its
                // backends, so a batch creating tables goes to every backend.
                everything |= a.createdTable() != null;
            }
        }
        return new AnalyzedStatement(
                StatementKind.WRITE,
                Set.copyOf(read),
                Set.copyOf(written),
                everything,
                null,
                null,
                false,
                null,
                changes.size() == 1 ? changes.get(0) : null,
                routines,
                null,
                null);
    }

    /** The batch's statements as the recovery log keeps them: one per text, or one per row of parameters. */
    List<LoggedStatement> loggedStatements() {
        List<LoggedStatement> out = new ArrayList<>();
        if (sql != null) {
            for (List<Object> row : rows) {
                out.add(new LoggedStatement(sql, row));
            }
        } else {
            for (String t : statements) {
                out.add(new LoggedStatement(t, null));
            }
        }
        return out;
    }

    String describe() {
        return sql != null ? sql + " (batch of " + rows.size() + ")" : "batch of " + statements.size() + " statements";
    }

    StatementResult run(Connection c) throws SQLException {
        if (sql != null) {
            try (PreparedStatement ps = prepare(c)) {
                applyTimeout(ps);
                for (List<Object> row : rows) {
                    for (int i = 0; i < row.size(); i++) {
                        BackendValues.bind(ps, i + 1, row.get(i));
                    }
                    ps.addBatch();
                }
                List<Result> counts = counts(ps.executeLargeBatch());
                MaterializedRows keys = null;
                if (options.returnKeys()) {
                    try (ResultSet rs = ps.getGeneratedKeys()) {
                        keys = BackendValues.materialize(rs);
                    }
                }
                return new StatementResult(counts, keys, ps.getWarnings());
            }
        }
        try (Statement st = c.createStatement()) {
            applyTimeout(st);
            st.setEscapeProcessing(options.escapeProcessing());
            for (String s : statements) {
                st.addBatch(s);
            }
            List<Result> counts = counts(st.executeLargeBatch());
            return new StatementResult(counts, null, st.getWarnings());
        }
    }

    private PreparedStatement prepare(Connection c) throws SQLException {
        if (!options.returnKeys()) {
            return c.prepareStatement(sql);
        }
        List<String> names = options.keyColumns();
        return names != null && !names.isEmpty()
                ? c.prepareStatement(sql, names.toArray(new String[0]))
                : c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS);
    }

    private static List<Result> counts(long[] counts) {
        List<Result> out = new ArrayList<>(counts.length);
        for (long n : counts) {
            out.add(new UpdateCount(n));
        }
        return out;
    }

    private void applyTimeout(Statement st) throws SQLException {
        if (options.timeoutSeconds() > 0) {
            st.setQueryTimeout(options.timeoutSeconds());
        }
    }
}
