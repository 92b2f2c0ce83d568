package org.raidb.controller.pgwire;

import java.sql.Types;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.raidb.driver.protocol.ColumnInfo;

/**
 * The PostgreSQL types this front end names in RowDescription and ParameterDescription, with their OIDs
 * (pg_type) and sizes. A column of any other type is described as {@code text}: its value goes out as the
 * backend's text, which is what a client of an unknown type gets anyway.
 */
enum PgType {
    BOOL(16, 1, Types.BOOLEAN, "bool", "boolean"),
    BYTEA(17, -1, Types.BINARY, "bytea"),
    NAME(19, 64, Types.VARCHAR, "name"),
    INT8(20, 8, Types.BIGINT, "int8", "bigint", "bigserial", "serial8"),
    INT2(21, 2, Types.SMALLINT, "int2", "smallint", "smallserial", "serial2"),
    INT4(23, 4, Types.INTEGER, "int4", "integer", "int", "serial", "serial4"),
    TEXT(25, -1, Types.VARCHAR, "text"),
    OID(26, 4, Types.BIGINT, "oid"),
    JSON(114, -1, Types.OTHER, "json"),
    FLOAT4(700, 4, Types.REAL, "float4", "real"),
    FLOAT8(701, 8, Types.DOUBLE, "float8", "double precision", "double"),
    UNKNOWN(705, -2, Types.OTHER, "unknown"),
    BPCHAR(1042, -1, Types.CHAR, "bpchar", "char", "character"),
    VARCHAR(1043, -1, Types.VARCHAR, "varchar", "character varying"),
    DATE(1082, 4, Types.DATE, "date"),
    TIME(1083, 8, Types.TIME, "time", "time without time zone"),
    TIMESTAMP(1114, 8, Types.TIMESTAMP, "timestamp", "timestamp without time zone", "datetime"),
    TIMESTAMPTZ(1184, 8, Types.TIMESTAMP_WITH_TIMEZONE, "timestamptz", "timestamp with time zone"),
    INTERVAL(1186, 16, Types.OTHER, "interval"),
    TIMETZ(1266, 12, Types.TIME_WITH_TIMEZONE, "timetz", "time with time zone"),
    NUMERIC(1700, -1, Types.NUMERIC, "numeric", "decimal"),
    UUID(2950, 16, Types.OTHER, "uuid"),
    JSONB(3802, -1, Types.OTHER, "jsonb"),
    BIT(1560, -1, Types.BIT, "bit"),
    VARBIT(1562, -1, Types.OTHER, "varbit", "bit varying"),
    // Arrays, named as pgjdbc's metadata names them (an underscore before the element's name).
    BOOL_ARRAY(1000, BOOL, "_bool"),
    BYTEA_ARRAY(1001, BYTEA, "_bytea"),
    NAME_ARRAY(1003, NAME, "_name"),
    INT2_ARRAY(1005, INT2, "_int2"),
    INT4_ARRAY(1007, INT4, "_int4"),
    TEXT_ARRAY(1009, TEXT, "_text"),
    BPCHAR_ARRAY(1014, BPCHAR, "_bpchar"),
    VARCHAR_ARRAY(1015, VARCHAR, "_varchar"),
    INT8_ARRAY(1016, INT8, "_int8"),
    FLOAT4_ARRAY(1021, FLOAT4, "_float4"),
    FLOAT8_ARRAY(1022, FLOAT8, "_float8"),
    OID_ARRAY(1028, OID, "_oid"),
    TIMESTAMP_ARRAY(1115, TIMESTAMP, "_timestamp"),
    DATE_ARRAY(1182, DATE, "_date"),
    TIME_ARRAY(1183, TIME, "_time"),
    TIMESTAMPTZ_ARRAY(1185, TIMESTAMPTZ, "_timestamptz"),
    INTERVAL_ARRAY(1187, INTERVAL, "_interval"),
    NUMERIC_ARRAY(1231, NUMERIC, "_numeric"),
    TIMETZ_ARRAY(1270, TIMETZ, "_timetz"),
    UUID_ARRAY(2951, UUID, "_uuid"),
    JSON_ARRAY(199, JSON, "_json"),
    JSONB_ARRAY(3807, JSONB, "_jsonb");

    private static final Map<String, PgType> BY_NAME = new HashMap<>();
    private static final Map<Integer, PgType> BY_OID = new HashMap<>();

    static {
        for (PgType t : values()) {
            for (String n : t.names) {
                BY_NAME.put(n, t);
            }
            BY_OID.put(t.oid, t);
        }
    }

    private final int oid;
    private final int size;
    private final int jdbcType;
    /** The type of an array's elements; null for a type that is no array. */
    private final PgType element;

    @SuppressWarnings("ImmutableEnumChecker") // List.of: immutable
    private final List<String> names;

    PgType(int oid, int size, int jdbcType, String... names) {
        this.oid = oid;
        this.size = size;
        this.jdbcType = jdbcType;
        this.names = List.of(names);
        this.element = null;
    }

    PgType(int oid, PgType element, String name) {
        this.oid = oid;
        this.size = -1;
        this.jdbcType = Types.ARRAY;
        this.names = List.of(name);
        this.element = element;
    }

    int oid() {
        return oid;
    }

    /** pg_type.typlen: the fixed size, -1 for variable length. */
    int size() {
        return size;
    }

    int jdbcType() {
        return jdbcType;
    }

    String typeName() {
        return names.get(0);
    }

    /** The type of this array's elements, or null when this is no array type. */
    PgType element() {
        return element;
    }

    /** The type an OID names; null for one this front end does not know (its values are taken as text). */
    static PgType ofOid(int oid) {
        return BY_OID.get(oid);
    }

    /** How a result column is described to the client: by the backend's type name, else its JDBC type. */
    static PgType of(ColumnInfo c) {
        if ("bit".equalsIgnoreCase(c.typeName()) && c.precision() <= 1) {
            return BOOL; // the request path reads bit(1) as a boolean (as pgjdbc's getObject does): t or f
        }
        return of(c.typeName(), c.jdbcType());
    }

    static PgType of(String typeName, int jdbcType) {
        PgType t = typeName == null ? null : BY_NAME.get(typeName.toLowerCase(Locale.ROOT));
        if (t != null) {
            return t;
        }
        return switch (jdbcType) {
            case Types.BIT, Types.BOOLEAN -> BOOL;
            case Types.TINYINT, Types.SMALLINT -> INT2;
            case Types.INTEGER -> INT4;
            case Types.BIGINT -> INT8;
            case Types.REAL -> FLOAT4;
            case Types.FLOAT, Types.DOUBLE -> FLOAT8;
            case Types.NUMERIC, Types.DECIMAL -> NUMERIC;
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> BYTEA;
            case Types.DATE -> DATE;
            case Types.TIME -> TIME;
            case Types.TIME_WITH_TIMEZONE -> TIMETZ;
            case Types.TIMESTAMP -> TIMESTAMP;
            case Types.TIMESTAMP_WITH_TIMEZONE -> TIMESTAMPTZ;
            case Types.VARCHAR, Types.NVARCHAR, Types.LONGVARCHAR -> VARCHAR;
            case Types.CHAR, Types.NCHAR -> BPCHAR;
            default -> TEXT;
        };
    }
}
