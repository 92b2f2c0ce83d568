package org.raidb.driver;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Calendar;
import org.raidb.driver.protocol.SqlNull;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.driver.protocol.TypedText;

/**
 * Turns what an application passes to PreparedStatement setters into the Java types the wire
 * carries (docs/protocol.md, "Values"). java.sql date/time values become java.time values in the
 * JVM's default zone, or in a Calendar's zone for the Calendar overloads, as pgjdbc does.
 */
final class ParameterConversions {
    private ParameterConversions() {}

    /** A value for setObject(int, Object): java.sql and legacy types become their java.time or wire equivalent. */
    static Object normalize(Object x) throws SQLException {
        if (x instanceof java.sql.Timestamp t) {
            return t.toLocalDateTime();
        }
        if (x instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        if (x instanceof java.sql.Time t) {
            return t.toLocalTime();
        }
        if (x instanceof java.util.Date d) {
            return java.sql.Timestamp.from(d.toInstant()).toLocalDateTime();
        }
        if (x instanceof Calendar c) {
            return ZonedDateTime.ofInstant(c.toInstant(), c.getTimeZone().toZoneId())
                    .toOffsetDateTime();
        }
        if (x instanceof Instant i) {
            return i.atOffset(ZoneOffset.UTC);
        }
        if (x instanceof ZonedDateTime z) {
            return z.toOffsetDateTime();
        }
        if (x instanceof Character c) {
            return String.valueOf(c);
        }
        if (x instanceof Byte b) {
            return b.shortValue();
        }
        if (x instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        if (x instanceof InputStream in) {
            return readBytes(in, -1);
        }
        if (x instanceof Reader r) {
            return readText(r, -1);
        }
        if (x instanceof Blob b) {
            return b.getBytes(1, (int) b.length());
        }
        if (x instanceof Clob c) {
            return c.getSubString(1, (int) c.length());
        }
        return x;
    }

    /** setObject(int, Object, targetSqlType): the value converted to the Java type of that SQL type. */
    static Object convert(Object x, int targetSqlType) throws SQLException {
        if (x == null) {
            return SqlNull.of(targetSqlType);
        }
        Object v = normalize(x);
        ZoneId zone = ZoneId.systemDefault();
        return switch (targetSqlType) {
            case Types.BIT, Types.BOOLEAN -> ValueConversions.toBoolean(v);
            case Types.TINYINT, Types.SMALLINT ->
                (short) ValueConversions.toLong(v, "short", Short.MIN_VALUE, Short.MAX_VALUE);
            case Types.INTEGER -> (int) ValueConversions.toLong(v, "int", Integer.MIN_VALUE, Integer.MAX_VALUE);
            case Types.BIGINT -> ValueConversions.toLong(v, "long", Long.MIN_VALUE, Long.MAX_VALUE);
            case Types.REAL -> (float) ValueConversions.toDouble(v, "float");
            case Types.FLOAT, Types.DOUBLE -> ValueConversions.toDouble(v, "double");
            case Types.DECIMAL, Types.NUMERIC -> ValueConversions.toBigDecimal(v);
            case Types.CHAR,
                    Types.VARCHAR,
                    Types.LONGVARCHAR,
                    Types.NCHAR,
                    Types.NVARCHAR,
                    Types.LONGNVARCHAR,
                    Types.CLOB,
                    Types.NCLOB -> ValueConversions.toText(v);
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> ValueConversions.toBytes(v);
            case Types.DATE -> ValueConversions.toLocalDate(v, zone);
            case Types.TIME -> ValueConversions.toLocalTime(v, zone);
            case Types.TIMESTAMP -> ValueConversions.toLocalDateTime(v, zone);
            case Types.TIMESTAMP_WITH_TIMEZONE -> ValueConversions.toOffsetDateTime(v);
            case Types.TIME_WITH_TIMEZONE -> ValueConversions.toOffsetTime(v);
            case Types.OTHER -> ObjectParameters.untyped(v);
            case Types.ARRAY -> ObjectParameters.array(v);
            case Types.SQLXML -> v instanceof String s ? new TypedText("xml", s) : ObjectParameters.inferred(v);
            default -> v;
        };
    }

    static LocalDate dateIn(java.sql.Date d, Calendar cal) {
        return cal == null
                ? d.toLocalDate()
                : Instant.ofEpochMilli(d.getTime())
                        .atZone(cal.getTimeZone().toZoneId())
                        .toLocalDate();
    }

    static LocalTime timeIn(java.sql.Time t, Calendar cal) {
        return cal == null
                ? t.toLocalTime()
                : Instant.ofEpochMilli(t.getTime())
                        .atZone(cal.getTimeZone().toZoneId())
                        .toLocalTime();
    }

    static LocalDateTime timestampIn(java.sql.Timestamp t, Calendar cal) {
        // toInstant keeps the nanoseconds that getTime() would drop.
        return cal == null
                ? t.toLocalDateTime()
                : LocalDateTime.ofInstant(t.toInstant(), cal.getTimeZone().toZoneId());
    }

    static byte[] readBytes(InputStream in, long length) throws SQLException {
        try {
            if (length < 0) {
                return in.readAllBytes();
            }
            byte[] b = in.readNBytes((int) Math.min(length, Integer.MAX_VALUE - 8));
            if (b.length < length) {
                throw DriverErrors.of(
                        "The stream ended after " + b.length + " bytes, but " + length + " were announced.",
                        SqlStates.INVALID_PARAMETER_VALUE);
            }
            return b;
        } catch (IOException e) {
            SQLException sql =
                    DriverErrors.of("Could not read the stream parameter: " + e, SqlStates.INVALID_PARAMETER_VALUE);
            sql.initCause(e);
            throw sql;
        }
    }

    static String readText(Reader reader, long length) throws SQLException {
        try {
            StringWriter out = new StringWriter();
            char[] buf = new char[8192];
            long left = length < 0 ? Long.MAX_VALUE : length;
            while (left > 0) {
                int n = reader.read(buf, 0, (int) Math.min(buf.length, left));
                if (n < 0) {
                    break;
                }
                out.write(buf, 0, n);
                left -= n;
            }
            return out.toString();
        } catch (IOException e) {
            SQLException sql = DriverErrors.of(
                    "Could not read the character stream parameter: " + e, SqlStates.INVALID_PARAMETER_VALUE);
            sql.initCause(e);
            throw sql;
        }
    }
}
