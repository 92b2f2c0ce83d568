package org.raidb.driver;

import org.raidb.driver.protocol.SqlStates;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.Types;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * What the driver knows of PostgreSQL's built-in types by name, for arrays: the names
 * {@code createArrayOf} accepts, the java.sql.Types and Java class pgjdbc gives their elements, and
 * how an element reads from the array's text form. The values produced are those the wire carries
 * (LocalDate rather than java.sql.Date), so that a result set over them converts as any other.
 */
final class PgTypes {
  /** pgjdbc's TYPE_ALIASES: SQL spellings to PostgreSQL's own names. */
  private static final Map<String, String> ALIASES = Map.ofEntries(
      Map.entry("boolean", "bool"), Map.entry("smallint", "int2"), Map.entry("int", "int4"),
      Map.entry("integer", "int4"), Map.entry("long", "int8"), Map.entry("bigint", "int8"),
      Map.entry("float", "float8"), Map.entry("real", "float4"), Map.entry("double", "float8"),
      Map.entry("double precision", "float8"), Map.entry("decimal", "numeric"),
      Map.entry("character varying", "varchar"), Map.entry("time without time zone", "time"),
      Map.entry("time with time zone", "timetz"), Map.entry("timestamp without time zone", "timestamp"),
      Map.entry("timestamp with time zone", "timestamptz"));

  private PgTypes() {}

  /** PostgreSQL's name for a type name as an application writes it ({@code integer} is {@code int4}). */
  static String canonical(String name) {
    String lower = name.trim().toLowerCase(Locale.ROOT);
    return ALIASES.getOrDefault(lower, lower);
  }

  /** The element type of an array type name: {@code _int4} or {@code int4[]} give {@code int4}. */
  static String elementOf(String arrayTypeName) {
    String t = arrayTypeName == null ? "" : arrayTypeName;
    if (t.startsWith("_")) {
      return t.substring(1);
    }
    return t.endsWith("[]") ? canonical(t.substring(0, t.indexOf('['))) : canonical(t);
  }

  static boolean isArrayTypeName(String typeName) {
    return typeName != null && (typeName.startsWith("_") || typeName.endsWith("[]"));
  }

  /** java.sql.Types of a type, as pgjdbc's TypeInfoCache maps it (OTHER for the rest). */
  static int jdbcType(String type) {
    switch (type) {
      case "int2": return Types.SMALLINT;
      case "int4": return Types.INTEGER;
      case "int8", "oid": return Types.BIGINT;
      case "money", "float8": return Types.DOUBLE;
      case "numeric": return Types.NUMERIC;
      case "float4": return Types.REAL;
      case "char", "bpchar": return Types.CHAR;
      case "varchar", "text", "name": return Types.VARCHAR;
      case "bytea": return Types.BINARY;
      case "bool", "bit": return Types.BIT;
      case "date": return Types.DATE;
      case "time", "timetz": return Types.TIME;
      case "timestamp", "timestamptz": return Types.TIMESTAMP;
      case "xml": return Types.SQLXML;
      default: return Types.OTHER;
    }
  }

  /** The class of the elements pgjdbc's Array.getArray() returns for this element type. */
  static Class<?> elementClass(String type) {
    switch (type) {
      case "int2": return Short.class;
      case "int4": return Integer.class;
      case "int8", "oid": return Long.class;
      case "float8": return Double.class;
      case "float4": return Float.class;
      case "numeric": return BigDecimal.class;
      case "bool", "bit": return Boolean.class;
      case "uuid": return UUID.class;
      case "bytea": return byte[].class;
      case "date": return java.sql.Date.class;
      case "time", "timetz": return java.sql.Time.class;
      case "timestamp", "timestamptz": return java.sql.Timestamp.class;
      case "text", "varchar", "bpchar", "char", "name", "json", "jsonb": return String.class;
      default: return Object.class;
    }
  }

  /** An element of an array in the server's text form, as the wire would carry it. */
  static Object parseElement(String type, String text) throws SQLException {
    try {
      switch (type) {
        case "int2": return Short.valueOf(text.trim());
        case "int4": return Integer.valueOf(text.trim());
        case "int8", "oid": return Long.valueOf(text.trim());
        case "float8": return Double.valueOf(text.trim());
        case "float4": return Float.valueOf(text.trim());
        case "numeric": return numeric(text.trim());
        case "bool", "bit": return ValueConversions.toBoolean(text);
        case "uuid": return UUID.fromString(text.trim());
        case "bytea": return bytea(text);
        case "date": return ValueConversions.toLocalDate(text, java.time.ZoneId.systemDefault());
        case "time": return ValueConversions.toLocalTime(text, java.time.ZoneId.systemDefault());
        case "timetz": return ValueConversions.toOffsetTime(withFullOffset(text));
        case "timestamp": return ValueConversions.toLocalDateTime(text, java.time.ZoneId.systemDefault());
        case "timestamptz": return ValueConversions.toOffsetDateTime(withFullOffset(text));
        default: return text;
      }
    } catch (NumberFormatException | java.time.DateTimeException e) {
      throw DriverErrors.badValue(type, text, SqlStates.INVALID_TEXT_REPRESENTATION);
    }
  }

  private static Object numeric(String text) {
    switch (text) {
      case "NaN": return Double.NaN;
      case "Infinity": return Double.POSITIVE_INFINITY;
      case "-Infinity": return Double.NEGATIVE_INFINITY;
      default: return new BigDecimal(text);
    }
  }

  /** PostgreSQL prints offsets as {@code +02}; java.time wants {@code +02:00}. */
  static String withFullOffset(String text) {
    String t = text.trim();
    int sign = Math.max(t.lastIndexOf('+'), t.lastIndexOf('-'));
    if (sign > 0 && sign > t.indexOf(':') && t.length() - sign == 3) {
      return t + ":00";
    }
    return t;
  }

  private static byte[] bytea(String text) {
    return text.startsWith("\\x") ? HexFormat.of().parseHex(text, 2, text.length()) : text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  /**
   * The element type pgjdbc gives a Java array passed to setObject, by its component class; null
   * when pgjdbc cannot tell either.
   */
  static String elementTypeOf(Class<?> component) {
    if (component == Integer.class || component == int.class) {
      return "int4";
    }
    if (component == Long.class || component == long.class) {
      return "int8";
    }
    if (component == Short.class || component == short.class) {
      return "int2";
    }
    if (component == Double.class || component == double.class) {
      return "float8";
    }
    if (component == Float.class || component == float.class) {
      return "float4";
    }
    if (component == Boolean.class || component == boolean.class) {
      return "bool";
    }
    if (component == String.class) {
      return "varchar";
    }
    if (component == byte[].class) {
      return "bytea";
    }
    if (component == BigDecimal.class) {
      return "numeric";
    }
    if (component == UUID.class) {
      return "uuid";
    }
    return null;
  }
}
