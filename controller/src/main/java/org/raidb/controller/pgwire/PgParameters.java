package org.raidb.controller.pgwire;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.raidb.driver.protocol.SqlNull;
import org.raidb.driver.protocol.TypedText;

/**
 * A Bind message's parameter values as the Java values the request path binds, the same values the RAIDb
 * driver sends for the same types: so that a row key claimed through this port and through the driver is the
 * same claim. A text value whose type the client did not say (OID 0) or that has no Java counterpart here
 * (dates, json, intervals) goes to the backends as untyped text, which they cast as PostgreSQL would.
 */
final class PgParameters {
    private PgParameters() {}

    /**
     * @param oids the statement's parameter types (0: unspecified)
     * @param formats the Bind's format codes: none (all text), one (for all), or one per parameter
     * @param values the raw values, null for SQL NULL
     */
    static List<Object> decode(int[] oids, int[] formats, byte[][] values) throws SQLException {
        if (formats.length > 1 && formats.length != values.length) {
            throw new SQLException(
                    "bind message has " + formats.length + " parameter formats but " + values.length + " parameters",
                    "08P01");
        }
        List<Object> out = new ArrayList<>(values.length);
        for (int i = 0; i < values.length; i++) {
            int oid = i < oids.length ? oids[i] : 0;
            PgType type = PgType.ofOid(oid);
            int format = formats.length == 0 ? 0 : formats.length == 1 ? formats[0] : formats[i];
            byte[] v = values[i];
            if (v == null) {
                out.add(SqlNull.of(type == null ? Types.NULL : type.jdbcType()));
            } else if (format == 1) {
                if (type == null) {
                    throw new SQLException(
                            "parameter $" + (i + 1) + " is binary but its type (OID " + oid
                                    + ") is unspecified or not supported here: send it as text, or give its type",
                            "0A000");
                }
                out.add(PgBinary.decode(type, v));
            } else if (format == 0) {
                out.add(text(type, new String(v, StandardCharsets.UTF_8)));
            } else {
                throw new SQLException("unsupported format code " + format + " for parameter $" + (i + 1), "22023");
            }
        }
        return out;
    }

    static Object text(PgType type, String s) throws SQLException {
        if (type == null) {
            return new TypedText("unknown", s);
        }
        if (type.element() != null) {
            return array(type, s);
        }
        try {
            return switch (type) {
                case INT2 -> Short.valueOf(s.trim());
                case INT4 -> Integer.valueOf(s.trim());
                case INT8 -> Long.valueOf(s.trim());
                case FLOAT4 -> Float.valueOf(s.trim());
                case FLOAT8 -> Double.valueOf(s.trim());
                case NUMERIC -> new BigDecimal(s.trim());
                case BOOL -> bool(s);
                case TEXT, VARCHAR, BPCHAR, NAME -> s;
                case UUID -> java.util.UUID.fromString(s.trim());
                case BYTEA -> bytea(s);
                default -> new TypedText(type.typeName(), s);
            };
        } catch (IllegalArgumentException e) {
            throw new SQLException(
                    "invalid input syntax for type " + type.typeName() + ": \"" + abbreviate(s) + "\"", "22P02");
        }
    }

    /**
     * An array parameter in text: its elements as Java values, bound as an array of its type (so that
     * {@code SELECT $1} and {@code = ANY($1)} keep the type), when they have Java values here; else, or when
     * the text is no array, untyped text for the backends to cast (and refuse with their own message).
     */
    private static Object array(PgType type, String s) {
        PgType e = type.element();
        boolean javaValues = switch (e) {
            case BOOL, INT2, INT4, INT8, FLOAT4, FLOAT8, NUMERIC, TEXT, VARCHAR, BPCHAR, NAME, UUID -> true;
            default -> false;
        };
        if (javaValues) {
            try {
                return PgArrayLiteral.parse(s, e);
            } catch (SQLException notAnArray) {
                // the backends say what is wrong with it
            }
        }
        return new TypedText(type.typeName(), s);
    }

    private static Boolean bool(String s) {
        String v = s.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "t", "true", "y", "yes", "on", "1" -> Boolean.TRUE;
            case "f", "false", "n", "no", "off", "0" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException(v);
        };
    }

    /** bytea's hex format ({@code \x…}); any other text is taken as the bytes of its characters. */
    private static byte[] bytea(String s) {
        if (s.startsWith("\\x")) {
            return HexFormat.of().parseHex(s.substring(2));
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }
}
