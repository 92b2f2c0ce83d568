package org.raidb.driver;

import java.sql.ParameterMetaData;
import java.sql.SQLException;
import java.sql.Types;
import org.raidb.driver.protocol.SqlNull;
import org.raidb.driver.protocol.SqlStates;

/**
 * Parameter descriptions the driver can give without asking the backend: the number of placeholders
 * and, for parameters already set, the type of the value set. Everything else is "unknown".
 */
public class RaidbParameterMetaData implements ParameterMetaData {
  private final int[] types;

  RaidbParameterMetaData(int[] types) {
    this.types = types.clone();
  }

  /** The java.sql.Types of a bound value, OTHER when the driver cannot tell. */
  static int typeOf(Object v) {
    if (v instanceof SqlNull n) {
      return n.sqlType() == Types.NULL ? Types.OTHER : n.sqlType();
    }
    if (v instanceof String) {
      return Types.VARCHAR;
    }
    if (v instanceof Integer) {
      return Types.INTEGER;
    }
    if (v instanceof Long) {
      return Types.BIGINT;
    }
    if (v instanceof Short) {
      return Types.SMALLINT;
    }
    if (v instanceof Boolean) {
      return Types.BOOLEAN;
    }
    if (v instanceof Float) {
      return Types.REAL;
    }
    if (v instanceof Double) {
      return Types.DOUBLE;
    }
    if (v instanceof java.math.BigDecimal) {
      return Types.NUMERIC;
    }
    if (v instanceof byte[]) {
      return Types.BINARY;
    }
    if (v instanceof java.time.LocalDate) {
      return Types.DATE;
    }
    if (v instanceof java.time.LocalTime) {
      return Types.TIME;
    }
    if (v instanceof java.time.LocalDateTime) {
      return Types.TIMESTAMP;
    }
    if (v instanceof java.time.OffsetDateTime) {
      return Types.TIMESTAMP_WITH_TIMEZONE;
    }
    return Types.OTHER;
  }

  private int type(int param) throws SQLException {
    if (param < 1 || param > types.length) {
      throw DriverErrors.indexOutOfRange(param, types.length);
    }
    return types[param - 1];
  }

  @Override
  public int getParameterCount() {
    return types.length;
  }

  @Override
  public int isNullable(int param) throws SQLException {
    type(param);
    return ParameterMetaData.parameterNullableUnknown;
  }

  @Override
  public boolean isSigned(int param) throws SQLException {
    int t = type(param);
    return t == Types.INTEGER || t == Types.BIGINT || t == Types.SMALLINT || t == Types.REAL || t == Types.DOUBLE
        || t == Types.NUMERIC;
  }

  @Override
  public int getPrecision(int param) throws SQLException {
    type(param);
    return 0;
  }

  @Override
  public int getScale(int param) throws SQLException {
    type(param);
    return 0;
  }

  @Override
  public int getParameterType(int param) throws SQLException {
    return type(param);
  }

  @Override
  public String getParameterTypeName(int param) throws SQLException {
    return java.sql.JDBCType.valueOf(type(param)).getName();
  }

  @Override
  public String getParameterClassName(int param) throws SQLException {
    type(param);
    return Object.class.getName();
  }

  @Override
  public int getParameterMode(int param) throws SQLException {
    type(param);
    return ParameterMetaData.parameterModeIn;
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
