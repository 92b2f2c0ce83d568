package org.raidb.driver;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.sql.Date;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.UUID;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.driver.protocol.TypedText;

/**
 * Converts the non-null values the protocol delivers (see docs/protocol.md, "Values") to what a JDBC
 * getter promises, leniently in the way pgjdbc is: text converts to numbers, numbers to text,
 * decimals truncate to integers, and a value that does not fit is an SQLException naming the type
 * and the value.
 *
 * <p>Zone-less date/time values are interpreted in the zone given (the JVM default, or a Calendar's
 * zone for the Calendar overloads), like pgjdbc does.
 */
final class ValueConversions {
    /** PostgreSQL's text form of a timestamp: seconds always, the fraction only when non-zero. */
    private static final DateTimeFormatter TIMESTAMP_TEXT = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .appendLiteral(' ')
            .appendPattern("HH:mm:ss")
            .optionalStart()
            .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
            .optionalEnd()
            .toFormatter(Locale.ROOT);

    private static final DateTimeFormatter TIME_TEXT = new DateTimeFormatterBuilder()
            .appendPattern("HH:mm:ss")
            .optionalStart()
            .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
            .optionalEnd()
            .toFormatter(Locale.ROOT);
    /** Accepts both "2024-01-02 10:11:12.5" and "2024-01-02T10:11:12.5". */
    private static final DateTimeFormatter TIMESTAMP_PARSE = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .optionalStart()
            .appendLiteral(' ')
            .optionalEnd()
            .optionalStart()
            .appendLiteral('T')
            .optionalEnd()
            .append(DateTimeFormatter.ISO_LOCAL_TIME)
            .toFormatter(Locale.ROOT);

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private ValueConversions() {}

    static String toText(Object v) {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (v instanceof byte[] b) {
            return hex(b);
        }
        if (v instanceof LocalDateTime t) {
            return TIMESTAMP_TEXT.format(t);
        }
        if (v instanceof LocalTime t) {
            return TIME_TEXT.format(t);
        }
        if (v instanceof OffsetDateTime t) {
            return TIMESTAMP_TEXT.format(t) + offsetText(t.getOffset());
        }
        if (v instanceof OffsetTime t) {
            return TIME_TEXT.format(t) + offsetText(t.getOffset());
        }
        return v.toString(); // numbers, booleans, LocalDate (ISO), UUID, TypedText (its text)
    }

    /** "+02" or "+05:30", as PostgreSQL prints offsets. */
    private static String offsetText(ZoneOffset offset) {
        int seconds = offset.getTotalSeconds();
        String sign = seconds < 0 ? "-" : "+";
        int abs = Math.abs(seconds);
        String text = sign + String.format(Locale.ROOT, "%02d", abs / 3600);
        if (abs % 3600 != 0) {
            text += String.format(Locale.ROOT, ":%02d", (abs % 3600) / 60);
        }
        return text;
    }

    /** bytea's hex text form, as the PostgreSQL server prints it. */
    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder(2 + b.length * 2).append("\\x");
        for (byte x : b) {
            sb.append(HEX[(x >> 4) & 0xf]).append(HEX[x & 0xf]);
        }
        return sb.toString();
    }

    static boolean toBoolean(Object v) throws SQLException {
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Number n) {
            BigDecimal d = toBigDecimal(n);
            if (d.compareTo(BigDecimal.ONE) == 0) {
                return true;
            }
            if (d.signum() == 0) {
                return false;
            }
        } else if (v instanceof String || v instanceof TypedText) {
            switch (v.toString().trim().toLowerCase(Locale.ROOT)) {
                case "t", "true", "y", "yes", "on", "1" -> {
                    return true;
                }
                case "f", "false", "n", "no", "off", "0" -> {
                    return false;
                }
                default -> {
                    // not a boolean word: refused below
                }
            }
        }
        throw DriverErrors.of(
                "Cannot cast to boolean: \"" + toText(v) + "\"", SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST);
    }

    /** An integral value within [min, max]; decimals are truncated toward zero, as JDBC getInt does on a DECIMAL. */
    static long toLong(Object v, String type, long min, long max) throws SQLException {
        long result;
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            result = ((Number) v).longValue();
        } else if (v instanceof Boolean b) {
            result = b ? 1 : 0;
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || d < min || d >= max + 1.0) {
                throw DriverErrors.badValue(type, v, SqlStates.NUMERIC_VALUE_OUT_OF_RANGE);
            }
            result = (long) d;
        } else if (v instanceof BigDecimal
                || v instanceof BigInteger
                || v instanceof String
                || v instanceof TypedText) {
            BigDecimal d = v instanceof String || v instanceof TypedText ? parseDecimal(v, type) : toBigDecimal(v);
            BigInteger i = d.setScale(0, RoundingMode.DOWN).toBigInteger();
            if (i.bitLength() > 63) {
                throw DriverErrors.badValue(type, toText(v), SqlStates.NUMERIC_VALUE_OUT_OF_RANGE);
            }
            result = i.longValue();
        } else {
            throw DriverErrors.badValue(type, toText(v), SqlStates.INVALID_TEXT_REPRESENTATION);
        }
        if (result < min || result > max) {
            throw DriverErrors.badValue(type, toText(v), SqlStates.NUMERIC_VALUE_OUT_OF_RANGE);
        }
        return result;
    }

    static double toDouble(Object v, String type) throws SQLException {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (v instanceof String || v instanceof TypedText) {
            try {
                return Double.parseDouble(v.toString().trim());
            } catch (NumberFormatException e) {
                throw DriverErrors.badValue(type, v, SqlStates.INVALID_TEXT_REPRESENTATION);
            }
        }
        throw DriverErrors.badValue(type, toText(v), SqlStates.INVALID_TEXT_REPRESENTATION);
    }

    static BigDecimal toBigDecimal(Object v) throws SQLException {
        if (v instanceof BigDecimal d) {
            return d;
        }
        if (v instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw DriverErrors.badValue("BigDecimal", v, SqlStates.NUMERIC_VALUE_OUT_OF_RANGE);
            }
            return v instanceof Float ? new BigDecimal(v.toString()) : BigDecimal.valueOf(d);
        }
        if (v instanceof Boolean b) {
            return b ? BigDecimal.ONE : BigDecimal.ZERO;
        }
        return parseDecimal(v, "BigDecimal");
    }

    private static BigDecimal parseDecimal(Object v, String type) throws SQLException {
        try {
            return new BigDecimal(toText(v).trim());
        } catch (NumberFormatException e) {
            throw DriverErrors.badValue(type, toText(v), SqlStates.INVALID_TEXT_REPRESENTATION);
        }
    }

    static byte[] toBytes(Object v) {
        if (v instanceof byte[] b) {
            return b;
        }
        return toText(v).getBytes(StandardCharsets.UTF_8);
    }

    static UUID toUuid(Object v) throws SQLException {
        if (v instanceof UUID u) {
            return u;
        }
        try {
            return UUID.fromString(toText(v).trim());
        } catch (IllegalArgumentException e) {
            throw DriverErrors.badValue("uuid", toText(v), SqlStates.INVALID_TEXT_REPRESENTATION);
        }
    }

    // ---- java.time: what the wire carries ----

    static LocalDate toLocalDate(Object v, ZoneId zone) throws SQLException {
        if (v instanceof LocalDate d) {
            return d;
        }
        if (v instanceof LocalDateTime t) {
            return t.toLocalDate();
        }
        if (v instanceof OffsetDateTime t) {
            return t.atZoneSameInstant(zone).toLocalDate();
        }
        if (v instanceof String || v instanceof TypedText) {
            String s = v.toString().trim();
            try {
                return s.length() <= 10
                        ? LocalDate.parse(s)
                        : toLocalDateTime(s, zone).toLocalDate();
            } catch (DateTimeParseException | SQLException e) {
                throw DriverErrors.badValue("date", s, SqlStates.INVALID_DATETIME_FORMAT);
            }
        }
        throw DriverErrors.badValue("date", toText(v), SqlStates.INVALID_DATETIME_FORMAT);
    }

    static LocalTime toLocalTime(Object v, ZoneId zone) throws SQLException {
        if (v instanceof LocalTime t) {
            return t;
        }
        if (v instanceof LocalDate) {
            return LocalTime.MIDNIGHT; // pgjdbc's getTime on a date
        }
        if (v instanceof OffsetTime t) {
            return t.toLocalTime();
        }
        if (v instanceof LocalDateTime t) {
            return t.toLocalTime();
        }
        if (v instanceof OffsetDateTime t) {
            return t.atZoneSameInstant(zone).toLocalTime();
        }
        if (v instanceof String || v instanceof TypedText) {
            try {
                return LocalTime.parse(v.toString().trim());
            } catch (DateTimeParseException e) {
                throw DriverErrors.badValue("time", v, SqlStates.INVALID_DATETIME_FORMAT);
            }
        }
        throw DriverErrors.badValue("time", toText(v), SqlStates.INVALID_DATETIME_FORMAT);
    }

    /**
     * A timestamp with time zone is shown in {@code zone}; a date is its midnight; a time is that time
     * on 1970-01-01, as pgjdbc's getTimestamp reads them.
     */
    static LocalDateTime toLocalDateTime(Object v, ZoneId zone) throws SQLException {
        if (v instanceof LocalDateTime t) {
            return t;
        }
        if (v instanceof LocalDate d) {
            return d.atStartOfDay();
        }
        if (v instanceof LocalTime t) {
            return t.atDate(LocalDate.EPOCH);
        }
        if (v instanceof OffsetTime t) {
            return t.atDate(LocalDate.EPOCH).atZoneSameInstant(zone).toLocalDateTime();
        }
        if (v instanceof OffsetDateTime t) {
            return t.atZoneSameInstant(zone).toLocalDateTime();
        }
        if (v instanceof String || v instanceof TypedText) {
            String s = v.toString().trim();
            try {
                return LocalDateTime.parse(s, TIMESTAMP_PARSE);
            } catch (DateTimeParseException e) {
                try {
                    return OffsetDateTime.parse(s.replace(' ', 'T'))
                            .atZoneSameInstant(zone)
                            .toLocalDateTime();
                } catch (DateTimeParseException e2) {
                    throw DriverErrors.badValue("timestamp", s, SqlStates.INVALID_DATETIME_FORMAT);
                }
            }
        }
        throw DriverErrors.badValue("timestamp", toText(v), SqlStates.INVALID_DATETIME_FORMAT);
    }

    /** A timestamp without time zone is taken as UTC, as pgjdbc does for getObject(OffsetDateTime.class). */
    static OffsetDateTime toOffsetDateTime(Object v) throws SQLException {
        if (v instanceof OffsetDateTime t) {
            return t;
        }
        if (v instanceof String || v instanceof TypedText) {
            try {
                return OffsetDateTime.parse(v.toString().trim().replace(' ', 'T'));
            } catch (DateTimeParseException e) {
                // maybe a zone-less timestamp, handled below
            }
        }
        return toLocalDateTime(v, ZoneOffset.UTC).atOffset(ZoneOffset.UTC);
    }

    static OffsetTime toOffsetTime(Object v) throws SQLException {
        if (v instanceof OffsetTime t) {
            return t;
        }
        if (v instanceof OffsetDateTime t) {
            return t.toOffsetTime();
        }
        if (v instanceof String || v instanceof TypedText) {
            try {
                return OffsetTime.parse(v.toString().trim());
            } catch (DateTimeParseException e) {
                // maybe a zone-less time, handled below
            }
        }
        return toLocalTime(v, ZoneOffset.UTC).atOffset(ZoneOffset.UTC);
    }

    static Instant toInstant(Object v, ZoneId zone) throws SQLException {
        if (v instanceof OffsetDateTime t) {
            return t.toInstant();
        }
        return toLocalDateTime(v, zone).atZone(zone).toInstant();
    }

    // ---- java.sql date/time: the wall-clock value placed in a zone ----

    static Date toSqlDate(Object v, ZoneId zone) throws SQLException {
        LocalDate d = toLocalDate(v, zone);
        return isDefault(zone)
                ? Date.valueOf(d)
                : new Date(d.atStartOfDay(zone).toInstant().toEpochMilli());
    }

    static Time toSqlTime(Object v, ZoneId zone) throws SQLException {
        if (v instanceof OffsetTime t) {
            // A time with time zone is an instant on 1970-01-01, as pgjdbc reads timetz.
            return new Time(t.atDate(LocalDate.EPOCH).toInstant().toEpochMilli());
        }
        LocalTime t = toLocalTime(v, zone);
        return new Time(t.atDate(LocalDate.EPOCH).atZone(zone).toInstant().toEpochMilli()); // keeps milliseconds
    }

    static Timestamp toSqlTimestamp(Object v, ZoneId zone) throws SQLException {
        if (v instanceof OffsetDateTime t) {
            return Timestamp.from(t.toInstant()); // an instant: no zone needed
        }
        LocalDateTime t = toLocalDateTime(v, zone);
        return isDefault(zone)
                ? Timestamp.valueOf(t)
                : Timestamp.from(t.atZone(zone).toInstant());
    }

    private static boolean isDefault(ZoneId zone) {
        return zone.equals(ZoneId.systemDefault());
    }

    /** What getObject(int) returns: JDBC's standard Java type for each wire type. */
    static Object toJdbcObject(Object v) throws SQLException {
        ZoneId zone = ZoneId.systemDefault();
        if (v instanceof LocalDate) {
            return toSqlDate(v, zone);
        }
        if (v instanceof LocalTime || v instanceof OffsetTime) {
            return toSqlTime(v, zone);
        }
        if (v instanceof LocalDateTime || v instanceof OffsetDateTime) {
            return toSqlTimestamp(v, zone);
        }
        if (v instanceof Short s) {
            return s.intValue(); // JDBC maps SMALLINT to Integer, as pgjdbc does
        }
        if (v instanceof Byte b) {
            return b.intValue();
        }
        if (v instanceof TypedText t) {
            return typedObject(t);
        }
        return v;
    }

    /**
     * What pgjdbc's getObject gives for values it does not map to a standard Java type, where the
     * driver has its own: arrays, intervals, xml. Other types (json, inet...) are their text, which is
     * what pgjdbc's PGobject shows.
     */
    private static Object typedObject(TypedText t) throws SQLException {
        String type = t.typeName() == null ? "" : t.typeName();
        if (PgTypes.isArrayTypeName(type)) {
            return RaidbArray.fromText(type, t.text());
        }
        return switch (type) {
            case "interval" -> RaidbInterval.parse(t.text());
            case "xml" -> new RaidbSqlXml(t.text());
            default -> t.text();
        };
    }

    /** getObject(int, Class): the conversions JDBC 4.2 lists plus the java.time types pgjdbc supports. */
    @SuppressWarnings("unchecked")
    static <T> T toClass(Object v, Class<T> type, ZoneId zone) throws SQLException {
        Object result;
        if (type == String.class) {
            result = toText(v);
        } else if (type == Integer.class || type == int.class) {
            result = (int) toLong(v, "int", Integer.MIN_VALUE, Integer.MAX_VALUE);
        } else if (type == Long.class || type == long.class) {
            result = toLong(v, "long", Long.MIN_VALUE, Long.MAX_VALUE);
        } else if (type == Short.class || type == short.class) {
            result = (short) toLong(v, "short", Short.MIN_VALUE, Short.MAX_VALUE);
        } else if (type == Byte.class || type == byte.class) {
            result = (byte) toLong(v, "byte", Byte.MIN_VALUE, Byte.MAX_VALUE);
        } else if (type == Boolean.class || type == boolean.class) {
            result = toBoolean(v);
        } else if (type == Double.class || type == double.class) {
            result = toDouble(v, "double");
        } else if (type == Float.class || type == float.class) {
            result = (float) toDouble(v, "float");
        } else if (type == BigDecimal.class) {
            result = toBigDecimal(v);
        } else if (type == BigInteger.class) {
            result = toBigDecimal(v).toBigInteger();
        } else if (type == byte[].class) {
            result = toBytes(v);
        } else if (type == UUID.class) {
            result = toUuid(v);
        } else if (type == LocalDate.class) {
            result = toLocalDate(v, zone);
        } else if (type == LocalTime.class) {
            result = toLocalTime(v, zone);
        } else if (type == LocalDateTime.class) {
            result = toLocalDateTime(v, zone);
        } else if (type == OffsetDateTime.class) {
            result = toOffsetDateTime(v);
        } else if (type == OffsetTime.class) {
            result = toOffsetTime(v);
        } else if (type == Instant.class) {
            result = toInstant(v, zone);
        } else if (type == ZonedDateTime.class) {
            result = toOffsetDateTime(v).toZonedDateTime();
        } else if (type == Date.class) {
            result = toSqlDate(v, zone);
        } else if (type == Time.class) {
            result = toSqlTime(v, zone);
        } else if (type == Timestamp.class || type == java.util.Date.class) {
            result = toSqlTimestamp(v, zone);
        } else if (type == Object.class) {
            result = toJdbcObject(v);
        } else if (type.isInstance(v)) {
            result = v;
        } else if (type.isInstance(toJdbcObject(v))) {
            result = toJdbcObject(v); // an Array, an interval, an SQLXML
        } else {
            throw DriverErrors.of(
                    "conversion to " + type.getName() + " from " + v.getClass().getName() + " not supported",
                    org.raidb.driver.protocol.SqlStates.INVALID_PARAMETER_VALUE);
        }
        return (T) result;
    }
}
