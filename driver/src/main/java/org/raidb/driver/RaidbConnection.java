package org.raidb.driver;

import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.ClientInfoStatus;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.raidb.driver.protocol.ClientInfoFrame;
import org.raidb.driver.protocol.PingFrame;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.RequestTag;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.driver.protocol.TransactionFrame;

/**
 * A JDBC connection to a virtual database, through one controller.
 *
 * <p>The connection may be shared by several threads: every request/response exchange holds the
 * {@link ControllerChannel}'s lock, and the transaction state below is guarded by this object's
 * monitor. When its controller fails, the connection moves to another controller of the URL ({@link
 * ControllerChannel}, failover on by default with several controllers); without failover, or when no
 * controller takes it over, a failed socket closes the connection (08006, or 08001 after a failed failover)
 * and after that every call fails with 08003.
 */
public class RaidbConnection implements Connection {

    private final ControllerChannel channel;
    /** What another controller must be told to take the session over; null when failover is off. */
    private final SessionMemory memory;

    private final ConnectionSettings settings;
    private final String url;
    private boolean autoCommit = true;
    private boolean readOnly;
    private int isolation = Connection.TRANSACTION_READ_COMMITTED; // the backends' default until set
    private int holdability = ResultSet.CLOSE_CURSORS_AT_COMMIT;
    private int nextSavepointId;
    private final Properties clientInfo = new Properties();
    private Map<String, Class<?>> typeMap = new HashMap<>();
    private SQLWarning warnings;
    private RaidbDatabaseMetaData metaData;

    RaidbConnection(ControllerChannel channel, SessionMemory memory, ConnectionSettings settings, String url) {
        this.channel = channel;
        this.memory = memory;
        this.settings = settings;
        this.url = url;
        String applicationName = settings.clientProperties().get(Protocol.APPLICATION_NAME);
        if (applicationName != null) {
            clientInfo.setProperty(Protocol.APPLICATION_NAME, applicationName); // the controller has it from HELLO
        }
    }

    ServerInfo serverInfo() {
        return channel.serverInfo();
    }

    ConnectionSettings settings() {
        return settings;
    }

    String url() {
        return url;
    }

    /** The controller this connection talks to (another one after a failover). */
    public HostAndPort controller() {
        return channel.controller();
    }

    /** Null when failover is off. */
    SessionMemory memory() {
        return memory;
    }

    /**
     * A request that may write, with the next request id when failover is on: sent again after a failover, the
     * new controller recognizes it. {@code withTag} gives the frame with a tag.
     */
    ControllerChannel.Request tagged(java.util.function.Function<RequestTag, ControllerChannel.Request> withTag) {
        if (memory == null) {
            return withTag.apply(RequestTag.NONE);
        }
        RequestTag tag = memory.nextTag();
        return new ControllerChannel.Tagged(withTag.apply(tag), withTag.apply(tag.asOutcomeQuery()));
    }

    /**
     * Runs a request and notes it in the open transaction's journal (failover on): {@code answered} with its
     * answer, or as refused with the error the controller answered. An error of the connection itself, or one
     * that a failover during the call raised, is not the request's answer and is not noted.
     */
    <T> T journaled(String what, ControllerChannel.Request request, Call<T> call, Journaling<T> answered)
            throws SQLException {
        boolean inTransaction = memory != null && memory.inTransaction();
        int failoversBefore = channel.failovers();
        T answer;
        try {
            answer = call.run();
        } catch (SQLException e) {
            if (inTransaction
                    && channel.failovers() == failoversBefore
                    && e.getSQLState() != null
                    && !e.getSQLState().startsWith("08")
                    && !SqlStates.PROGRAM_LIMIT_EXCEEDED.equals(e.getSQLState())) {
                memory.journal().refused(what, request, e);
            }
            throw e;
        }
        if (inTransaction && memory.inTransaction()) {
            answered.note(memory.journal(), answer);
        }
        return answer;
    }

    @FunctionalInterface
    interface Call<T> {
        T run() throws SQLException;
    }

    @FunctionalInterface
    interface Journaling<T> {
        void note(TransactionJournal journal, T answer);
    }

    private void checkOpen() throws SQLException {
        if (channel.isClosed()) {
            throw DriverErrors.connectionClosed();
        }
    }

    /** A TRANSACTION frame, tagged when failover is on. */
    private void transaction(TransactionFrame frame) throws SQLException {
        checkOpen();
        channel.callOk(tagged(tag -> frame.withTag(tag)::write));
    }

    /** A savepoint command: inside the transaction, so noted in its journal. */
    private void savepointCommand(TransactionFrame frame, String what) throws SQLException {
        checkOpen();
        ControllerChannel.Request request = tagged(tag -> frame.withTag(tag)::write);
        journaled(
                what,
                request,
                () -> {
                    channel.callOk(request);
                    return null;
                },
                (journal, answer) -> journal.answeredOk(what, request));
    }

    /** A commit or rollback (or auto-commit switched on) ended the transaction, whatever its outcome. */
    private void ended(boolean committed) {
        if (memory != null) {
            memory.transactionEnded(committed);
        }
    }

    // ---- statements ----

    @Override
    public Statement createStatement() throws SQLException {
        checkOpen();
        return new RaidbStatement(this, channel, settings.fetchSize());
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
        return createStatement(resultSetType, resultSetConcurrency, holdability);
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        int type = resultSetType(resultSetType, resultSetConcurrency, resultSetHoldability);
        return new RaidbStatement(this, channel, settings.fetchSize(), type);
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        return prepare(sql, ResultSet.TYPE_FORWARD_ONLY, false, null);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency)
            throws SQLException {
        return prepareStatement(sql, resultSetType, resultSetConcurrency, holdability);
    }

    @Override
    public PreparedStatement prepareStatement(
            String sql, int resultSetType, int resultSetConcurrency, int resultSetHoldability) throws SQLException {
        int type = resultSetType(resultSetType, resultSetConcurrency, resultSetHoldability);
        return prepare(sql, type, false, null);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        return prepare(sql, ResultSet.TYPE_FORWARD_ONLY, RaidbStatement.wantsKeys(autoGeneratedKeys), null);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        RaidbStatement.checkNoColumnIndexes(columnIndexes);
        return prepare(sql, ResultSet.TYPE_FORWARD_ONLY, false, null);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        return prepare(
                sql,
                ResultSet.TYPE_FORWARD_ONLY,
                RaidbStatement.hasNames(columnNames),
                RaidbStatement.keyColumns(columnNames));
    }

    /** As pgjdbc does, a prepared statement's escapes are translated once, here. */
    private PreparedStatement prepare(String sql, int resultSetType, boolean returnKeys, List<String> keyColumns)
            throws SQLException {
        checkOpen();
        checkSql(sql);
        return new RaidbPreparedStatement(
                this, channel, settings.fetchSize(), resultSetType, translateEscapes(sql), returnKeys, keyColumns);
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        checkOpen();
        checkSql(sql);
        return RaidbCallableStatement.create(this, channel, settings.fetchSize(), translateEscapes(sql));
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
        return prepareCall(sql, resultSetType, resultSetConcurrency, holdability);
    }

    /** Calls answer one row of OUT values: every kind of result set is accepted and the call's is forward-only. */
    @Override
    public CallableStatement prepareCall(
            String sql, int resultSetType, int resultSetConcurrency, int resultSetHoldability) throws SQLException {
        resultSetType(resultSetType, resultSetConcurrency, resultSetHoldability);
        return prepareCall(sql);
    }

    private static void checkSql(String sql) throws SQLException {
        if (sql == null) {
            throw DriverErrors.of("The SQL statement is null.", SqlStates.INVALID_PARAMETER_VALUE);
        }
    }

    /**
     * The result set type a statement gets. Scroll-insensitive result sets are held in the driver, as
     * pgjdbc holds them; what the driver cannot give is downgraded with a warning on the connection, as
     * JDBC asks: scroll-sensitive to scroll-insensitive, updatable to read-only.
     */
    private int resultSetType(int type, int concurrency, int resultSetHoldability) throws SQLException {
        checkOpen();
        if (type != ResultSet.TYPE_FORWARD_ONLY
                && type != ResultSet.TYPE_SCROLL_INSENSITIVE
                && type != ResultSet.TYPE_SCROLL_SENSITIVE) {
            throw DriverErrors.of("Unknown value for ResultSet type: " + type + ".", SqlStates.INVALID_PARAMETER_VALUE);
        }
        if (concurrency != ResultSet.CONCUR_READ_ONLY && concurrency != ResultSet.CONCUR_UPDATABLE) {
            throw DriverErrors.of(
                    "Unknown value for ResultSet concurrency: " + concurrency + ".", SqlStates.INVALID_PARAMETER_VALUE);
        }
        checkHoldability(resultSetHoldability);
        if (type == ResultSet.TYPE_SCROLL_SENSITIVE) {
            addWarning(
                    "TYPE_SCROLL_SENSITIVE result sets are not supported: the result set is TYPE_SCROLL_INSENSITIVE.");
        }
        if (concurrency == ResultSet.CONCUR_UPDATABLE) {
            addWarning("CONCUR_UPDATABLE result sets are not supported by the RAIDb driver: the result set is "
                    + "CONCUR_READ_ONLY; change rows with UPDATE statements.");
        }
        return type == ResultSet.TYPE_FORWARD_ONLY ? type : ResultSet.TYPE_SCROLL_INSENSITIVE;
    }

    private synchronized void addWarning(String message) {
        SQLWarning w = new SQLWarning(message, SqlStates.WARNING);
        if (warnings == null) {
            warnings = w;
        } else {
            warnings.setNextWarning(w);
        }
    }

    private static void checkHoldability(int h) throws SQLException {
        if (h != ResultSet.CLOSE_CURSORS_AT_COMMIT && h != ResultSet.HOLD_CURSORS_OVER_COMMIT) {
            throw DriverErrors.of(
                    "Unknown ResultSet holdability setting: " + h + ".", SqlStates.INVALID_PARAMETER_VALUE);
        }
    }

    /**
     * JDBC escapes in pgjdbc's translation ({@link JdbcEscapes}), when the virtual database's backends
     * are PostgreSQL; others get the text as it is, and their own driver translates it.
     */
    String translateEscapes(String sql) throws SQLException {
        return "PostgreSQL".equalsIgnoreCase(serverInfo().productName()) ? JdbcEscapes.translate(sql) : sql;
    }

    /**
     * What pgjdbc's nativeSQL gives: escapes translated and placeholders numbered as the server gets
     * them ({@code $1}). A call escape is left as it is, as pgjdbc leaves it here.
     */
    @Override
    public String nativeSQL(String sql) throws SQLException {
        checkOpen();
        checkSql(sql);
        return SqlText.numberPlaceholders(translateEscapes(sql));
    }

    // ---- transactions ----

    @Override
    public synchronized void setAutoCommit(boolean autoCommit) throws SQLException {
        checkOpen();
        if (this.autoCommit == autoCommit) {
            return;
        }
        try {
            transaction(TransactionFrame.autoCommit(autoCommit));
        } catch (SQLException e) {
            if (autoCommit) {
                ended(false); // the commit that switching on makes failed: the transaction is over
            }
            throw e;
        }
        this.autoCommit = autoCommit;
        if (memory != null) {
            memory.autoCommit(autoCommit);
        }
    }

    @Override
    public synchronized boolean getAutoCommit() throws SQLException {
        checkOpen();
        return autoCommit;
    }

    @Override
    public synchronized void commit() throws SQLException {
        checkOpen();
        if (autoCommit) {
            throw DriverErrors.of("Cannot commit when autoCommit is enabled.", SqlStates.NO_ACTIVE_SQL_TRANSACTION);
        }
        try {
            transaction(TransactionFrame.commit());
        } catch (SQLException e) {
            ended(false);
            throw e;
        }
        ended(true);
    }

    @Override
    public synchronized void rollback() throws SQLException {
        checkOpen();
        if (autoCommit) {
            throw DriverErrors.of("Cannot rollback when autoCommit is enabled.", SqlStates.NO_ACTIVE_SQL_TRANSACTION);
        }
        try {
            transaction(TransactionFrame.rollback());
        } finally {
            ended(false);
        }
    }

    @Override
    public synchronized Savepoint setSavepoint() throws SQLException {
        return setSavepoint(RaidbSavepoint.unnamed(nextSavepointId++, this));
    }

    @Override
    public synchronized Savepoint setSavepoint(String name) throws SQLException {
        if (name == null || name.isEmpty()) {
            throw DriverErrors.of("A savepoint name must not be empty.", SqlStates.INVALID_PARAMETER_VALUE);
        }
        return setSavepoint(RaidbSavepoint.named(name, this));
    }

    private Savepoint setSavepoint(RaidbSavepoint savepoint) throws SQLException {
        checkOpen();
        if (autoCommit) {
            throw DriverErrors.of(
                    "Cannot establish a savepoint in auto-commit mode.", SqlStates.NO_ACTIVE_SQL_TRANSACTION);
        }
        savepointCommand(
                TransactionFrame.savepoint(Protocol.TX_SET_SAVEPOINT, savepoint.wireName()),
                "SAVEPOINT " + savepoint.wireName());
        return savepoint;
    }

    @Override
    public synchronized void rollback(Savepoint savepoint) throws SQLException {
        RaidbSavepoint sp = ours(savepoint);
        savepointCommand(
                TransactionFrame.savepoint(Protocol.TX_ROLLBACK_TO_SAVEPOINT, sp.wireName()),
                "ROLLBACK TO SAVEPOINT " + sp.wireName());
    }

    @Override
    public synchronized void releaseSavepoint(Savepoint savepoint) throws SQLException {
        RaidbSavepoint sp = ours(savepoint);
        savepointCommand(
                TransactionFrame.savepoint(Protocol.TX_RELEASE_SAVEPOINT, sp.wireName()),
                "RELEASE SAVEPOINT " + sp.wireName());
        sp.invalidate();
    }

    private RaidbSavepoint ours(Savepoint savepoint) throws SQLException {
        checkOpen();
        if (!(savepoint instanceof RaidbSavepoint sp) || !sp.belongsTo(this)) {
            throw DriverErrors.of("The savepoint was not created by this connection.", SqlStates.INVALID_SAVEPOINT);
        }
        if (!sp.isValid()) {
            throw RaidbSavepoint.invalid();
        }
        return sp;
    }

    @Override
    public synchronized void setTransactionIsolation(int level) throws SQLException {
        checkOpen();
        switch (level) {
            case TRANSACTION_READ_UNCOMMITTED,
                    TRANSACTION_READ_COMMITTED,
                    TRANSACTION_REPEATABLE_READ,
                    TRANSACTION_SERIALIZABLE -> {
                // supported: the controller is told below
            }
            default ->
                throw DriverErrors.of(
                        "Transaction isolation level " + level + " not supported.", SqlStates.FEATURE_NOT_SUPPORTED);
        }
        transaction(TransactionFrame.isolation(level));
        isolation = level;
        if (memory != null) {
            memory.isolation(level);
        }
    }

    @Override
    public synchronized int getTransactionIsolation() throws SQLException {
        checkOpen();
        return isolation;
    }

    @Override
    public synchronized void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        if (this.readOnly == readOnly) {
            return;
        }
        transaction(TransactionFrame.readOnly(readOnly));
        this.readOnly = readOnly;
        if (memory != null) {
            memory.readOnly(readOnly);
        }
    }

    @Override
    public synchronized boolean isReadOnly() throws SQLException {
        checkOpen();
        return readOnly;
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        checkOpen();
        checkHoldability(holdability);
        this.holdability = holdability;
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return holdability;
    }

    // ---- liveness and lifecycle ----

    /** A PING round trip, bounded by {@code timeout} seconds when positive. */
    @Override
    public boolean isValid(int timeout) throws SQLException {
        if (timeout < 0) {
            throw DriverErrors.of("Invalid timeout (" + timeout + "<0).", SqlStates.INVALID_PARAMETER_VALUE);
        }
        if (channel.isClosed()) {
            return false;
        }
        int previous = channel.getSoTimeout();
        try {
            if (timeout > 0) {
                channel.setSoTimeout((int) TimeUnit.SECONDS.toMillis(timeout));
            }
            channel.callOk(new PingFrame(timeout)::write);
            return true;
        } catch (SQLException e) {
            return false; // a timeout or broken socket has closed the channel; a controller's ERROR just says "not
            // valid"
        } finally {
            if (!channel.isClosed()) {
                channel.setSoTimeout(previous);
            }
        }
    }

    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        checkOpen();
        if (milliseconds < 0) {
            throw DriverErrors.of(
                    "Network timeout must be a value greater than or equal to 0.", SqlStates.INVALID_PARAMETER_VALUE);
        }
        channel.setSoTimeout(milliseconds);
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        checkOpen();
        return channel.getSoTimeout();
    }

    /** Sends CLOSE (the controller rolls back any open transaction) and closes the socket. Idempotent. */
    @Override
    public void close() {
        channel.close();
    }

    @Override
    public boolean isClosed() {
        return channel.isClosed();
    }

    /** Marks the connection closed at once and closes its socket through {@code executor}. */
    @Override
    public void abort(Executor executor) throws SQLException {
        if (executor == null) {
            throw DriverErrors.of("The executor must not be null.", SqlStates.INVALID_PARAMETER_VALUE);
        }
        if (channel.isClosed()) {
            return;
        }
        channel.markClosed();
        executor.execute(channel::abort);
    }

    // ---- descriptions and settings ----

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        checkOpen();
        if (metaData == null) {
            metaData = new RaidbDatabaseMetaData(this);
        }
        return metaData;
    }

    /** The virtual database stands for the catalog, as the database does in pgjdbc. */
    @Override
    public String getCatalog() throws SQLException {
        checkOpen();
        return settings.virtualDatabase();
    }

    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkOpen(); // like pgjdbc: switching databases needs a new connection, so this is ignored
    }

    /** The backend's current schema ({@code select current_schema()}), as pgjdbc answers. */
    @Override
    public String getSchema() throws SQLException {
        checkOpen();
        try (Statement st = createStatement();
                ResultSet rs = st.executeQuery("select current_schema()")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    /** Sets the backend's search_path to this one schema, as pgjdbc does. */
    @Override
    public void setSchema(String schema) throws SQLException {
        checkOpen();
        try (Statement st = createStatement()) {
            st.executeUpdate(
                    schema == null
                            ? "SET SESSION search_path TO DEFAULT"
                            : "SET SESSION search_path TO \"" + schema.replace("\"", "\"\"") + "\"");
        }
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        checkOpen();
        return typeMap;
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        checkOpen();
        typeMap = map; // kept for getTypeMap; the protocol carries no user-defined types to map
    }

    @Override
    public synchronized SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return warnings;
    }

    @Override
    public synchronized void clearWarnings() throws SQLException {
        checkOpen();
        warnings = null;
    }

    /**
     * Client info is kept in the driver; ApplicationName also names the session's backend connections
     * (their application_name), as pgjdbc names its own: the controller is told at once.
     */
    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        Properties all;
        synchronized (clientInfo) {
            all = new Properties();
            all.putAll(clientInfo);
        }
        if (value == null) {
            all.remove(name);
        } else {
            all.setProperty(name, value);
        }
        replaceClientInfo(all, Map.of(name, ClientInfoStatus.REASON_UNKNOWN));
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        Properties all = new Properties();
        Map<String, ClientInfoStatus> failed = new HashMap<>();
        for (String name : properties.stringPropertyNames()) {
            all.setProperty(name, properties.getProperty(name));
            failed.put(name, ClientInfoStatus.REASON_UNKNOWN);
        }
        replaceClientInfo(all, failed);
    }

    private void replaceClientInfo(Properties all, Map<String, ClientInfoStatus> failed) throws SQLClientInfoException {
        synchronized (clientInfo) {
            if (channel.isClosed()) {
                throw new SQLClientInfoException(
                        "This connection has been closed.", SqlStates.CONNECTION_DOES_NOT_EXIST, 0, failed);
            }
            String name = all.getProperty(Protocol.APPLICATION_NAME);
            if (!java.util.Objects.equals(name, clientInfo.getProperty(Protocol.APPLICATION_NAME))) {
                try {
                    channel.callOk(new ClientInfoFrame(Protocol.APPLICATION_NAME, name)::write);
                    if (memory != null) {
                        memory.applicationName(name);
                    }
                } catch (SQLException e) {
                    throw new SQLClientInfoException(e.getMessage(), e.getSQLState(), e.getErrorCode(), failed, e);
                }
            }
            clientInfo.clear();
            clientInfo.putAll(all);
        }
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        checkOpen();
        synchronized (clientInfo) {
            return clientInfo.getProperty(name);
        }
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        checkOpen();
        synchronized (clientInfo) {
            Properties copy = new Properties();
            copy.putAll(clientInfo);
            return copy;
        }
    }

    // ---- not supported: the protocol carries none of these objects ----

    @Override
    public Clob createClob() throws SQLException {
        checkOpen();
        throw DriverErrors.notSupported("Connection.createClob");
    }

    @Override
    public Blob createBlob() throws SQLException {
        checkOpen();
        throw DriverErrors.notSupported("Connection.createBlob");
    }

    @Override
    public NClob createNClob() throws SQLException {
        checkOpen();
        throw DriverErrors.notSupported("Connection.createNClob");
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        checkOpen();
        throw DriverErrors.notSupported("Connection.createSQLXML");
    }

    /** An array held in the driver until a statement sends it; {@code elements} may be arrays for more dimensions. */
    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        checkOpen();
        return RaidbArray.of(typeName, elements);
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        checkOpen();
        throw DriverErrors.notSupported("Connection.createStruct");
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

    @Override
    public String toString() {
        return "RaidbConnection[" + settings.virtualDatabase() + "@" + channel.controller() + "]";
    }
}
