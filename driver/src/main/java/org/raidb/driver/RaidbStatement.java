package org.raidb.driver;

import java.sql.BatchUpdateException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.raidb.driver.protocol.BatchFrame;
import org.raidb.driver.protocol.BatchResultFrame;
import org.raidb.driver.protocol.ExecuteFrame;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.ResultsFrame;
import org.raidb.driver.protocol.RowsetCodec;
import org.raidb.driver.protocol.SqlStates;

/**
 * A plain statement: each execution is one EXECUTE frame (paramCount -1) answered by RESULTS.
 *
 * <p>Running a statement closes the result sets of the previous run. Several results from one
 * statement (for example {@code "update ...; select ..."}) arrive together and are walked with
 * {@link #getMoreResults()}. Only {@link #cancel()} may be called from another thread.
 */
public class RaidbStatement implements Statement {
    private static final RowsetCodec.Rowset NO_ROWS =
            new RowsetCodec.Rowset(new RowsetCodec.Header(0, List.of()), new RowsetCodec.Batch(List.of(), true));

    final RaidbConnection connection;
    final ControllerChannel channel;
    private boolean closed;
    private boolean closeOnCompletion;
    private boolean poolable;
    private boolean closingResults;
    private int maxFieldSize;
    private long maxRows;
    private int fetchSize;
    private int queryTimeoutSeconds;
    private final List<String> batch = new ArrayList<>();
    private List<Object> results = List.of();
    /** Per result of the last execution inside a transaction, the digest its result set feeds; else empty. */
    private List<RowsDigest> rowsDigests = List.of();

    private int resultIndex;
    private RaidbResultSet currentResultSet;
    private RowsetCodec.Rowset generatedKeysRowset;
    private final List<RaidbResultSet> openResultSets = new ArrayList<>();
    private volatile boolean executing;
    private SQLWarning warnings;
    private boolean escapeProcessing = true;
    private int fetchDirection = ResultSet.FETCH_FORWARD;
    /** Whether a text added to the batch kept its escapes (escape processing was off when it was added). */
    private boolean batchKeepsEscapes;

    private final int resultSetType;

    RaidbStatement(RaidbConnection connection, ControllerChannel channel, int fetchSize) {
        this(connection, channel, fetchSize, ResultSet.TYPE_FORWARD_ONLY);
    }

    /** @param resultSetType TYPE_FORWARD_ONLY or TYPE_SCROLL_INSENSITIVE (the connection downgrades the rest) */
    RaidbStatement(RaidbConnection connection, ControllerChannel channel, int fetchSize, int resultSetType) {
        this.connection = connection;
        this.channel = channel;
        this.fetchSize = fetchSize;
        this.resultSetType = resultSetType;
    }

    // ---- execution ----

    /**
     * Sends EXECUTE and makes its first result current. {@code params} null means a plain statement,
     * whose escapes are translated here when escape processing is on; a prepared statement's were at
     * prepare time.
     */
    final void execute(String text, Object[] params, byte mode, boolean returnKeys, List<String> keyColumns)
            throws SQLException {
        boolean plain = params == null;
        String sql = plain && escapeProcessing ? connection.translateEscapes(text) : text;
        int flags = (returnKeys ? Protocol.FLAG_RETURN_GENERATED_KEYS : 0)
                | executeFlags()
                | (plain && !escapeProcessing ? Protocol.FLAG_NO_ESCAPE_PROCESSING : 0);
        ExecuteFrame frame = new ExecuteFrame(
                sql,
                params == null ? null : Arrays.asList(params),
                mode,
                flags,
                keyColumns,
                fetchSize,
                maxRows,
                queryTimeoutSeconds);
        runForResults(connection.tagged(tag -> frame.withTag(tag)::write), sql);
    }

    /** EXECUTE flags this kind of statement always sets (none; calls set {@link Protocol#FLAG_CALL}). */
    int executeFlags() {
        return 0;
    }

    /** Sends a METADATA request, answered by RESULTS, and makes its first result current. */
    final void runForResults(ControllerChannel.Request request) throws SQLException {
        runForResults(request, null);
    }

    /**
     * Sends a request answered by RESULTS and makes its first result current. {@code sql}, the text of an
     * EXECUTE (null for METADATA), goes into the open transaction's journal with the answer, so that a
     * failover can replay it, and tells the session's memory of SET, BEGIN, COMMIT sent as SQL.
     */
    final void runForResults(ControllerChannel.Request request, String sql) throws SQLException {
        checkOpen();
        closeResults();
        warnings = null; // every execution starts a new chain, as in pgjdbc
        ResultsFrame answer;
        SessionMemory memory = sql == null ? null : connection.memory();
        boolean wasInTransaction = memory != null && memory.inTransaction();
        List<List<RowsDigest>> digests = new ArrayList<>(1);
        executing = true;
        try {
            ControllerChannel.Response<ResultsFrame> parse = r -> {
                ControllerChannel.expect(r, Protocol.RESULTS);
                return ResultsFrame.read(r);
            };
            answer = memory == null
                    ? channel.call(request, parse)
                    : connection.journaled(
                            describe(sql),
                            request,
                            () -> channel.call(request, parse),
                            (journal, a) -> digests.add(journal.executed(describe(sql), request, a)));
        } finally {
            executing = false;
        }
        if (memory != null) {
            memory.statementSucceeded(sql);
            if (!wasInTransaction && memory.inTransaction()) {
                digests.add(memory.journal().executed(describe(sql), request, answer)); // the BEGIN opens the journal
            }
        }
        rowsDigests = digests.isEmpty() ? List.of() : digests.get(0);
        results = answer.results();
        generatedKeysRowset = answer.generatedKeys();
        warnings = answer.warnings();
        resultIndex = 0;
        openCurrentResult();
    }

    /** executeQuery's check: the first result must be rows. */
    final ResultSet requireResultSet() throws SQLException {
        if (currentResultSet == null) {
            throw DriverErrors.of("No results were returned by the query.", SqlStates.NO_DATA);
        }
        return currentResultSet;
    }

    /** executeUpdate's check: the first result must be an update count. */
    final long requireUpdateCount() throws SQLException {
        if (currentResultSet != null) {
            closeResults();
            throw DriverErrors.of("A result was returned when none was expected.", SqlStates.TOO_MANY_RESULTS);
        }
        return results.isEmpty() ? 0 : (Long) results.get(0);
    }

    /**
     * Runs a BATCH frame and returns its counts; the batch is cleared whatever the outcome, as in
     * pgjdbc. The keys it generated, when asked for, are then what getGeneratedKeys() reads.
     */
    final long[] executeBatchFrame(BatchFrame frame) throws SQLException {
        ControllerChannel.Request request = connection.tagged(tag -> frame.withTag(tag)::write);
        checkOpen();
        closeResults();
        warnings = null;
        BatchResultFrame answer;
        executing = true;
        String what = "a batch of "
                + (frame.statements() != null
                        ? frame.statements().size() + " statements"
                        : frame.rows().size() + " rows of " + describe(frame.sql()));
        try {
            answer = connection.journaled(
                    what,
                    request,
                    () -> channel.call(request, r -> {
                        ControllerChannel.expect(r, Protocol.BATCH_RESULT);
                        return BatchResultFrame.read(r);
                    }),
                    (journal, a) -> journal.batched(what, request, a));
        } catch (SQLException e) {
            if (SqlStates.PROGRAM_LIMIT_EXCEEDED.equals(e.getSQLState()) && !(e instanceof BatchUpdateException)) {
                // Refused before sending: none of the batch ran, which a BatchUpdateException says with no counts.
                throw new BatchUpdateException(e.getMessage(), e.getSQLState(), e.getErrorCode(), new long[0], e);
            }
            throw e;
        } finally {
            executing = false;
        }
        generatedKeysRowset = answer.generatedKeys();
        warnings = answer.warnings();
        return answer.counts();
    }

    /** A statement as error messages name it: its text, shortened. */
    static String describe(String sql) {
        String oneLine = sql.strip().replaceAll("\\s+", " ");
        return oneLine.length() <= 80 ? oneLine : oneLine.substring(0, 77) + "...";
    }

    static int[] toIntCounts(long[] counts) {
        int[] ints = new int[counts.length];
        for (int i = 0; i < counts.length; i++) {
            ints[i] = toIntCount(counts[i]);
        }
        return ints;
    }

    private static int toIntCount(long count) {
        return count > Integer.MAX_VALUE ? Statement.SUCCESS_NO_INFO : (int) count;
    }

    /** PreparedStatement forbids the methods that take SQL text; a plain statement allows them. */
    void checkSqlTextAllowed() throws SQLException {}

    private void runSql(String sql, byte mode, boolean returnKeys, List<String> keyColumns) throws SQLException {
        checkSqlTextAllowed();
        if (sql == null) {
            throw DriverErrors.of("The SQL statement is null.", SqlStates.INVALID_PARAMETER_VALUE);
        }
        execute(sql, null, mode, returnKeys, keyColumns);
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        runSql(sql, Protocol.MODE_QUERY, false, null);
        return requireResultSet();
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        return toIntCount(executeLargeUpdate(sql));
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        runSql(sql, Protocol.MODE_UPDATE, false, null);
        return requireUpdateCount();
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return toIntCount(executeLargeUpdate(sql, autoGeneratedKeys));
    }

    @Override
    public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        runSql(sql, Protocol.MODE_UPDATE, wantsKeys(autoGeneratedKeys), null);
        return requireUpdateCount();
    }

    @Override
    public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return toIntCount(executeLargeUpdate(sql, columnIndexes));
    }

    @Override
    public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
        checkNoColumnIndexes(columnIndexes);
        return executeLargeUpdate(sql);
    }

    @Override
    public int executeUpdate(String sql, String[] columnNames) throws SQLException {
        return toIntCount(executeLargeUpdate(sql, columnNames));
    }

    @Override
    public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
        runSql(sql, Protocol.MODE_UPDATE, hasNames(columnNames), keyColumns(columnNames));
        return requireUpdateCount();
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        runSql(sql, Protocol.MODE_ANY, false, null);
        return currentResultSet != null;
    }

    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        runSql(sql, Protocol.MODE_ANY, wantsKeys(autoGeneratedKeys), null);
        return currentResultSet != null;
    }

    @Override
    public boolean execute(String sql, int[] columnIndexes) throws SQLException {
        checkNoColumnIndexes(columnIndexes);
        return execute(sql);
    }

    @Override
    public boolean execute(String sql, String[] columnNames) throws SQLException {
        runSql(sql, Protocol.MODE_ANY, hasNames(columnNames), keyColumns(columnNames));
        return currentResultSet != null;
    }

    static boolean wantsKeys(int autoGeneratedKeys) throws SQLException {
        if (autoGeneratedKeys != Statement.RETURN_GENERATED_KEYS && autoGeneratedKeys != Statement.NO_GENERATED_KEYS) {
            throw DriverErrors.of(
                    "Invalid autoGeneratedKeys value: " + autoGeneratedKeys, SqlStates.INVALID_PARAMETER_VALUE);
        }
        return autoGeneratedKeys == Statement.RETURN_GENERATED_KEYS;
    }

    static boolean hasNames(String[] columnNames) {
        return columnNames != null && columnNames.length > 0;
    }

    static List<String> keyColumns(String[] columnNames) {
        return hasNames(columnNames) ? List.copyOf(Arrays.asList(columnNames)) : null;
    }

    /** As in pgjdbc: the protocol names key columns, it cannot point at them by position. */
    static void checkNoColumnIndexes(int[] columnIndexes) throws SQLException {
        if (columnIndexes != null && columnIndexes.length > 0) {
            throw DriverErrors.notSupported("Returning autogenerated keys by column index");
        }
    }

    // ---- batch ----

    /** As in pgjdbc, a text's escapes are processed as it is added, under the setting of that moment. */
    @Override
    public void addBatch(String sql) throws SQLException {
        checkOpen();
        checkSqlTextAllowed();
        if (sql == null) {
            throw DriverErrors.of("The SQL statement is null.", SqlStates.INVALID_PARAMETER_VALUE);
        }
        batch.add(escapeProcessing ? connection.translateEscapes(sql) : sql);
        batchKeepsEscapes |= !escapeProcessing;
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batch.clear();
        batchKeepsEscapes = false;
    }

    @Override
    public int[] executeBatch() throws SQLException {
        return toIntCounts(executeLargeBatch());
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        if (batch.isEmpty()) {
            return new long[0];
        }
        List<String> statements = List.copyOf(batch);
        batch.clear();
        // Texts added with escape processing on were translated already: keeping escapes in all is safe.
        int flags = batchKeepsEscapes ? Protocol.FLAG_NO_ESCAPE_PROCESSING : 0;
        batchKeepsEscapes = false;
        int timeout = queryTimeoutSeconds;
        return executeBatchFrame(BatchFrame.ofStatements(timeout, flags, statements));
    }

    // ---- results ----

    private void openCurrentResult() throws SQLException {
        currentResultSet = null;
        if (resultIndex < results.size() && results.get(resultIndex) instanceof RowsetCodec.Rowset rowset) {
            currentResultSet = newResultSet(rowset);
            if (resultIndex < rowsDigests.size()) {
                currentResultSet.rowsDigest(rowsDigests.get(resultIndex));
            }
        }
    }

    private RaidbResultSet newResultSet(RowsetCodec.Rowset rowset) throws SQLException {
        RaidbResultSet rs = resultSetType == ResultSet.TYPE_FORWARD_ONLY
                ? new RaidbResultSet(this, channel, rowset, fetchSize, maxRows)
                : new ScrollableResultSet(this, channel, rowset, fetchSize, maxRows);
        openResultSets.add(rs);
        return rs;
    }

    /** Closes every result set of the previous run without letting closeOnCompletion close the statement. */
    final void closeResults() throws SQLException {
        closingResults = true;
        try {
            for (RaidbResultSet rs : List.copyOf(openResultSets)) {
                rs.close();
            }
        } finally {
            closingResults = false;
            openResultSets.clear();
            currentResultSet = null;
            results = List.of();
            rowsDigests = List.of();
            generatedKeysRowset = null;
        }
    }

    /** Called by a result set of this statement when it is closed. */
    void resultSetClosed(RaidbResultSet rs) throws SQLException {
        openResultSets.remove(rs);
        if (closeOnCompletion && !closingResults && openResultSets.isEmpty() && !closed) {
            close();
        }
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        checkOpen();
        return currentResultSet;
    }

    @Override
    public int getUpdateCount() throws SQLException {
        long count = getLargeUpdateCount();
        return count == -1 ? -1 : toIntCount(count);
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        checkOpen();
        if (resultIndex < results.size() && results.get(resultIndex) instanceof Long count) {
            return count;
        }
        return -1;
    }

    @Override
    public boolean getMoreResults() throws SQLException {
        return getMoreResults(Statement.CLOSE_CURRENT_RESULT);
    }

    @Override
    public boolean getMoreResults(int current) throws SQLException {
        checkOpen();
        closingResults = true;
        try {
            if (current == Statement.CLOSE_ALL_RESULTS) {
                for (RaidbResultSet rs : List.copyOf(openResultSets)) {
                    rs.close();
                }
            } else if (current == Statement.CLOSE_CURRENT_RESULT && currentResultSet != null) {
                currentResultSet.close();
            } else if (current != Statement.KEEP_CURRENT_RESULT && current != Statement.CLOSE_CURRENT_RESULT) {
                throw DriverErrors.of("Invalid getMoreResults argument: " + current, SqlStates.INVALID_PARAMETER_VALUE);
            }
        } finally {
            closingResults = false;
        }
        if (resultIndex < results.size()) {
            resultIndex++;
        }
        openCurrentResult();
        return currentResultSet != null;
    }

    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        checkOpen();
        RowsetCodec.Rowset keys = generatedKeysRowset == null ? NO_ROWS : generatedKeysRowset;
        generatedKeysRowset = null; // the keys can be read once, as the rows of a result set are
        return newResultSet(keys);
    }

    // ---- settings ----

    @Override
    public int getMaxFieldSize() throws SQLException {
        checkOpen();
        return maxFieldSize;
    }

    @Override
    public void setMaxFieldSize(int max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw DriverErrors.of(
                    "The maximum field size must be a value greater than or equal to 0.",
                    SqlStates.INVALID_PARAMETER_VALUE);
        }
        maxFieldSize = max; // kept for getMaxFieldSize; the controller does not truncate fields
    }

    @Override
    public int getMaxRows() throws SQLException {
        long max = getLargeMaxRows();
        return max > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) max;
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        setLargeMaxRows(max);
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        checkOpen();
        return maxRows;
    }

    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw DriverErrors.of(
                    "Maximum number of rows must be a value grater than or equal to 0.",
                    SqlStates.INVALID_PARAMETER_VALUE);
        }
        maxRows = max;
    }

    /** For plain statements and addBatch; as in pgjdbc, a prepared statement's escapes were processed when prepared. */
    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        checkOpen();
        escapeProcessing = enable;
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        checkOpen();
        return queryTimeoutSeconds;
    }

    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        checkOpen();
        if (seconds < 0) {
            throw DriverErrors.of(
                    "Query timeout must be a value greater than or equals to 0.", SqlStates.INVALID_PARAMETER_VALUE);
        }
        queryTimeoutSeconds = seconds; // enforced by the controller, which gets it in EXECUTE and BATCH
    }

    /**
     * Cancels the statement this statement is running, if any, through a CANCEL frame on a new
     * socket. Safe from any thread: it does not touch the connection's lock.
     */
    @Override
    public void cancel() throws SQLException {
        if (executing) {
            channel.cancel();
        }
    }

    /** True while a request of this statement waits for its answer; for tests of cancel. */
    boolean isExecuting() {
        return executing;
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return warnings;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        warnings = null;
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        checkOpen(); // named cursors are not supported; as in pgjdbc, the name is ignored
    }

    /** A hint, kept as pgjdbc keeps it: result sets are read forward from the controller whatever it says. */
    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        checkFetchDirection(direction);
        fetchDirection = direction;
    }

    static void checkFetchDirection(int direction) throws SQLException {
        if (direction != ResultSet.FETCH_FORWARD
                && direction != ResultSet.FETCH_REVERSE
                && direction != ResultSet.FETCH_UNKNOWN) {
            throw DriverErrors.of(
                    "Invalid fetch direction constant: " + direction + ".", SqlStates.INVALID_PARAMETER_VALUE);
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return fetchDirection;
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw DriverErrors.of(
                    "Fetch size must be a value greater to or equal to 0.", SqlStates.INVALID_PARAMETER_VALUE);
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public int getResultSetConcurrency() throws SQLException {
        checkOpen();
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getResultSetType() throws SQLException {
        checkOpen();
        return resultSetType;
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        checkOpen();
        return ResultSet.CLOSE_CURSORS_AT_COMMIT;
    }

    @Override
    public RaidbConnection getConnection() throws SQLException {
        checkOpen();
        return connection;
    }

    // ---- lifecycle ----

    final void checkOpen() throws SQLException {
        if (connection.isClosed()) {
            throw DriverErrors.connectionClosed();
        }
        if (closed) {
            throw DriverErrors.of("This statement has been closed.", SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        closeResults(); // sends CLOSE_CURSOR only while the connection is open
    }

    @Override
    public boolean isClosed() {
        return closed || connection.isClosed();
    }

    @Override
    public void setPoolable(boolean poolable) throws SQLException {
        checkOpen();
        this.poolable = poolable;
    }

    @Override
    public boolean isPoolable() throws SQLException {
        checkOpen();
        return poolable;
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        checkOpen();
        closeOnCompletion = true;
    }

    @Override
    public boolean isCloseOnCompletion() throws SQLException {
        checkOpen();
        return closeOnCompletion;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw DriverErrors.of("Cannot unwrap to " + iface.getName(), SqlStates.INVALID_PARAMETER_VALUE);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
