package org.raidb.driver;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;
import org.raidb.driver.protocol.BatchFrame;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.DescribeFrame;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.SqlNull;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.driver.protocol.StatementDescription;
import org.raidb.driver.protocol.TypedText;

/**
 * A statement with {@code ?} placeholders. The SQL and the bound values travel together in each
 * EXECUTE; the controller prepares the statement on the backends, so nothing is prepared here.
 * Streams and LOBs are read into memory when they are set.
 */
public class RaidbPreparedStatement extends RaidbStatement implements PreparedStatement {
    /** What EXECUTE or BATCH sends for the current parameter values. */
    @SuppressWarnings("ArrayRecordComponent") // a carrier read once by its components, never compared or hashed
    record BoundStatement(String sql, Object[] values) {}

    final String sql;
    final ParameterValues parameters;
    private final boolean returnKeys;
    private final List<String> keyColumns;
    private final List<Object[]> batchRows = new ArrayList<>();
    private String batchSql;
    /** What a backend said of the statement, asked once, when first needed (as pgjdbc keeps its description). */
    private StatementDescription description;

    /** @param sql the text with its JDBC escapes already translated, as pgjdbc does when it prepares */
    RaidbPreparedStatement(
            RaidbConnection connection,
            ControllerChannel channel,
            int fetchSize,
            int resultSetType,
            String sql,
            boolean returnKeys,
            List<String> keyColumns) {
        this(connection, channel, fetchSize, resultSetType, sql, SqlText.countParameters(sql), returnKeys, keyColumns);
    }

    RaidbPreparedStatement(
            RaidbConnection connection,
            ControllerChannel channel,
            int fetchSize,
            int resultSetType,
            String sql,
            int parameterCount,
            boolean returnKeys,
            List<String> keyColumns) {
        super(connection, channel, fetchSize, resultSetType);
        this.sql = sql;
        this.parameters = new ParameterValues(parameterCount);
        this.returnKeys = returnKeys;
        this.keyColumns = keyColumns;
    }

    /** The SQL and values to send; every parameter must be set. CallableStatement rewrites both. */
    BoundStatement bind() throws SQLException {
        return new BoundStatement(sql, parameters.snapshot());
    }

    @Override
    void checkSqlTextAllowed() throws SQLException {
        throw DriverErrors.of(
                "Can't use query methods that take a query string on a PreparedStatement.",
                SqlStates.WRONG_OBJECT_TYPE);
    }

    // ---- execution ----

    void runBound(byte mode) throws SQLException {
        checkOpen();
        BoundStatement bound = bind();
        execute(bound.sql(), bound.values(), mode, returnKeys, keyColumns);
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        runBound(Protocol.MODE_QUERY);
        return requireResultSet();
    }

    @Override
    public int executeUpdate() throws SQLException {
        long count = executeLargeUpdate();
        return count > Integer.MAX_VALUE ? SUCCESS_NO_INFO : (int) count;
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        runBound(Protocol.MODE_UPDATE);
        return requireUpdateCount();
    }

    @Override
    public boolean execute() throws SQLException {
        runBound(Protocol.MODE_ANY);
        return getResultSet() != null;
    }

    @Override
    public void addBatch() throws SQLException {
        checkOpen();
        BoundStatement bound = bind();
        batchSql = bound.sql();
        batchRows.add(bound.values());
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batchRows.clear();
    }

    @Override
    public int[] executeBatch() throws SQLException {
        return toIntCounts(executeLargeBatch());
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        if (batchRows.isEmpty()) {
            return new long[0];
        }
        List<Object[]> rows = List.copyOf(batchRows);
        batchRows.clear();
        String text = batchSql;
        int timeout = getQueryTimeout();
        int flags = returnKeys ? Protocol.FLAG_RETURN_GENERATED_KEYS : 0;
        List<List<Object>> values = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            values.add(Arrays.asList(row));
        }
        return executeBatchFrame(BatchFrame.ofPrepared(timeout, flags, keyColumns, text, values));
    }

    /** The open result's columns, else those a backend describes without running the statement, as in pgjdbc. */
    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        ResultSet rs = getResultSet();
        if (rs != null && !rs.isClosed()) {
            return rs.getMetaData();
        }
        List<ColumnInfo> columns = describe().columns();
        return columns == null ? null : new RaidbResultSetMetaData(columns);
    }

    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        checkOpen();
        return new RaidbParameterMetaData(describe().parameters());
    }

    /** Asks the controller to have a backend describe the statement (DESCRIBE), once. */
    StatementDescription describe() throws SQLException {
        if (description == null) {
            String text = sql;
            description = channel.call(new DescribeFrame(text)::write, r -> {
                ControllerChannel.expect(r, Protocol.DESCRIPTION);
                return StatementDescription.read(r);
            });
        }
        return description;
    }

    // ---- setters ----

    /** Stores a value; a null becomes a NULL of the given type, so that the backend can bind it. */
    void set(int index, Object value, int sqlTypeIfNull) throws SQLException {
        checkOpen();
        parameters.set(index, value == null ? SqlNull.of(sqlTypeIfNull) : value);
    }

    @Override
    public void clearParameters() throws SQLException {
        checkOpen();
        parameters.clear();
    }

    @Override
    public void setNull(int parameterIndex, int sqlType) throws SQLException {
        set(parameterIndex, null, sqlType);
    }

    @Override
    public void setNull(int parameterIndex, int sqlType, String typeName) throws SQLException {
        set(parameterIndex, null, sqlType);
    }

    @Override
    public void setBoolean(int parameterIndex, boolean x) throws SQLException {
        set(parameterIndex, x, Types.BOOLEAN);
    }

    @Override
    public void setByte(int parameterIndex, byte x) throws SQLException {
        set(parameterIndex, (short) x, Types.SMALLINT); // the wire has no byte; PostgreSQL has no tinyint either
    }

    @Override
    public void setShort(int parameterIndex, short x) throws SQLException {
        set(parameterIndex, x, Types.SMALLINT);
    }

    @Override
    public void setInt(int parameterIndex, int x) throws SQLException {
        set(parameterIndex, x, Types.INTEGER);
    }

    @Override
    public void setLong(int parameterIndex, long x) throws SQLException {
        set(parameterIndex, x, Types.BIGINT);
    }

    @Override
    public void setFloat(int parameterIndex, float x) throws SQLException {
        set(parameterIndex, x, Types.REAL);
    }

    @Override
    public void setDouble(int parameterIndex, double x) throws SQLException {
        set(parameterIndex, x, Types.DOUBLE);
    }

    @Override
    public void setBigDecimal(int parameterIndex, BigDecimal x) throws SQLException {
        set(parameterIndex, x, Types.NUMERIC);
    }

    @Override
    public void setString(int parameterIndex, String x) throws SQLException {
        set(parameterIndex, x, Types.VARCHAR);
    }

    @Override
    public void setNString(int parameterIndex, String value) throws SQLException {
        set(parameterIndex, value, Types.NVARCHAR);
    }

    @Override
    public void setBytes(int parameterIndex, byte[] x) throws SQLException {
        set(parameterIndex, x, Types.VARBINARY);
    }

    @Override
    public void setDate(int parameterIndex, Date x) throws SQLException {
        setDate(parameterIndex, x, null);
    }

    @Override
    public void setDate(int parameterIndex, Date x, Calendar cal) throws SQLException {
        set(parameterIndex, x == null ? null : ParameterConversions.dateIn(x, cal), Types.DATE);
    }

    @Override
    public void setTime(int parameterIndex, Time x) throws SQLException {
        setTime(parameterIndex, x, null);
    }

    @Override
    public void setTime(int parameterIndex, Time x, Calendar cal) throws SQLException {
        set(parameterIndex, x == null ? null : ParameterConversions.timeIn(x, cal), Types.TIME);
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x) throws SQLException {
        setTimestamp(parameterIndex, x, null);
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x, Calendar cal) throws SQLException {
        set(parameterIndex, x == null ? null : ParameterConversions.timestampIn(x, cal), Types.TIMESTAMP);
    }

    @Override
    public void setObject(int parameterIndex, Object x) throws SQLException {
        set(parameterIndex, x == null ? null : ObjectParameters.inferred(x), Types.NULL);
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType) throws SQLException {
        set(parameterIndex, ParameterConversions.convert(x, targetSqlType), targetSqlType);
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        Object v = ParameterConversions.convert(x, targetSqlType);
        if (v instanceof BigDecimal d && (targetSqlType == Types.DECIMAL || targetSqlType == Types.NUMERIC)) {
            v = d.setScale(scaleOrLength, java.math.RoundingMode.HALF_UP);
        }
        set(parameterIndex, v, targetSqlType);
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType) throws SQLException {
        setObject(parameterIndex, x, vendorType(targetSqlType));
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException {
        setObject(parameterIndex, x, vendorType(targetSqlType), scaleOrLength);
    }

    static int vendorType(SQLType type) throws SQLException {
        if (type == null || type.getVendorTypeNumber() == null) {
            throw DriverErrors.notSupported("SQLType " + type);
        }
        return type.getVendorTypeNumber();
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, int length) throws SQLException {
        setAsciiStream(parameterIndex, x, (long) length);
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, long length) throws SQLException {
        set(
                parameterIndex,
                x == null ? null : new String(ParameterConversions.readBytes(x, length), StandardCharsets.US_ASCII),
                Types.VARCHAR);
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x) throws SQLException {
        setAsciiStream(parameterIndex, x, -1L);
    }

    @Override
    @Deprecated
    public void setUnicodeStream(int parameterIndex, InputStream x, int length) throws SQLException {
        set(
                parameterIndex,
                x == null ? null : new String(ParameterConversions.readBytes(x, length), StandardCharsets.UTF_8),
                Types.VARCHAR);
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, int length) throws SQLException {
        setBinaryStream(parameterIndex, x, (long) length);
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, long length) throws SQLException {
        set(parameterIndex, x == null ? null : ParameterConversions.readBytes(x, length), Types.VARBINARY);
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x) throws SQLException {
        setBinaryStream(parameterIndex, x, -1L);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, int length) throws SQLException {
        setCharacterStream(parameterIndex, reader, (long) length);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, long length) throws SQLException {
        set(parameterIndex, reader == null ? null : ParameterConversions.readText(reader, length), Types.VARCHAR);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader) throws SQLException {
        setCharacterStream(parameterIndex, reader, -1L);
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value, long length) throws SQLException {
        setCharacterStream(parameterIndex, value, length);
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value) throws SQLException {
        setCharacterStream(parameterIndex, value, -1L);
    }

    @Override
    public void setBlob(int parameterIndex, Blob x) throws SQLException {
        set(parameterIndex, x == null ? null : ParameterConversions.normalize(x), Types.BLOB);
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream, long length) throws SQLException {
        setBinaryStream(parameterIndex, inputStream, length);
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream) throws SQLException {
        setBinaryStream(parameterIndex, inputStream, -1L);
    }

    @Override
    public void setClob(int parameterIndex, Clob x) throws SQLException {
        set(parameterIndex, x == null ? null : ParameterConversions.normalize(x), Types.CLOB);
    }

    @Override
    public void setClob(int parameterIndex, Reader reader, long length) throws SQLException {
        setCharacterStream(parameterIndex, reader, length);
    }

    @Override
    public void setClob(int parameterIndex, Reader reader) throws SQLException {
        setCharacterStream(parameterIndex, reader, -1L);
    }

    @Override
    public void setNClob(int parameterIndex, NClob value) throws SQLException {
        setClob(parameterIndex, value);
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader, long length) throws SQLException {
        setCharacterStream(parameterIndex, reader, length);
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader) throws SQLException {
        setCharacterStream(parameterIndex, reader, -1L);
    }

    @Override
    public void setSQLXML(int parameterIndex, SQLXML xmlObject) throws SQLException {
        set(parameterIndex, xmlObject == null ? null : new TypedText("xml", xmlObject.getString()), Types.SQLXML);
    }

    @Override
    public void setURL(int parameterIndex, URL x) throws SQLException {
        set(parameterIndex, x == null ? null : x.toString(), Types.VARCHAR);
    }

    @Override
    public void setRef(int parameterIndex, Ref x) throws SQLException {
        throw DriverErrors.notSupported("PreparedStatement.setRef");
    }

    @Override
    public void setArray(int parameterIndex, Array x) throws SQLException {
        set(parameterIndex, x == null ? null : RaidbArray.toWire(x), Types.ARRAY);
    }

    @Override
    public void setRowId(int parameterIndex, RowId x) throws SQLException {
        throw DriverErrors.notSupported("PreparedStatement.setRowId");
    }
}
