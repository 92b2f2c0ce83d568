package org.raidb.driver;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The parts of ResultSet that a forward-only, read-only result set refuses: updates, scrolling and
 * the LOB/array/ref accessors the protocol does not carry. Kept apart so that {@link RaidbResultSet}
 * holds only what it does.
 */
abstract class ReadOnlyResultSetBase implements ResultSet {
  /** Throws if the result set is closed. */
  abstract void checkOpen() throws SQLException;

  SQLException readOnly() throws SQLException {
    checkOpen();
    return DriverErrors.notSupported("Updating a ResultSet (it is CONCUR_READ_ONLY)");
  }

  SQLException forwardOnly() throws SQLException {
    checkOpen();
    return DriverErrors.of("Operation requires a scrollable ResultSet, but this ResultSet is FORWARD_ONLY.",
        DriverErrors.INVALID_CURSOR_STATE);
  }

  @Override
  public java.io.InputStream getUnicodeStream(int a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getUnicodeStream");
  }

  @Override
  public java.io.InputStream getUnicodeStream(java.lang.String a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getUnicodeStream");
  }

  @Override
  public void beforeFirst() throws java.sql.SQLException {
    throw forwardOnly();
  }

  @Override
  public void afterLast() throws java.sql.SQLException {
    throw forwardOnly();
  }

  @Override
  public boolean first() throws java.sql.SQLException {
    throw forwardOnly();
  }

  @Override
  public boolean last() throws java.sql.SQLException {
    throw forwardOnly();
  }

  @Override
  public boolean absolute(int a0) throws java.sql.SQLException {
    throw forwardOnly();
  }

  @Override
  public boolean relative(int a0) throws java.sql.SQLException {
    throw forwardOnly();
  }

  @Override
  public boolean previous() throws java.sql.SQLException {
    throw forwardOnly();
  }

  @Override
  public boolean rowUpdated() throws java.sql.SQLException {
    checkOpen();
    return false;
  }

  @Override
  public boolean rowInserted() throws java.sql.SQLException {
    checkOpen();
    return false;
  }

  @Override
  public boolean rowDeleted() throws java.sql.SQLException {
    checkOpen();
    return false;
  }

  @Override
  public void updateNull(int a0) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBoolean(int a0, boolean a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateByte(int a0, byte a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateShort(int a0, short a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateInt(int a0, int a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateLong(int a0, long a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateFloat(int a0, float a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateDouble(int a0, double a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBigDecimal(int a0, java.math.BigDecimal a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateString(int a0, java.lang.String a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBytes(int a0, byte[] a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateDate(int a0, java.sql.Date a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateTime(int a0, java.sql.Time a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateTimestamp(int a0, java.sql.Timestamp a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateAsciiStream(int a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBinaryStream(int a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateCharacterStream(int a0, java.io.Reader a1, int a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateObject(int a0, java.lang.Object a1, int a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateObject(int a0, java.lang.Object a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateNull(java.lang.String a0) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBoolean(java.lang.String a0, boolean a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateByte(java.lang.String a0, byte a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateShort(java.lang.String a0, short a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateInt(java.lang.String a0, int a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateLong(java.lang.String a0, long a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateFloat(java.lang.String a0, float a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateDouble(java.lang.String a0, double a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBigDecimal(java.lang.String a0, java.math.BigDecimal a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateString(java.lang.String a0, java.lang.String a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBytes(java.lang.String a0, byte[] a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateDate(java.lang.String a0, java.sql.Date a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateTime(java.lang.String a0, java.sql.Time a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateTimestamp(java.lang.String a0, java.sql.Timestamp a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateAsciiStream(java.lang.String a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBinaryStream(java.lang.String a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateCharacterStream(java.lang.String a0, java.io.Reader a1, int a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateObject(java.lang.String a0, java.lang.Object a1, int a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateObject(java.lang.String a0, java.lang.Object a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void insertRow() throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateRow() throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void deleteRow() throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void refreshRow() throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void cancelRowUpdates() throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void moveToInsertRow() throws java.sql.SQLException {
    throw forwardOnly();
  }

  @Override
  public void moveToCurrentRow() throws java.sql.SQLException {
    throw forwardOnly();
  }

  @Override
  public java.sql.Ref getRef(int a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getRef");
  }

  @Override
  public java.sql.Blob getBlob(int a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getBlob");
  }

  @Override
  public java.sql.Clob getClob(int a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getClob");
  }

  @Override
  public java.sql.Array getArray(int a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getArray");
  }

  @Override
  public java.sql.Ref getRef(java.lang.String a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getRef");
  }

  @Override
  public java.sql.Blob getBlob(java.lang.String a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getBlob");
  }

  @Override
  public java.sql.Clob getClob(java.lang.String a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getClob");
  }

  @Override
  public java.sql.Array getArray(java.lang.String a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getArray");
  }

  @Override
  public java.net.URL getURL(int a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getURL");
  }

  @Override
  public java.net.URL getURL(java.lang.String a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getURL");
  }

  @Override
  public void updateRef(int a0, java.sql.Ref a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateRef(java.lang.String a0, java.sql.Ref a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBlob(int a0, java.sql.Blob a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBlob(java.lang.String a0, java.sql.Blob a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateClob(int a0, java.sql.Clob a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateClob(java.lang.String a0, java.sql.Clob a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateArray(int a0, java.sql.Array a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateArray(java.lang.String a0, java.sql.Array a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public java.sql.RowId getRowId(int a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getRowId");
  }

  @Override
  public java.sql.RowId getRowId(java.lang.String a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getRowId");
  }

  @Override
  public void updateRowId(int a0, java.sql.RowId a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateRowId(java.lang.String a0, java.sql.RowId a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateNString(int a0, java.lang.String a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateNString(java.lang.String a0, java.lang.String a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateNClob(int a0, java.sql.NClob a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateNClob(java.lang.String a0, java.sql.NClob a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public java.sql.NClob getNClob(int a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getNClob");
  }

  @Override
  public java.sql.NClob getNClob(java.lang.String a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getNClob");
  }

  @Override
  public java.sql.SQLXML getSQLXML(int a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getSQLXML");
  }

  @Override
  public java.sql.SQLXML getSQLXML(java.lang.String a0) throws java.sql.SQLException {
    throw DriverErrors.notSupported("ResultSet.getSQLXML");
  }

  @Override
  public void updateSQLXML(int a0, java.sql.SQLXML a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateSQLXML(java.lang.String a0, java.sql.SQLXML a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateNCharacterStream(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateNCharacterStream(java.lang.String a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateAsciiStream(int a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBinaryStream(int a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateCharacterStream(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateAsciiStream(java.lang.String a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBinaryStream(java.lang.String a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateCharacterStream(java.lang.String a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBlob(int a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBlob(java.lang.String a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateClob(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateClob(java.lang.String a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateNClob(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateNClob(java.lang.String a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateNCharacterStream(int a0, java.io.Reader a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateNCharacterStream(java.lang.String a0, java.io.Reader a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateAsciiStream(int a0, java.io.InputStream a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBinaryStream(int a0, java.io.InputStream a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateCharacterStream(int a0, java.io.Reader a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateAsciiStream(java.lang.String a0, java.io.InputStream a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBinaryStream(java.lang.String a0, java.io.InputStream a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateCharacterStream(java.lang.String a0, java.io.Reader a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBlob(int a0, java.io.InputStream a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateBlob(java.lang.String a0, java.io.InputStream a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateClob(int a0, java.io.Reader a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateClob(java.lang.String a0, java.io.Reader a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateNClob(int a0, java.io.Reader a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateNClob(java.lang.String a0, java.io.Reader a1) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateObject(int a0, java.lang.Object a1, java.sql.SQLType a2, int a3) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateObject(java.lang.String a0, java.lang.Object a1, java.sql.SQLType a2, int a3) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateObject(int a0, java.lang.Object a1, java.sql.SQLType a2) throws java.sql.SQLException {
    throw readOnly();
  }

  @Override
  public void updateObject(java.lang.String a0, java.lang.Object a1, java.sql.SQLType a2) throws java.sql.SQLException {
    throw readOnly();
  }
}
