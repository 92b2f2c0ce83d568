package org.raidb.controller.keys;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.raidb.controller.analysis.SqlValue;
import org.raidb.controller.keys.TableKeys.KeyColumn;
import org.raidb.controller.scheduler.ConflictClass;
import org.raidb.driver.protocol.SqlNull;

/**
 * The one spelling of a key value that every spelling the backends take for it maps to: {@code 5},
 * {@code '5'}, {@code 5.0} and a parameter bound with {@code setLong(5)} are one row of an integer
 * key. Two writes of one row must get one class, or they could run in different orders on two
 * backends; so a value whose meaning for the column is not certain (a fraction for an integer column,
 * which PostgreSQL rounds; a string with trailing spaces for varchar; any value of a type not listed)
 * has no canonical form, and the write falls back to a coarser class.
 */
final class KeyValues {
    /** The marker of a value that names no key for certain. */
    static final String UNSURE = null;

    private KeyValues() {}

    /**
     * The canonical value, {@link ConflictClass#NULL_VALUE} for NULL, or null when unsure.
     *
     * @param parameters the execution's bound values, or null for a plain statement
     */
    static String canonical(SqlValue value, KeyColumn column, List<Object> parameters) {
        if (value instanceof SqlValue.Null) {
            return ConflictClass.NULL_VALUE;
        }
        if (value instanceof SqlValue.Literal l) {
            return l.string() ? fromObject(l.text(), column) : fromNumberLiteral(l.text(), column);
        }
        if (value instanceof SqlValue.Parameter p
                && parameters != null
                && p.index() >= 1
                && p.index() <= parameters.size()) {
            return fromObject(parameters.get(p.index() - 1), column);
        }
        return UNSURE;
    }

    private static String fromNumberLiteral(String text, KeyColumn column) {
        BigDecimal n;
        try {
            n = new BigDecimal(text);
        } catch (NumberFormatException e) {
            return UNSURE;
        }
        return switch (column.type()) {
            case INTEGER, NUMERIC -> number(n, column);
            case TEXT -> text; // assigned to a text column, the literal becomes its digits as written
            default -> UNSURE;
        };
    }

    private static String fromObject(Object v, KeyColumn column) {
        if (v == null || v instanceof SqlNull) {
            return ConflictClass.NULL_VALUE;
        }
        return switch (column.type()) {
            case INTEGER, NUMERIC -> number(decimal(v, column), column);
            case TEXT ->
                v instanceof String s
                        ? (s.isEmpty() || !Character.isWhitespace(s.charAt(s.length() - 1)) ? s : UNSURE)
                        : isInteger(v) ? v.toString() : UNSURE;
            case PADDED_TEXT -> v instanceof String s ? s.stripTrailing() : UNSURE;
            case UUID -> uuid(v);
            case OTHER -> UNSURE;
        };
    }

    /** A number as the column stores it, or null when the column would round it. */
    private static String number(BigDecimal n, KeyColumn column) {
        if (n == null) {
            return UNSURE;
        }
        BigDecimal plain = n.signum() == 0 ? BigDecimal.ZERO : n.stripTrailingZeros();
        int scale = column.type() == TableKeys.ValueType.INTEGER ? 0 : column.scale();
        if (scale >= 0 && plain.scale() > scale) {
            return UNSURE;
        }
        return plain.toPlainString();
    }

    private static BigDecimal decimal(Object v, KeyColumn column) {
        if (isInteger(v)) {
            return new BigDecimal(v.toString());
        }
        if (v instanceof BigDecimal d) {
            return d;
        }
        if (v instanceof String s) {
            String t = s.strip();
            // What both products read as a number in that column: digits, a sign, and for numeric a point.
            boolean plain = column.type() == TableKeys.ValueType.INTEGER
                    ? t.matches("[+-]?\\d+")
                    : t.matches("[+-]?\\d+(\\.\\d+)?");
            return plain ? new BigDecimal(t) : null;
        }
        if ((v instanceof Double || v instanceof Float) && column.type() == TableKeys.ValueType.INTEGER) {
            double d = ((Number) v).doubleValue();
            return Double.isFinite(d) && d == Math.rint(d) && Math.abs(d) < 0x1p53
                    ? BigDecimal.valueOf((long) d)
                    : null;
        }
        return null; // a float for a numeric column converts through its binary value: not certain
    }

    private static boolean isInteger(Object v) {
        return v instanceof Integer
                || v instanceof Long
                || v instanceof Short
                || v instanceof Byte
                || v instanceof BigInteger;
    }

    /** PostgreSQL reads a uuid with or without hyphens and braces, in either case. */
    private static String uuid(Object v) {
        if (v instanceof UUID u) {
            return u.toString().replace("-", "");
        }
        if (!(v instanceof String s)) {
            return UNSURE;
        }
        String t = s.strip();
        if (t.startsWith("{") && t.endsWith("}")) {
            t = t.substring(1, t.length() - 1);
        }
        t = t.replace("-", "").toLowerCase(Locale.ROOT);
        return t.matches("[0-9a-f]{32}") ? t : UNSURE;
    }
}
