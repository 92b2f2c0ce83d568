package org.raidb.controller.request;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.raidb.controller.determinism.SqlDialect;
import org.raidb.controller.result.BackendCursor;
import org.raidb.controller.result.BackendValues;
import org.raidb.controller.result.MaterializedRows;
import org.raidb.controller.result.Result;
import org.raidb.controller.result.RowSource;
import org.raidb.controller.result.Rows;
import org.raidb.controller.result.UpdateCount;
import org.raidb.controller.transaction.RunningStatements;
import org.raidb.driver.sql.SqlLexer;
import org.raidb.driver.sql.SqlSyntax;
import org.raidb.driver.sql.TokenKind;

/** Runs one client statement on one backend connection, as the client asked (parameters, keys, limits). */
public final class StatementRunner {
    private final StatementCache cache;

    /** @param cache the virtual database's statements kept open on backend connections */
    StatementRunner(StatementCache cache) {
        this.cache = cache;
    }

    /**
     * Runs the client's statement on connection {@code c} and returns its results.
     *
     * @param stream leave a single result set open as a cursor (reads); otherwise every result is read
     *     into memory (writes, whose answers are compared between backends, and reads known to be small)
     * @param onCursorClose what to do when a streamed cursor is closed (release the connection)
     * @param running registers the statement so that a client's cancel can reach it
     */
    public StatementResult run(
            Connection c, ExecuteRequest r, boolean stream, Runnable onCursorClose, RunningStatements running)
            throws SQLException {
        long epoch = cache.epoch();
        StatementCache.Entry cached = reusable(r, stream) && c.getAutoCommit() ? cache.statement(c, r.sql()) : null;
        Statement st = cached != null ? bind(cached.statement, r) : create(c, r);
        boolean keepOpen = cached != null;
        running.add(st);
        try {
            if (r.fetchSize() > 0 && stream) {
                st.setFetchSize(r.fetchSize());
            }
            // A reused statement still has the last request's limits: set them every time.
            if (r.maxRows() > 0 || cached != null) {
                st.setMaxRows((int) Math.min(r.maxRows(), Integer.MAX_VALUE)); // pgjdbc has no setLargeMaxRows
            }
            if (r.queryTimeoutSeconds() > 0 || cached != null) {
                st.setQueryTimeout(r.queryTimeoutSeconds());
            }
            boolean isResultSet = execute(st, r);
            // Read the keys before moving through the results: pgjdbc closes them on getMoreResults().
            RowSource keys = null;
            if (r.returnGeneratedKeys()) {
                try (ResultSet rs = st.getGeneratedKeys()) {
                    keys = BackendValues.materialize(rs);
                }
            }
            List<Result> results = new ArrayList<>(1);
            if (isResultSet && stream && !severalStatements(c, r.sql())) {
                results.add(new Rows(new BackendCursor(st, st.getResultSet(), onCursorClose)));
                keepOpen = true;
                return new StatementResult(
                        results, null, st.getWarnings()); // those of the execution; later fetches' are not carried
            }
            while (true) {
                if (isResultSet) {
                    try (ResultSet rs = st.getResultSet()) {
                        results.add(new Rows(
                                cached == null
                                        ? BackendValues.materialize(rs)
                                        : materializeDescribed(rs, cached, epoch)));
                    }
                } else {
                    long count = st.getLargeUpdateCount();
                    if (count == -1) {
                        break;
                    }
                    results.add(new UpdateCount(count));
                }
                isResultSet = st.getMoreResults();
            }
            return new StatementResult(results, keys, st.getWarnings());
        } finally {
            running.remove(st);
            if (!keepOpen) {
                st.close();
            }
        }
    }

    /**
     * Most reads return less than one batch. Asked in auto-commit mode with a row limit of one batch
     * and one row, such a read costs one backend round trip, where a streaming cursor costs a
     * transaction around it. Returns null when the result is larger: the caller then streams it.
     */
    StatementResult runWithinOneBatch(Connection c, ExecuteRequest r, RunningStatements running) throws SQLException {
        boolean clientLimitFits = r.maxRows() > 0 && r.maxRows() <= r.fetchSize();
        ExecuteRequest probe = clientLimitFits ? r : r.withMaxRows(r.fetchSize() + 1L);
        StatementResult result = run(c, probe, false, () -> {}, running);
        if (clientLimitFits) {
            return result;
        }
        for (Result item : result.results()) {
            if (item.map(count -> false, rows -> rows.knownRowCount() > r.fetchSize())) {
                result.discard();
                return null;
            }
        }
        return result;
    }

    /**
     * Statements with parameters, read into memory, without generated keys: what applications run
     * again and again. Streamed results keep their statement open as a cursor, so they get their own.
     * Only in auto-commit mode (checked by the caller): the pool does not see statements run on the
     * physical connection, so it would not roll back a transaction they wrote in if the connection
     * were closed without a rollback.
     */
    private static boolean reusable(ExecuteRequest r, boolean stream) {
        return !stream
                && !r.returnGeneratedKeys()
                && r.parameters() != null
                && !r.parameters().isEmpty()
                && r.sql().length() <= StatementCache.MAX_TEXT;
    }

    private static MaterializedRows materializeDescribed(ResultSet rs, StatementCache.Entry cached, long epoch)
            throws SQLException {
        MaterializedRows rows = BackendValues.materialize(rs, cached.columns());
        cached.columns(rows.columns(), epoch);
        return rows;
    }

    private static PreparedStatement bind(PreparedStatement ps, ExecuteRequest r) throws SQLException {
        List<Object> params = r.parameters();
        for (int i = 0; i < params.size(); i++) {
            BackendValues.bind(ps, i + 1, params.get(i));
        }
        return ps;
    }

    private static Statement create(Connection c, ExecuteRequest r) throws SQLException {
        if (r.parameters() == null) {
            Statement st = c.createStatement();
            // The driver translated the escapes already; with escape processing off they must reach the server as
            // they are. A prepared statement's text always had its escapes translated, as pgjdbc does at prepare time.
            st.setEscapeProcessing(r.escapeProcessing());
            return st;
        }
        PreparedStatement ps;
        if (r.returnGeneratedKeys()) {
            ps = r.keyColumns() != null && !r.keyColumns().isEmpty()
                    ? c.prepareStatement(r.sql(), r.keyColumns().toArray(new String[0]))
                    : c.prepareStatement(r.sql(), Statement.RETURN_GENERATED_KEYS);
        } else {
            ps = c.prepareStatement(r.sql());
        }
        return bind(ps, r);
    }

    private static boolean execute(Statement st, ExecuteRequest r) throws SQLException {
        if (st instanceof PreparedStatement ps) {
            return ps.execute();
        }
        if (r.returnGeneratedKeys()) {
            return (r.keyColumns() != null && !r.keyColumns().isEmpty())
                    ? st.execute(r.sql(), r.keyColumns().toArray(new String[0]))
                    : st.execute(r.sql(), Statement.RETURN_GENERATED_KEYS);
        }
        return st.execute(r.sql());
    }

    /**
     * Whether the backend returns several results for the text: a semicolon in code (not in a string,
     * quoted name, dollar quote or comment, as the backend's own lexer reads it) followed by more than
     * whitespace. A trailing comment counts: pgjdbc sends it, and the server answers it as an empty query.
     * Erring towards "several" only costs reading the results into memory.
     */
    static boolean severalStatements(Connection c, String sql) throws SQLException {
        if (sql.indexOf(';') < 0) {
            return false; // most texts: no need to ask what the backend speaks
        }
        return severalStatements(
                sql, SqlDialect.of(c.getMetaData().getDatabaseProductName()).syntax());
    }

    static boolean severalStatements(String sql, SqlSyntax syntax) {
        SqlLexer lexer = new SqlLexer(sql, syntax);
        for (TokenKind k = lexer.nextCode(); k != TokenKind.END; k = lexer.nextCode()) {
            if (lexer.isSymbol(';')) {
                for (TokenKind rest = lexer.next(); rest != TokenKind.END; rest = lexer.next()) {
                    if (rest != TokenKind.WHITESPACE) {
                        return true;
                    }
                }
                return false;
            }
        }
        return false;
    }
}
