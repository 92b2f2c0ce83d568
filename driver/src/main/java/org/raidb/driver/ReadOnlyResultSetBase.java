package org.raidb.driver;

import java.sql.ResultSet;
import java.sql.SQLException;
import org.raidb.driver.protocol.SqlStates;

/**
 * The parts of ResultSet that a forward-only, read-only result set refuses: updates, scrolling and
 * the LOB/ref accessors the protocol does not carry. Kept apart so that {@link RaidbResultSet}
 * holds only what it does.
 */
abstract class ReadOnlyResultSetBase implements ResultSet {
    /** Throws if the result set is closed. */
    abstract void checkOpen() throws SQLException;

    SQLException readOnly() throws SQLException {
        checkOpen();
        return DriverErrors.notSupported(
                "Updating a ResultSet (RAIDb result sets are CONCUR_READ_ONLY: run an UPDATE" + " statement instead)");
    }

    SQLException forwardOnly() throws SQLException {
        checkOpen();
        return DriverErrors.of(
                "Operation requires a scrollable ResultSet, but this ResultSet is FORWARD_ONLY.",
                SqlStates.INVALID_CURSOR_STATE);
    }

    @Override
    public java.io.InputStream getUnicodeStream(int columnIndex) throws SQLException {
        throw DriverErrors.notSupported("ResultSet.getUnicodeStream");
    }

    @Override
    public java.io.InputStream getUnicodeStream(String columnLabel) throws SQLException {
        throw DriverErrors.notSupported("ResultSet.getUnicodeStream");
    }

    @Override
    public void beforeFirst() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public void afterLast() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean first() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean last() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean absolute(int row) throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean relative(int rows) throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean previous() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean rowUpdated() throws SQLException {
        checkOpen();
        return false;
    }

    @Override
    public boolean rowInserted() throws SQLException {
        checkOpen();
        return false;
    }

    @Override
    public boolean rowDeleted() throws SQLException {
        checkOpen();
        return false;
    }

    @Override
    public void updateNull(int columnIndex) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBoolean(int columnIndex, boolean value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateByte(int columnIndex, byte value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateShort(int columnIndex, short value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateInt(int columnIndex, int value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateLong(int columnIndex, long value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateFloat(int columnIndex, float value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateDouble(int columnIndex, double value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBigDecimal(int columnIndex, java.math.BigDecimal value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateString(int columnIndex, String value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBytes(int columnIndex, byte[] value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateDate(int columnIndex, java.sql.Date value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateTime(int columnIndex, java.sql.Time value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateTimestamp(int columnIndex, java.sql.Timestamp value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(int columnIndex, java.io.InputStream value, int arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(int columnIndex, java.io.InputStream value, int arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(int columnIndex, java.io.Reader value, int arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(int columnIndex, Object value, int arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(int columnIndex, Object value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNull(String columnLabel) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBoolean(String columnLabel, boolean value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateByte(String columnLabel, byte value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateShort(String columnLabel, short value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateInt(String columnLabel, int value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateLong(String columnLabel, long value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateFloat(String columnLabel, float value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateDouble(String columnLabel, double value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBigDecimal(String columnLabel, java.math.BigDecimal value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateString(String columnLabel, String value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBytes(String columnLabel, byte[] value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateDate(String columnLabel, java.sql.Date value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateTime(String columnLabel, java.sql.Time value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateTimestamp(String columnLabel, java.sql.Timestamp value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(String columnLabel, java.io.InputStream value, int arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(String columnLabel, java.io.InputStream value, int arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(String columnLabel, java.io.Reader value, int arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(String columnLabel, Object value, int arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(String columnLabel, Object value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void insertRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public void deleteRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public void refreshRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public void cancelRowUpdates() throws SQLException {
        throw readOnly();
    }

    @Override
    public void moveToInsertRow() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public void moveToCurrentRow() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public java.sql.Ref getRef(int columnIndex) throws SQLException {
        throw DriverErrors.notSupported("ResultSet.getRef");
    }

    @Override
    public java.sql.Blob getBlob(int columnIndex) throws SQLException {
        throw DriverErrors.notSupported("ResultSet.getBlob");
    }

    @Override
    public java.sql.Clob getClob(int columnIndex) throws SQLException {
        throw DriverErrors.notSupported("ResultSet.getClob");
    }

    @Override
    public java.sql.Ref getRef(String columnLabel) throws SQLException {
        throw DriverErrors.notSupported("ResultSet.getRef");
    }

    @Override
    public java.sql.Blob getBlob(String columnLabel) throws SQLException {
        throw DriverErrors.notSupported("ResultSet.getBlob");
    }

    @Override
    public java.sql.Clob getClob(String columnLabel) throws SQLException {
        throw DriverErrors.notSupported("ResultSet.getClob");
    }

    @Override
    public java.net.URL getURL(int columnIndex) throws SQLException {
        throw DriverErrors.notSupported("ResultSet.getURL");
    }

    @Override
    public java.net.URL getURL(String columnLabel) throws SQLException {
        throw DriverErrors.notSupported("ResultSet.getURL");
    }

    @Override
    public void updateRef(int columnIndex, java.sql.Ref value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateRef(String columnLabel, java.sql.Ref value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(int columnIndex, java.sql.Blob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(String columnLabel, java.sql.Blob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(int columnIndex, java.sql.Clob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(String columnLabel, java.sql.Clob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateArray(int columnIndex, java.sql.Array value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateArray(String columnLabel, java.sql.Array value) throws SQLException {
        throw readOnly();
    }

    @Override
    public java.sql.RowId getRowId(int columnIndex) throws SQLException {
        throw DriverErrors.notSupported("ResultSet.getRowId");
    }

    @Override
    public java.sql.RowId getRowId(String columnLabel) throws SQLException {
        throw DriverErrors.notSupported("ResultSet.getRowId");
    }

    @Override
    public void updateRowId(int columnIndex, java.sql.RowId value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateRowId(String columnLabel, java.sql.RowId value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNString(int columnIndex, String value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNString(String columnLabel, String value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(int columnIndex, java.sql.NClob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(String columnLabel, java.sql.NClob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public java.sql.NClob getNClob(int columnIndex) throws SQLException {
        throw DriverErrors.notSupported("ResultSet.getNClob");
    }

    @Override
    public java.sql.NClob getNClob(String columnLabel) throws SQLException {
        throw DriverErrors.notSupported("ResultSet.getNClob");
    }

    @Override
    public void updateSQLXML(int columnIndex, java.sql.SQLXML value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateSQLXML(String columnLabel, java.sql.SQLXML value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNCharacterStream(int columnIndex, java.io.Reader value, long arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNCharacterStream(String columnLabel, java.io.Reader value, long arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(int columnIndex, java.io.InputStream value, long arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(int columnIndex, java.io.InputStream value, long arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(int columnIndex, java.io.Reader value, long arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(String columnLabel, java.io.InputStream value, long arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(String columnLabel, java.io.InputStream value, long arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(String columnLabel, java.io.Reader value, long arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(int columnIndex, java.io.InputStream value, long arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(String columnLabel, java.io.InputStream value, long arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(int columnIndex, java.io.Reader value, long arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(String columnLabel, java.io.Reader value, long arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(int columnIndex, java.io.Reader value, long arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(String columnLabel, java.io.Reader value, long arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNCharacterStream(int columnIndex, java.io.Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNCharacterStream(String columnLabel, java.io.Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(int columnIndex, java.io.InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(int columnIndex, java.io.InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(int columnIndex, java.io.Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(String columnLabel, java.io.InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(String columnLabel, java.io.InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(String columnLabel, java.io.Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(int columnIndex, java.io.InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(String columnLabel, java.io.InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(int columnIndex, java.io.Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(String columnLabel, java.io.Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(int columnIndex, java.io.Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(String columnLabel, java.io.Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(int columnIndex, Object value, java.sql.SQLType arg2, int arg3) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(String columnLabel, Object value, java.sql.SQLType arg2, int arg3) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(int columnIndex, Object value, java.sql.SQLType arg2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(String columnLabel, Object value, java.sql.SQLType arg2) throws SQLException {
        throw readOnly();
    }
}
