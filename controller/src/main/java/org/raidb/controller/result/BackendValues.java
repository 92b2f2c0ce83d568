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
        BOOLEAN,
        SHORT,
        INT,
        LONG,
        FLOAT,
        DOUBLE,
        DECIMAL,
        STRING,
        BYTES,
        DATE,
        TIME,
        TIME_TZ,
        TIMESTAMP,
        TIMESTAMP_TZ,
        UUID,
        OTHER
    }

    private BackendValues() {}

    public static ColumnInfo[] columns(ResultSetMetaData md) throws SQLException {
        int n = md.getColumnCount();
        ColumnInfo[] cols = new ColumnInfo[n];
        for (int i = 1; i <= n; i++) {
            cols[i - 1] = new ColumnInfo(
                    md.getColumnLabel(i),
                    md.getColumnName(i),
                    nullToEmpty(md.getTableName(i)),
                    nullToEmpty(md.getSchemaName(i)),
                    md.getColumnType(i),
                    md.getColumnTypeName(i),
                    md.getColumnClassName(i),
                    md.getPrecision(i),
                    md.getScale(i),
                    md.getColumnDisplaySize(i),
                    md.isNullable(i),
                    md.isAutoIncrement(i),
                    md.isSigned(i),
                    md.isCaseSensitive(i));
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
            if (k.jdbcType() != md.getColumnType(i)
                    || k.precision() != md.getPrecision(i)
                    || k.scale() != md.getScale(i)
                    || !k.label().equals(md.getColumnLabel(i))
                    || !k.typeName().equals(md.getColumnTypeName(i))) {
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
        return switch (c.jdbcType()) {
            case Types.BOOLEAN -> Reader.BOOLEAN;
            // PostgreSQL reports bool as BIT; bit(n) strings are BIT too, with precision above 1.
            case Types.BIT ->
                type.equals("bool") || type.equals("boolean") || c.precision() <= 1 ? Reader.BOOLEAN : Reader.STRING;
            case Types.TINYINT, Types.SMALLINT -> Reader.SHORT;
            case Types.INTEGER -> Reader.INT;
            case Types.BIGINT -> Reader.LONG;
            case Types.REAL -> Reader.FLOAT;
            // pgjdbc calls money a DOUBLE but cannot read its text ("$1,234.56") as one: it travels as that text.
            case Types.FLOAT, Types.DOUBLE -> type.equals("money") ? Reader.STRING : Reader.DOUBLE;
            case Types.NUMERIC, Types.DECIMAL -> type.equals("money") ? Reader.STRING : Reader.DECIMAL;
            case Types.CHAR,
                    Types.VARCHAR,
                    Types.LONGVARCHAR,
                    Types.NCHAR,
                    Types.NVARCHAR,
                    Types.LONGNVARCHAR,
                    Types.CLOB,
                    Types.NCLOB -> Reader.STRING;
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> Reader.BYTES;
            case Types.DATE -> Reader.DATE;
            case Types.TIME -> type.equals("timetz") ? Reader.TIME_TZ : Reader.TIME;
            case Types.TIME_WITH_TIMEZONE -> Reader.TIME_TZ;
            case Types.TIMESTAMP -> type.equals("timestamptz") ? Reader.TIMESTAMP_TZ : Reader.TIMESTAMP;
            case Types.TIMESTAMP_WITH_TIMEZONE -> Reader.TIMESTAMP_TZ;
            default -> type.equals("uuid") ? Reader.UUID : Reader.OTHER;
        };
    }

    static Object read(ResultSet rs, int i, Reader reader, String typeName) throws SQLException {
        // Each primitive boxes to its own wrapper (an int stays an Integer): the switch is in an assignment context.
        Object v = switch (reader) {
            case BOOLEAN -> rs.getBoolean(i);
            case SHORT -> rs.getShort(i);
            case INT -> rs.getInt(i);
            case LONG -> rs.getLong(i);
            case FLOAT -> rs.getFloat(i);
            case DOUBLE -> rs.getDouble(i);
            case DECIMAL -> decimal(rs, i);
            case STRING -> rs.getString(i);
            case BYTES -> rs.getBytes(i);
            case DATE -> rs.getObject(i, LocalDate.class);
            case TIME -> rs.getObject(i, LocalTime.class);
            case TIME_TZ -> rs.getObject(i, OffsetTime.class);
            case TIMESTAMP -> rs.getObject(i, LocalDateTime.class);
            case TIMESTAMP_TZ -> rs.getObject(i, OffsetDateTime.class);
            case UUID -> rs.getObject(i, UUID.class);
            case OTHER -> {
                String s = rs.getString(i);
                yield s == null ? null : new TypedText(typeName, s);
            }
        };
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
            ps.setObject(
                    index, v); // Boolean, Short, Float, Double, java.time values, UUID: the backend driver maps them
        }
    }
}
