package org.raidb.controller.verification;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;

/**
 * A row's values as one string that is the same whichever JDBC driver read them: the generic
 * checksum path hashes it. Each value is length-prefixed so that ("ab","c") and ("a","bc") differ.
 */
final class CanonicalRow {

    /** How a value with a time zone (PostgreSQL timestamptz, SQL TIMESTAMP WITH TIME ZONE) is written. */
    enum Instants {
        /** As the instant in ISO form with its "Z": never equal to a date-time without a zone. */
        ZONED,
        /**
         * As the date-time it is in UTC, equal to a zone-less date-time holding that UTC value: the
         * form a timestamptz takes in products without a zoned type (MariaDB DATETIME, as jdbcCopy
         * writes it).
         */
        AS_UTC_DATE_TIME
    }

    private static final String NULL = "\u0000NULL";

    private CanonicalRow() {}

    static String of(ResultSet rs, ResultSetMetaData meta) throws SQLException {
        return of(rs, meta, Instants.ZONED);
    }

    static String of(ResultSet rs, ResultSetMetaData meta, Instants instants) throws SQLException {
        StringBuilder row = new StringBuilder();
        for (int column = 1; column <= meta.getColumnCount(); column++) {
            String value = value(rs, column, type(meta, column), instants);
            String text = value == null ? NULL : value;
            row.append(text.length()).append(':').append(text).append('|');
        }
        return row.toString();
    }

    /** pgjdbc reports timestamptz as TIMESTAMP, yet will not read it as a LocalDateTime. */
    private static int type(ResultSetMetaData meta, int column) throws SQLException {
        int type = meta.getColumnType(column);
        if (type == Types.TIMESTAMP && "timestamptz".equalsIgnoreCase(meta.getColumnTypeName(column))) {
            return Types.TIMESTAMP_WITH_TIMEZONE;
        }
        return type;
    }

    private static String value(ResultSet rs, int column, int type, Instants instants) throws SQLException {
        String value = switch (type) {
            case Types.BIT, Types.BOOLEAN -> Boolean.toString(rs.getBoolean(column));
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> Long.toString(rs.getLong(column));
            case Types.DECIMAL, Types.NUMERIC -> decimal(rs.getBigDecimal(column));
            case Types.REAL, Types.FLOAT, Types.DOUBLE -> Double.toString(rs.getDouble(column));
            case Types.DATE -> string(rs.getObject(column, LocalDate.class));
            case Types.TIME -> string(rs.getObject(column, LocalTime.class));
            case Types.TIMESTAMP -> string(rs.getObject(column, LocalDateTime.class));
            case Types.TIMESTAMP_WITH_TIMEZONE -> {
                OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
                if (t == null) {
                    yield null;
                }
                yield instants == Instants.ZONED
                        ? t.toInstant().toString()
                        : t.withOffsetSameInstant(ZoneOffset.UTC)
                                .toLocalDateTime()
                                .toString();
            }
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> {
                byte[] bytes = rs.getBytes(column);
                if (bytes == null) {
                    yield null;
                }
                yield HexFormat.of().formatHex(bytes);
            }
            default -> rs.getString(column);
        };
        // getBoolean/getLong/getDouble return false/0 for NULL: wasNull tells.
        return rs.wasNull() ? null : value;
    }

    /** 10.50 and 10.5 (and 0.00 and 0) are the same number, whatever scale a product keeps. */
    private static String decimal(BigDecimal d) {
        return d == null ? null : d.stripTrailingZeros().toPlainString();
    }

    private static String string(Object o) {
        return o == null ? null : o.toString();
    }
}
