package org.raidb.driver;

import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.SqlNull;
import org.raidb.driver.protocol.SqlStates;

/**
 * Calls of functions that return a value, through the {@link CallEscape} translation: the call
 * runs as a query, and the OUT parameters are read from its first row, in the order of their
 * indexes ({@code ? =} first). Parameters are by index only; named parameters are not supported.
 */
public class RaidbCallableStatement extends RaidbPreparedStatement implements CallableStatement {
    private final CallEscape escape;
    /** Registered OUT parameters and their java.sql.Types, by index. */
    private final TreeMap<Integer, Integer> outTypes = new TreeMap<>();
    /** OUT values of the last execution, by parameter index; null before any execution. */
    private Map<Integer, Object> outValues;

    private boolean wasNull;

    private RaidbCallableStatement(
            RaidbConnection connection, ControllerChannel channel, int fetchSize, String sql, CallEscape escape) {
        super(
                connection,
                channel,
                fetchSize,
                ResultSet.TYPE_FORWARD_ONLY,
                sql,
                escape == null ? SqlText.countParameters(sql) : escape.parameterCount(),
                false,
                null);
        this.escape = escape;
    }

    static RaidbCallableStatement create(
            RaidbConnection connection, ControllerChannel channel, int fetchSize, String sql) throws SQLException {
        return new RaidbCallableStatement(connection, channel, fetchSize, sql, CallEscape.parse(sql));
    }

    /**
     * The translated call. The {@code ? =} parameter is never sent; a lone-{@code ?} argument that is
     * OUT only is left out of the call; any other OUT-only parameter is sent as a typed NULL.
     */
    @Override
    BoundStatement bind() throws SQLException {
        if (escape != null && escape.returnsValue() && !outTypes.containsKey(1)) {
            throw DriverErrors.of(
                    "Parameter 1 of {? = call ...} is the function's value: register it with registerOutParameter.",
                    SqlStates.INVALID_PARAMETER_VALUE);
        }
        Set<Integer> omitted = new HashSet<>();
        List<Object> values = new ArrayList<>();
        for (int p = 1; p <= parameters.count(); p++) {
            if (escape != null && escape.returnsValue() && p == 1) {
                continue;
            }
            boolean out = outTypes.containsKey(p);
            if (parameters.isSet(p)) {
                values.add(parameters.get(p));
            } else if (out && escape != null && escape.isLoneArgument(p)) {
                omitted.add(p);
            } else if (out) {
                values.add(SqlNull.of(outTypes.get(p)));
            } else {
                throw ParameterValues.unset(p);
            }
        }
        return new BoundStatement(escape == null ? sql : escape.toSql(omitted), values.toArray());
    }

    /**
     * A call may run a function that writes, though the escape travels as a SELECT: the controller is
     * told, so that every backend runs it. Text prepared through prepareCall without the escape is a
     * call too: the application chose CallableStatement for it.
     */
    @Override
    int executeFlags() {
        return Protocol.FLAG_CALL;
    }

    @Override
    void runBound(byte mode) throws SQLException {
        outValues = null;
        super.runBound(outTypes.isEmpty() ? mode : Protocol.MODE_ANY);
        if (!outTypes.isEmpty()) {
            readOutValues();
        }
    }

    /** Reads the OUT values from the first row of the call's result, which is then closed. */
    private void readOutValues() throws SQLException {
        Map<Integer, Object> values = new TreeMap<>();
        ResultSet rs = getResultSet();
        if (rs instanceof RaidbResultSet raidbRs) {
            try {
                Object[] row = raidbRs.next() ? raidbRs.currentRowValues() : new Object[0];
                int column = 0;
                for (int index : outTypes.keySet()) {
                    values.put(index, column < row.length ? row[column] : null);
                    column++;
                }
            } finally {
                raidbRs.close();
            }
        }
        outValues = values;
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        runBound(Protocol.MODE_QUERY);
        return outTypes.isEmpty() ? requireResultSet() : getResultSet();
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        runBound(Protocol.MODE_ANY); // a call is a query on the wire; its "update count" is 0 unless the backend says
        // otherwise
        return Math.max(0, getLargeUpdateCount());
    }

    // ---- OUT parameters ----

    @Override
    public void registerOutParameter(int parameterIndex, int sqlType) throws SQLException {
        checkOpen();
        if (parameterIndex < 1 || parameterIndex > parameters.count()) {
            throw DriverErrors.indexOutOfRange(parameterIndex, parameters.count());
        }
        outTypes.put(parameterIndex, sqlType);
    }

    @Override
    public void registerOutParameter(int parameterIndex, int sqlType, int scale) throws SQLException {
        registerOutParameter(parameterIndex, sqlType);
    }

    @Override
    public void registerOutParameter(int parameterIndex, int sqlType, String typeName) throws SQLException {
        registerOutParameter(parameterIndex, sqlType);
    }

    @Override
    public void registerOutParameter(int parameterIndex, SQLType sqlType) throws SQLException {
        registerOutParameter(parameterIndex, vendorType(sqlType));
    }

    @Override
    public void registerOutParameter(int parameterIndex, SQLType sqlType, int scale) throws SQLException {
        registerOutParameter(parameterIndex, vendorType(sqlType));
    }

    @Override
    public void registerOutParameter(int parameterIndex, SQLType sqlType, String typeName) throws SQLException {
        registerOutParameter(parameterIndex, vendorType(sqlType));
    }

    private Object out(int parameterIndex) throws SQLException {
        checkOpen();
        if (!outTypes.containsKey(parameterIndex)) {
            throw DriverErrors.of(
                    "Parameter " + parameterIndex + " was not registered as an OUT parameter.",
                    SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
        if (outValues == null) {
            throw DriverErrors.of(
                    "No function outputs were registered or the statement has not been executed.",
                    SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
        Object v = outValues.get(parameterIndex);
        wasNull = v == null;
        return v;
    }

    private static ZoneId zone(Calendar cal) {
        return cal == null ? ZoneId.systemDefault() : cal.getTimeZone().toZoneId();
    }

    private SQLFeatureNotSupportedException namedParameters() {
        return DriverErrors.notSupported("Named parameters of a CallableStatement");
    }

    /**
     * The statement that runs is not the text the application wrote (its OUT arguments are left out),
     * so the parameters are described from the values set, not by a backend.
     */
    @Override
    public java.sql.ParameterMetaData getParameterMetaData() throws SQLException {
        checkOpen();
        return RaidbParameterMetaData.ofBoundValues(parameters);
    }

    /** The columns of the result once executed; a call escape is not described before. */
    @Override
    public java.sql.ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        ResultSet rs = getResultSet();
        return rs == null ? null : rs.getMetaData();
    }

    @Override
    public boolean wasNull() throws SQLException {
        checkOpen();
        return wasNull;
    }

    @Override
    public String getString(int parameterIndex) throws SQLException {
        Object v = out(parameterIndex);
        return v == null ? null : ValueConversions.toText(v);
    }

    @Override
    public String getNString(int parameterIndex) throws SQLException {
        return getString(parameterIndex);
    }

    @Override
    public boolean getBoolean(int parameterIndex) throws SQLException {
        Object v = out(parameterIndex);
        return v != null && ValueConversions.toBoolean(v);
    }

    @Override
    public byte getByte(int parameterIndex) throws SQLException {
        Object v = out(parameterIndex);
        return v == null ? 0 : (byte) ValueConversions.toLong(v, "byte", Byte.MIN_VALUE, Byte.MAX_VALUE);
    }

    @Override
    public short getShort(int parameterIndex) throws SQLException {
        Object v = out(parameterIndex);
        return v == null ? 0 : (short) ValueConversions.toLong(v, "short", Short.MIN_VALUE, Short.MAX_VALUE);
    }

    @Override
    public int getInt(int parameterIndex) throws SQLException {
        Object v = out(parameterIndex);
        return v == null ? 0 : (int) ValueConversions.toLong(v, "int", Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    @Override
    public long getLong(int parameterIndex) throws SQLException {
        Object v = out(parameterIndex);
        return v == null ? 0 : ValueConversions.toLong(v, "long", Long.MIN_VALUE, Long.MAX_VALUE);
    }

    @Override
    public float getFloat(int parameterIndex) throws SQLException {
        Object v = out(parameterIndex);
        return v == null ? 0 : (float) ValueConversions.toDouble(v, "float");
    }

    @Override
    public double getDouble(int parameterIndex) throws SQLException {
        Object v = out(parameterIndex);
        return v == null ? 0 : ValueConversions.toDouble(v, "double");
    }

    @Override
    public BigDecimal getBigDecimal(int parameterIndex) throws SQLException {
        Object v = out(parameterIndex);
        return v == null ? null : ValueConversions.toBigDecimal(v);
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(int parameterIndex, int scale) throws SQLException {
        BigDecimal d = getBigDecimal(parameterIndex);
        return d == null ? null : d.setScale(scale, RoundingMode.HALF_UP);
    }

    @Override
    public byte[] getBytes(int parameterIndex) throws SQLException {
        Object v = out(parameterIndex);
        return v == null ? null : ValueConversions.toBytes(v);
    }

    @Override
    public Date getDate(int parameterIndex) throws SQLException {
        return getDate(parameterIndex, null);
    }

    @Override
    public Date getDate(int parameterIndex, Calendar cal) throws SQLException {
        Object v = out(parameterIndex);
        return v == null ? null : ValueConversions.toSqlDate(v, zone(cal));
    }

    @Override
    public Time getTime(int parameterIndex) throws SQLException {
        return getTime(parameterIndex, null);
    }

    @Override
    public Time getTime(int parameterIndex, Calendar cal) throws SQLException {
        Object v = out(parameterIndex);
        return v == null ? null : ValueConversions.toSqlTime(v, zone(cal));
    }

    @Override
    public Timestamp getTimestamp(int parameterIndex) throws SQLException {
        return getTimestamp(parameterIndex, null);
    }

    @Override
    public Timestamp getTimestamp(int parameterIndex, Calendar cal) throws SQLException {
        Object v = out(parameterIndex);
        return v == null ? null : ValueConversions.toSqlTimestamp(v, zone(cal));
    }

    @Override
    public Object getObject(int parameterIndex) throws SQLException {
        Object v = out(parameterIndex);
        return v == null ? null : ValueConversions.toJdbcObject(v);
    }

    @Override
    public Object getObject(int parameterIndex, Map<String, Class<?>> map) throws SQLException {
        return getObject(parameterIndex);
    }

    @Override
    public <T> T getObject(int parameterIndex, Class<T> type) throws SQLException {
        Object v = out(parameterIndex);
        return v == null ? null : ValueConversions.toClass(v, type, ZoneId.systemDefault());
    }

    @Override
    public Reader getCharacterStream(int parameterIndex) throws SQLException {
        String s = getString(parameterIndex);
        return s == null ? null : new StringReader(s);
    }

    @Override
    public Reader getNCharacterStream(int parameterIndex) throws SQLException {
        return getCharacterStream(parameterIndex);
    }

    @Override
    public URL getURL(int parameterIndex) throws SQLException {
        throw DriverErrors.notSupported("CallableStatement.getURL");
    }

    @Override
    public Ref getRef(int parameterIndex) throws SQLException {
        throw DriverErrors.notSupported("CallableStatement.getRef");
    }

    @Override
    public Blob getBlob(int parameterIndex) throws SQLException {
        throw DriverErrors.notSupported("CallableStatement.getBlob");
    }

    @Override
    public Clob getClob(int parameterIndex) throws SQLException {
        throw DriverErrors.notSupported("CallableStatement.getClob");
    }

    @Override
    public Array getArray(int parameterIndex) throws SQLException {
        Object v = out(parameterIndex);
        return v == null ? null : ValueConversions.toClass(v, Array.class, ZoneId.systemDefault());
    }

    @Override
    public RowId getRowId(int parameterIndex) throws SQLException {
        throw DriverErrors.notSupported("CallableStatement.getRowId");
    }

    @Override
    public NClob getNClob(int parameterIndex) throws SQLException {
        throw DriverErrors.notSupported("CallableStatement.getNClob");
    }

    @Override
    public SQLXML getSQLXML(int parameterIndex) throws SQLException {
        Object v = out(parameterIndex);
        return v == null ? null : new RaidbSqlXml(ValueConversions.toText(v));
    }

    // ---- named parameters: not supported ----

    @Override
    public void registerOutParameter(String parameterName, int a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void registerOutParameter(String parameterName, int a1, int a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void registerOutParameter(String parameterName, int a1, String a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setURL(String parameterName, URL a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setNull(String parameterName, int a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBoolean(String parameterName, boolean a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setByte(String parameterName, byte a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setShort(String parameterName, short a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setInt(String parameterName, int a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setLong(String parameterName, long a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setFloat(String parameterName, float a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setDouble(String parameterName, double a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBigDecimal(String parameterName, BigDecimal a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setString(String parameterName, String a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBytes(String parameterName, byte[] a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setDate(String parameterName, Date a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setTime(String parameterName, Time a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setTimestamp(String parameterName, Timestamp a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setAsciiStream(String parameterName, InputStream a1, int a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBinaryStream(String parameterName, InputStream a1, int a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setObject(String parameterName, Object a1, int a2, int a3) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setObject(String parameterName, Object a1, int a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setObject(String parameterName, Object a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setCharacterStream(String parameterName, Reader a1, int a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setDate(String parameterName, Date a1, Calendar a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setTime(String parameterName, Time a1, Calendar a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setTimestamp(String parameterName, Timestamp a1, Calendar a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setNull(String parameterName, int a1, String a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public String getString(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public boolean getBoolean(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public byte getByte(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public short getShort(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public int getInt(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public long getLong(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public float getFloat(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public double getDouble(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public byte[] getBytes(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Date getDate(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Time getTime(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Timestamp getTimestamp(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Object getObject(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public BigDecimal getBigDecimal(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Object getObject(String parameterName, Map<String, Class<?>> map) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Ref getRef(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Blob getBlob(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Clob getClob(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Array getArray(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Date getDate(String parameterName, Calendar a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Time getTime(String parameterName, Calendar a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Timestamp getTimestamp(String parameterName, Calendar a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public URL getURL(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public RowId getRowId(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setRowId(String parameterName, RowId a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setNString(String parameterName, String a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setNCharacterStream(String parameterName, Reader a1, long a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setNClob(String parameterName, NClob a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setClob(String parameterName, Reader a1, long a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBlob(String parameterName, InputStream a1, long a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setNClob(String parameterName, Reader a1, long a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public NClob getNClob(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setSQLXML(String parameterName, SQLXML a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public SQLXML getSQLXML(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public String getNString(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Reader getNCharacterStream(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Reader getCharacterStream(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBlob(String parameterName, Blob a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setClob(String parameterName, Clob a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setAsciiStream(String parameterName, InputStream a1, long a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBinaryStream(String parameterName, InputStream a1, long a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setCharacterStream(String parameterName, Reader a1, long a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setAsciiStream(String parameterName, InputStream a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBinaryStream(String parameterName, InputStream a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setCharacterStream(String parameterName, Reader a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setNCharacterStream(String parameterName, Reader a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setClob(String parameterName, Reader a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBlob(String parameterName, InputStream a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setNClob(String parameterName, Reader a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public <T> T getObject(String parameterName, Class<T> type) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setObject(String parameterName, Object a1, SQLType a2, int a3) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setObject(String parameterName, Object a1, SQLType a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void registerOutParameter(String parameterName, SQLType a1) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void registerOutParameter(String parameterName, SQLType a1, int a2) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void registerOutParameter(String parameterName, SQLType a1, String a2) throws SQLException {
        throw namedParameters();
    }
}
