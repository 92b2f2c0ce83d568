package org.raidb.driver;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.ZoneId;
import java.util.Calendar;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.raidb.driver.protocol.CloseCursorFrame;
import org.raidb.driver.protocol.FetchFrame;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.RowsFrame;
import org.raidb.driver.protocol.RowsetCodec;
import org.raidb.driver.protocol.SqlStates;

/**
 * A forward-only, read-only result set that streams: it holds only the batch of rows it is reading
 * and asks the controller for the next one (FETCH) when that batch is used up, so a result of any
 * size reads in a small heap. Closing it before the end tells the controller to close the backend
 * cursor (CLOSE_CURSOR).
 */
public class RaidbResultSet extends ReadOnlyResultSetBase {
    private final RaidbStatement statement;
    private final ControllerChannel channel;
    private final RowsetCodec.Header header;
    private final long maxRows;
    private List<Object[]> batch;
    private int nextIndex;
    private boolean lastBatch;
    private Object[] currentRow;
    private long rowNumber;
    private boolean afterLast;
    private boolean closed;
    private boolean wasNull;
    private int fetchSize;
    private Map<String, Integer> columnsByLabel;
    private RaidbResultSetMetaData metaData;
    private SQLWarning warnings;
    /** The controller's cursor lives on the controller the connection talked to when the result arrived. */
    private final int failoversAtStart;
    /** Inside a transaction (failover on): what the client received, for a replay to compare; else null. */
    private RowsDigest rowsDigest;

    RaidbResultSet(
            RaidbStatement statement,
            ControllerChannel channel,
            RowsetCodec.Rowset rowset,
            int fetchSize,
            long maxRows) {
        this.statement = statement;
        this.channel = channel;
        this.header = rowset.header();
        this.batch = rowset.firstBatch().rows();
        // cursorId 0 means the controller sent every row already, whatever the flag says.
        this.lastBatch = rowset.firstBatch().last() || header.cursorId() == 0;
        this.fetchSize = fetchSize;
        this.maxRows = maxRows;
        this.failoversAtStart = channel == null ? 0 : channel.failovers(); // none for an array's local result set
    }

    /** The digest that the batches fetched from now on feed (the first batch is in it already). */
    void rowsDigest(RowsDigest digest) {
        rowsDigest = digest;
    }

    @Override
    public boolean next() throws SQLException {
        return forward();
    }

    /** Moves to the next row the controller sends, fetching the next batch when this one is used up. */
    final boolean forward() throws SQLException {
        checkOpen();
        if (afterLast) {
            return false;
        }
        if (maxRows > 0 && rowNumber >= maxRows) {
            return reachEnd(); // the controller enforces maxRows too; this guards against a cursor that keeps going
        }
        while (nextIndex >= batch.size()) {
            if (lastBatch) {
                return reachEnd();
            }
            fetchNextBatch();
        }
        currentRow = batch.get(nextIndex);
        batch.set(nextIndex++, null); // only the current row stays reachable once read
        rowNumber++;
        return true;
    }

    private boolean reachEnd() throws SQLException {
        currentRow = null;
        afterLast = true;
        batch = List.of();
        closeCursor();
        return false;
    }

    private void fetchNextBatch() throws SQLException {
        batch = List.of(); // let the used-up batch be collected while the next one is read
        int rows = fetchSize;
        if (channel.failovers() != failoversAtStart) {
            throw cursorLost();
        }
        RowsetCodec.Batch next = channel.call(
                new FetchFrame(header.cursorId(), rows)::write,
                r -> {
                    ControllerChannel.expect(r, Protocol.ROWS);
                    return RowsFrame.read(r, header.columnCount());
                },
                ControllerChannel.InFlight.CURSOR_LOST);
        if (rowsDigest != null) {
            rowsDigest.add(next.rows(), next.last());
        }
        batch = next.rows();
        nextIndex = 0;
        lastBatch = next.last();
    }

    /** Reads every row left, for a result set that must hold them all to scroll; the cursor is closed after. */
    final List<Object[]> drain() throws SQLException {
        List<Object[]> rows = new java.util.ArrayList<>();
        while (forward()) {
            rows.add(currentRow);
        }
        return rows;
    }

    /** Makes {@code row} the current row, or none when null (a scrollable result set moving). */
    final void position(Object[] row) {
        currentRow = row;
    }

    /** Rows held in memory right now: the current batch. For tests of the streaming promise. */
    int bufferedRowCount() {
        int n = 0;
        for (int i = nextIndex; i < batch.size(); i++) {
            n += batch.get(i) == null ? 0 : 1;
        }
        return n + (currentRow == null ? 0 : 1);
    }

    /** The raw wire values of the current row, for CallableStatement's OUT parameters. */
    Object[] currentRowValues() throws SQLException {
        checkRow();
        return currentRow.clone();
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        currentRow = null;
        batch = List.of();
        try {
            closeCursor();
        } finally {
            if (statement != null) {
                statement.resultSetClosed(this);
            }
        }
    }

    /** Tells the controller to close a cursor we stop reading early; nothing to do once the last batch arrived. */
    private void closeCursor() throws SQLException {
        if (!lastBatch && !channel.isClosed()) {
            lastBatch = true;
            if (rowsDigest != null) {
                rowsDigest.abandon();
            }
            if (channel.failovers() != failoversAtStart) {
                return; // the cursor died with its controller
            }
            long cursorId = header.cursorId();
            channel.call(
                    new CloseCursorFrame(cursorId)::write,
                    r -> {
                        ControllerChannel.expect(r, Protocol.OK);
                        return null;
                    },
                    ControllerChannel.InFlight.NOTHING_LEFT);
        }
    }

    /** 08006: the rest of the rows were on a controller that failed. */
    private SQLException cursorLost() {
        lastBatch = true;
        return DriverErrors.of(
                "The rest of this result set was lost when its controller failed; the connection goes on with "
                        + "controller " + channel.controller() + ": run the query again",
                SqlStates.CONNECTION_FAILURE);
    }

    @Override
    void checkOpen() throws SQLException {
        if (closed) {
            throw DriverErrors.of("This ResultSet is closed.", SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
    }

    private void checkRow() throws SQLException {
        checkOpen();
        if (currentRow == null) {
            throw DriverErrors.of(
                    "ResultSet not positioned properly, perhaps you need to call next.",
                    SqlStates.INVALID_CURSOR_STATE);
        }
    }

    /** The raw value of a column of the current row, remembering whether it was SQL NULL. */
    private Object value(int column) throws SQLException {
        checkRow();
        if (column < 1 || column > header.columnCount()) {
            throw DriverErrors.indexOutOfRange(column, header.columnCount());
        }
        Object v = currentRow[column - 1];
        wasNull = v == null;
        return v;
    }

    private static ZoneId zone(Calendar cal) {
        return cal == null ? ZoneId.systemDefault() : cal.getTimeZone().toZoneId();
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public boolean wasNull() throws SQLException {
        checkOpen();
        return wasNull;
    }

    @Override
    public int findColumn(String columnLabel) throws SQLException {
        checkOpen();
        if (columnsByLabel == null) {
            // Case-insensitive and first match wins, as in pgjdbc.
            Map<String, Integer> map = new HashMap<>();
            List<org.raidb.driver.protocol.ColumnInfo> columns = header.columns();
            for (int i = 0; i < columns.size(); i++) {
                String label = columns.get(i).label();
                if (label != null) {
                    map.putIfAbsent(label.toLowerCase(Locale.ROOT), i + 1);
                }
            }
            columnsByLabel = map;
        }
        Integer index = columnLabel == null ? null : columnsByLabel.get(columnLabel.toLowerCase(Locale.ROOT));
        if (index == null) {
            throw DriverErrors.of(
                    "The column name " + columnLabel + " was not found in this ResultSet.", SqlStates.UNDEFINED_COLUMN);
        }
        return index;
    }

    // ---- getters by index ----

    @Override
    public String getString(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? null : ServerText.of(v, header.columns().get(columnIndex - 1));
    }

    @Override
    public String getNString(int columnIndex) throws SQLException {
        return getString(columnIndex);
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v != null && ValueConversions.toBoolean(v);
    }

    @Override
    public byte getByte(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : (byte) ValueConversions.toLong(v, "byte", Byte.MIN_VALUE, Byte.MAX_VALUE);
    }

    @Override
    public short getShort(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : (short) ValueConversions.toLong(v, "short", Short.MIN_VALUE, Short.MAX_VALUE);
    }

    @Override
    public int getInt(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : (int) ValueConversions.toLong(v, "int", Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : ValueConversions.toLong(v, "long", Long.MIN_VALUE, Long.MAX_VALUE);
    }

    @Override
    public float getFloat(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : (float) ValueConversions.toDouble(v, "float");
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : ValueConversions.toDouble(v, "double");
    }

    @Override
    public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? null : ValueConversions.toBigDecimal(v);
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
        BigDecimal d = getBigDecimal(columnIndex);
        return d == null ? null : d.setScale(scale, RoundingMode.HALF_UP);
    }

    /** A bytea's bytes; for other types, as pgjdbc, the bytes of the value's text. */
    @Override
    public byte[] getBytes(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        if (v == null || v instanceof byte[]) {
            return (byte[]) v;
        }
        return ServerText.of(v, header.columns().get(columnIndex - 1)).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public java.sql.Array getArray(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        if (v == null || v instanceof java.sql.Array) {
            return (java.sql.Array) v;
        }
        String type = v instanceof org.raidb.driver.protocol.TypedText t && t.typeName() != null
                ? t.typeName()
                : header.columns().get(columnIndex - 1).typeName();
        return RaidbArray.fromText(type, ValueConversions.toText(v));
    }

    @Override
    public java.sql.Array getArray(String columnLabel) throws SQLException {
        return getArray(findColumn(columnLabel));
    }

    @Override
    public java.sql.SQLXML getSQLXML(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? null : new RaidbSqlXml(ValueConversions.toText(v));
    }

    @Override
    public java.sql.SQLXML getSQLXML(String columnLabel) throws SQLException {
        return getSQLXML(findColumn(columnLabel));
    }

    @Override
    public Date getDate(int columnIndex) throws SQLException {
        return getDate(columnIndex, null);
    }

    @Override
    public Date getDate(int columnIndex, Calendar cal) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? null : ValueConversions.toSqlDate(v, zone(cal));
    }

    @Override
    public Time getTime(int columnIndex) throws SQLException {
        return getTime(columnIndex, null);
    }

    @Override
    public Time getTime(int columnIndex, Calendar cal) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? null : ValueConversions.toSqlTime(v, zone(cal));
    }

    @Override
    public Timestamp getTimestamp(int columnIndex) throws SQLException {
        return getTimestamp(columnIndex, null);
    }

    @Override
    public Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? null : ValueConversions.toSqlTimestamp(v, zone(cal));
    }

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? null : ValueConversions.toJdbcObject(v);
    }

    @Override
    public Object getObject(int columnIndex, Map<String, Class<?>> map) throws SQLException {
        return getObject(columnIndex); // no user-defined type mappings: the protocol carries none
    }

    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        if (type == null) {
            throw DriverErrors.of(
                    "Class type cannot be null.", org.raidb.driver.protocol.SqlStates.INVALID_PARAMETER_VALUE);
        }
        Object v = value(columnIndex);
        return v == null ? null : ValueConversions.toClass(v, type, ZoneId.systemDefault());
    }

    @Override
    public Reader getCharacterStream(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new StringReader(s);
    }

    @Override
    public Reader getNCharacterStream(int columnIndex) throws SQLException {
        return getCharacterStream(columnIndex);
    }

    @Override
    public InputStream getBinaryStream(int columnIndex) throws SQLException {
        byte[] b = getBytes(columnIndex);
        return b == null ? null : new ByteArrayInputStream(b);
    }

    @Override
    public InputStream getAsciiStream(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new ByteArrayInputStream(s.getBytes(StandardCharsets.US_ASCII));
    }

    // ---- position ----

    @Override
    public boolean isBeforeFirst() throws SQLException {
        checkOpen();
        return rowNumber == 0 && !afterLast && hasMoreRows();
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        checkOpen();
        return afterLast && rowNumber > 0;
    }

    @Override
    public boolean isFirst() throws SQLException {
        checkOpen();
        return currentRow != null && rowNumber == 1;
    }

    @Override
    public boolean isLast() throws SQLException {
        checkOpen();
        if (currentRow == null) {
            return false;
        }
        return (maxRows > 0 && rowNumber >= maxRows) || !hasMoreRows();
    }

    /** Whether next() would return a row; may fetch the next batch, which is safe since the current row is kept apart. */
    private boolean hasMoreRows() throws SQLException {
        while (nextIndex >= batch.size()) {
            if (lastBatch) {
                return false;
            }
            fetchNextBatch();
        }
        return true;
    }

    @Override
    public int getRow() throws SQLException {
        checkOpen();
        return currentRow == null ? 0 : (int) Math.min(rowNumber, Integer.MAX_VALUE);
    }

    // ---- description ----

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        if (metaData == null) {
            metaData = new RaidbResultSetMetaData(header.columns());
        }
        return metaData;
    }

    @Override
    public Statement getStatement() throws SQLException {
        checkOpen();
        return statement;
    }

    @Override
    public String getCursorName() throws SQLException {
        throw DriverErrors.notSupported("ResultSet.getCursorName");
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != ResultSet.FETCH_FORWARD) {
            throw forwardOnly();
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return ResultSet.FETCH_FORWARD;
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw DriverErrors.of(
                    "Fetch size must be a value greater to or equal to 0.",
                    org.raidb.driver.protocol.SqlStates.INVALID_PARAMETER_VALUE);
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public int getType() throws SQLException {
        checkOpen();
        return ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public int getConcurrency() throws SQLException {
        checkOpen();
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return ResultSet.CLOSE_CURSORS_AT_COMMIT;
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
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw DriverErrors.of(
                "Cannot unwrap to " + iface.getName(), org.raidb.driver.protocol.SqlStates.INVALID_PARAMETER_VALUE);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    // ---- getters by label: find the column, then as by index ----

    @Override
    public String getString(String columnLabel) throws SQLException {
        return getString(findColumn(columnLabel));
    }

    @Override
    public boolean getBoolean(String columnLabel) throws SQLException {
        return getBoolean(findColumn(columnLabel));
    }

    @Override
    public byte getByte(String columnLabel) throws SQLException {
        return getByte(findColumn(columnLabel));
    }

    @Override
    public short getShort(String columnLabel) throws SQLException {
        return getShort(findColumn(columnLabel));
    }

    @Override
    public int getInt(String columnLabel) throws SQLException {
        return getInt(findColumn(columnLabel));
    }

    @Override
    public long getLong(String columnLabel) throws SQLException {
        return getLong(findColumn(columnLabel));
    }

    @Override
    public float getFloat(String columnLabel) throws SQLException {
        return getFloat(findColumn(columnLabel));
    }

    @Override
    public double getDouble(String columnLabel) throws SQLException {
        return getDouble(findColumn(columnLabel));
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(String columnLabel, int scale) throws SQLException {
        return getBigDecimal(findColumn(columnLabel), scale);
    }

    @Override
    public byte[] getBytes(String columnLabel) throws SQLException {
        return getBytes(findColumn(columnLabel));
    }

    @Override
    public Date getDate(String columnLabel) throws SQLException {
        return getDate(findColumn(columnLabel));
    }

    @Override
    public Time getTime(String columnLabel) throws SQLException {
        return getTime(findColumn(columnLabel));
    }

    @Override
    public Timestamp getTimestamp(String columnLabel) throws SQLException {
        return getTimestamp(findColumn(columnLabel));
    }

    @Override
    public InputStream getAsciiStream(String columnLabel) throws SQLException {
        return getAsciiStream(findColumn(columnLabel));
    }

    @Override
    public InputStream getBinaryStream(String columnLabel) throws SQLException {
        return getBinaryStream(findColumn(columnLabel));
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        return getObject(findColumn(columnLabel));
    }

    @Override
    public Reader getCharacterStream(String columnLabel) throws SQLException {
        return getCharacterStream(findColumn(columnLabel));
    }

    @Override
    public BigDecimal getBigDecimal(String columnLabel) throws SQLException {
        return getBigDecimal(findColumn(columnLabel));
    }

    @Override
    public Object getObject(String columnLabel, Map<String, Class<?>> map) throws SQLException {
        return getObject(findColumn(columnLabel), map);
    }

    @Override
    public Date getDate(String columnLabel, Calendar cal) throws SQLException {
        return getDate(findColumn(columnLabel), cal);
    }

    @Override
    public Time getTime(String columnLabel, Calendar cal) throws SQLException {
        return getTime(findColumn(columnLabel), cal);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException {
        return getTimestamp(findColumn(columnLabel), cal);
    }

    @Override
    public String getNString(String columnLabel) throws SQLException {
        return getNString(findColumn(columnLabel));
    }

    @Override
    public Reader getNCharacterStream(String columnLabel) throws SQLException {
        return getNCharacterStream(findColumn(columnLabel));
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        return getObject(findColumn(columnLabel), type);
    }
}
