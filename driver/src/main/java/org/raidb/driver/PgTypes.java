package org.raidb.driver;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.Types;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.raidb.driver.protocol.SqlStates;

/**
 * What the driver knows of PostgreSQL's built-in types by name, for arrays: the names
 * {@code createArrayOf} accepts, the java.sql.Types and Java class pgjdbc gives their elements, and
 * how an element reads from the array's text form. The values produced are those the wire carries
 * (LocalDate rather than java.sql.Date), so that a result set over them converts as any other.
 */
final class PgTypes {
    /** pgjdbc's TYPE_ALIASES: SQL spellings to PostgreSQL's own names. */
    private static final Map<String, String> ALIASES = Map.ofEntries(
            Map.entry("boolean", "bool"),
            Map.entry("smallint", "int2"),
            Map.entry("int", "int4"),
            Map.entry("integer", "int4"),
            Map.entry("long", "int8"),
            Map.entry("bigint", "int8"),
            Map.entry("float", "float8"),
            Map.entry("real", "float4"),
            Map.entry("double", "float8"),
            Map.entry("double precision", "float8"),
            Map.entry("decimal", "numeric"),
            Map.entry("character varying", "varchar"),
            Map.entry("time without time zone", "time"),
            Map.entry("time with time zone", "timetz"),
            Map.entry("timestamp without time zone", "timestamp"),
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
        return switch (type) {
            case "int2" -> Types.SMALLINT;
            case "int4" -> Types.INTEGER;
            case "int8", "oid" -> Types.BIGINT;
            case "money", "float8" -> Types.DOUBLE;
            case "numeric" -> Types.NUMERIC;
            case "float4" -> Types.REAL;
            case "char", "bpchar" -> Types.CHAR;
            case "varchar", "text", "name" -> Types.VARCHAR;
            case "bytea" -> Types.BINARY;
            case "bool", "bit" -> Types.BIT;
            case "date" -> Types.DATE;
            case "time", "timetz" -> Types.TIME;
            case "timestamp", "timestamptz" -> Types.TIMESTAMP;
            case "xml" -> Types.SQLXML;
            default -> Types.OTHER;
        };
    }

    /** The class of the elements pgjdbc's Array.getArray() returns for this element type. */
    static Class<?> elementClass(String type) {
        return switch (type) {
            case "int2" -> Short.class;
            case "int4" -> Integer.class;
            case "int8", "oid" -> Long.class;
            case "float8" -> Double.class;
            case "float4" -> Float.class;
            case "numeric" -> BigDecimal.class;
            case "bool", "bit" -> Boolean.class;
            case "uuid" -> UUID.class;
            case "bytea" -> byte[].class;
            case "date" -> java.sql.Date.class;
            case "time", "timetz" -> java.sql.Time.class;
            case "timestamp", "timestamptz" -> java.sql.Timestamp.class;
            case "text", "varchar", "bpchar", "char", "name", "json", "jsonb" -> String.class;
            default -> Object.class;
        };
    }

    /** An element of an array in the server's text form, as the wire would carry it. */
    static Object parseElement(String type, String text) throws SQLException {
        try {
            return switch (type) {
                case "int2" -> Short.valueOf(text.trim());
                case "int4" -> Integer.valueOf(text.trim());
                case "int8", "oid" -> Long.valueOf(text.trim());
                case "float8" -> Double.valueOf(text.trim());
                case "float4" -> Float.valueOf(text.trim());
                case "numeric" -> numeric(text.trim());
                case "bool", "bit" -> ValueConversions.toBoolean(text);
                case "uuid" -> UUID.fromString(text.trim());
                case "bytea" -> bytea(text);
                case "date" -> ValueConversions.toLocalDate(text, java.time.ZoneId.systemDefault());
                case "time" -> ValueConversions.toLocalTime(text, java.time.ZoneId.systemDefault());
                case "timetz" -> ValueConversions.toOffsetTime(withFullOffset(text));
                case "timestamp" -> ValueConversions.toLocalDateTime(text, java.time.ZoneId.systemDefault());
                case "timestamptz" -> ValueConversions.toOffsetDateTime(withFullOffset(text));
                default -> text;
            };
        } catch (NumberFormatException | java.time.DateTimeException e) {
            throw DriverErrors.badValue(type, text, SqlStates.INVALID_TEXT_REPRESENTATION);
        }
    }

    private static Object numeric(String text) {
        return switch (text) {
            case "NaN" -> Double.NaN;
            case "Infinity" -> Double.POSITIVE_INFINITY;
            case "-Infinity" -> Double.NEGATIVE_INFINITY;
            default -> new BigDecimal(text);
        };
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
        return text.startsWith("\\x")
                ? HexFormat.of().parseHex(text, 2, text.length())
                : text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
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
