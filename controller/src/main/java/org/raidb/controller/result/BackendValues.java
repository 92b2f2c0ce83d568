package org.raidb.controller.result;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.SqlArray;
import org.raidb.driver.protocol.SqlNull;
import org.raidb.driver.protocol.TypedText;

/**
 * Converts between backend JDBC values and the protocol's value types, in both directions: binding
 * client parameters to backend statements and reading backend rows for the client.
 */
public final class BackendValues {
  /** How to read one column, decided once per result set rather than once per value. */
  enum Reader {
    BOOLEAN, SHORT, INT, LONG, FLOAT, DOUBLE, DECIMAL, STRING, BYTES, DATE, TIME, TIME_TZ, TIMESTAMP, TIMESTAMP_TZ, UUID, OTHER
  }

  private BackendValues() {}

  public static ColumnInfo[] columns(ResultSetMetaData md) throws SQLException {
    int n = md.getColumnCount();
    ColumnInfo[] cols = new ColumnInfo[n];
    for (int i = 1; i <= n; i++) {
      cols[i - 1] = new ColumnInfo(md.getColumnLabel(i), md.getColumnName(i), nullToEmpty(md.getTableName(i)),
          nullToEmpty(md.getSchemaName(i)), md.getColumnType(i), md.getColumnTypeName(i), md.getColumnClassName(i),
          md.getPrecision(i), md.getScale(i), md.getColumnDisplaySize(i), md.isNullable(i), md.isAutoIncrement(i),
          md.isSigned(i), md.isCaseSensitive(i));
    }
    return cols;
  }

  /**
   * The description of a result, {@code known} itself when it still describes it (same column count,
   * labels, types, precisions and scales): a statement run again mostly returns what it returned
   * before, and reading the rest of the metadata again costs more than the check.
   */
  public static ColumnInfo[] columns(ResultSetMetaData md, ColumnInfo[] known) throws SQLException {
    return known != null && stillDescribes(md, known) ? known : columns(md);
  }

  private static boolean stillDescribes(ResultSetMetaData md, ColumnInfo[] known) throws SQLException {
    if (md.getColumnCount() != known.length) {
      return false;
    }
    for (int i = 1; i <= known.length; i++) {
      ColumnInfo k = known[i - 1];
      if (k.jdbcType() != md.getColumnType(i) || k.precision() != md.getPrecision(i) || k.scale() != md.getScale(i)
          || !k.label().equals(md.getColumnLabel(i)) || !k.typeName().equals(md.getColumnTypeName(i))) {
        return false;
      }
    }
    return true;
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  static Reader[] readers(ColumnInfo[] cols) {
    Reader[] r = new Reader[cols.length];
    for (int i = 0; i < cols.length; i++) {
      r[i] = readerFor(cols[i]);
    }
    return r;
  }

  private static Reader readerFor(ColumnInfo c) {
    String type = c.typeName() == null ? "" : c.typeName().toLowerCase(Locale.ROOT);
    switch (c.jdbcType()) {
      case Types.BOOLEAN:
        return Reader.BOOLEAN;
      case Types.BIT:
        // PostgreSQL reports bool as BIT; bit(n) strings are BIT too, with precision above 1.
        return type.equals("bool") || type.equals("boolean") || c.precision() <= 1 ? Reader.BOOLEAN : Reader.STRING;
      case Types.TINYINT:
      case Types.SMALLINT:
        return Reader.SHORT;
      case Types.INTEGER:
        return Reader.INT;
      case Types.BIGINT:
        return Reader.LONG;
      case Types.REAL:
        return Reader.FLOAT;
      case Types.FLOAT:
      case Types.DOUBLE:
        // pgjdbc calls money a DOUBLE but cannot read its text ("$1,234.56") as one: it travels as that text.
        return type.equals("money") ? Reader.STRING : Reader.DOUBLE;
      case Types.NUMERIC:
      case Types.DECIMAL:
        return type.equals("money") ? Reader.STRING : Reader.DECIMAL;
      case Types.CHAR:
      case Types.VARCHAR:
      case Types.LONGVARCHAR:
      case Types.NCHAR:
      case Types.NVARCHAR:
      case Types.LONGNVARCHAR:
      case Types.CLOB:
      case Types.NCLOB:
        return Reader.STRING;
      case Types.BINARY:
      case Types.VARBINARY:
      case Types.LONGVARBINARY:
      case Types.BLOB:
        return Reader.BYTES;
      case Types.DATE:
        return Reader.DATE;
      case Types.TIME:
        return type.equals("timetz") ? Reader.TIME_TZ : Reader.TIME;
      case Types.TIME_WITH_TIMEZONE:
        return Reader.TIME_TZ;
      case Types.TIMESTAMP:
        return type.equals("timestamptz") ? Reader.TIMESTAMP_TZ : Reader.TIMESTAMP;
      case Types.TIMESTAMP_WITH_TIMEZONE:
        return Reader.TIMESTAMP_TZ;
      default:
        return type.equals("uuid") ? Reader.UUID : Reader.OTHER;
    }
  }

  static Object read(ResultSet rs, int i, Reader reader, String typeName) throws SQLException {
    Object v;
    switch (reader) {
      case BOOLEAN: v = rs.getBoolean(i); break;
      case SHORT: v = rs.getShort(i); break;
      case INT: v = rs.getInt(i); break;
      case LONG: v = rs.getLong(i); break;
      case FLOAT: v = rs.getFloat(i); break;
      case DOUBLE: v = rs.getDouble(i); break;
      case DECIMAL: v = decimal(rs, i); break;
      case STRING: v = rs.getString(i); break;
      case BYTES: v = rs.getBytes(i); break;
      case DATE: v = rs.getObject(i, LocalDate.class); break;
      case TIME: v = rs.getObject(i, LocalTime.class); break;
      case TIME_TZ: v = rs.getObject(i, OffsetTime.class); break;
      case TIMESTAMP: v = rs.getObject(i, LocalDateTime.class); break;
      case TIMESTAMP_TZ: v = rs.getObject(i, OffsetDateTime.class); break;
      case UUID: v = rs.getObject(i, UUID.class); break;
      default:
        String s = rs.getString(i);
        return s == null ? null : new TypedText(typeName, s);
    }
    return rs.wasNull() ? null : v;
  }

  /**
   * A numeric: a BigDecimal, or for NaN and the infinities (which no BigDecimal holds) the double
   * pgjdbc's getDouble gives, so that one such value does not fail the whole result.
   */
  private static Object decimal(ResultSet rs, int i) throws SQLException {
    try {
      return rs.getBigDecimal(i);
    } catch (SQLException notADecimal) {
      double d = rs.getDouble(i);
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        return d;
      }
      throw notADecimal;
    }
  }

  /** Reads every remaining row into memory: for small results only (metadata, RETURNING, keys). */
  public static MaterializedRows materialize(ResultSet rs) throws SQLException {
    return materialize(rs, null);
  }

  /** As {@link #materialize(ResultSet)}, describing the columns as {@code known} if that still fits. */
  public static MaterializedRows materialize(ResultSet rs, ColumnInfo[] known) throws SQLException {
    ColumnInfo[] cols = columns(rs.getMetaData(), known);
    Reader[] readers = readers(cols);
    List<Object[]> rows = new java.util.ArrayList<>();
    while (rs.next()) {
      Object[] row = new Object[cols.length];
      for (int i = 0; i < cols.length; i++) {
        row[i] = read(rs, i + 1, readers[i], cols[i].typeName());
      }
      rows.add(row);
    }
    return new MaterializedRows(cols, rows);
  }

  /** Binds one protocol value to a backend statement parameter. */
  public static void bind(PreparedStatement ps, int index, Object v) throws SQLException {
    if (v instanceof SqlNull n) {
      ps.setNull(index, n.sqlType() == Types.NULL ? Types.NULL : n.sqlType());
    } else if (v instanceof String s) {
      ps.setString(index, s);
    } else if (v instanceof Integer x) {
      ps.setInt(index, x);
    } else if (v instanceof Long x) {
      ps.setLong(index, x);
    } else if (v instanceof byte[] b) {
      ps.setBytes(index, b);
    } else if (v instanceof java.math.BigDecimal d) {
      ps.setBigDecimal(index, d);
    } else if (v instanceof TypedText t) {
      // Text the backend casts to the parameter's type (json, intervals, enums): sent untyped.
      ps.setObject(index, t.text(), Types.OTHER);
    } else if (v instanceof SqlArray a) {
      // Typed, as the client's driver would have sent it: "SELECT ?" and "= ANY(?)" need the array's type.
      ps.setArray(index, ps.getConnection().createArrayOf(a.elementTypeName(), a.toNestedArray()));
    } else {
      ps.setObject(index, v); // Boolean, Short, Float, Double, java.time values, UUID: the backend driver maps them
    }
  }
}
