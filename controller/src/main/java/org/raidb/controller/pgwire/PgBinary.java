package org.raidb.controller.pgwire;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.raidb.driver.protocol.SqlArray;
import org.raidb.driver.protocol.TypedText;

/**
 * The binary format of the common types, both ways (PostgreSQL's typsend/typreceive): integers and floats
 * big-endian, dates and timestamps counted from 2000-01-01, numeric in base-10000 digits.
 */
final class PgBinary {
    private static final LocalDate EPOCH = LocalDate.of(2000, 1, 1);
    private static final LocalDateTime EPOCH_TIME = EPOCH.atStartOfDay();
    private static final int NUMERIC_NEGATIVE = 0x4000;
    private static final int NUMERIC_NAN = 0xC000;

    private PgBinary() {}

    /** Whether values of this type can go out in binary. */
    static boolean supports(PgType t) {
        if (t.element() != null) {
            return supports(t.element());
        }
        return t != PgType.INTERVAL
                && t != PgType.UNKNOWN
                && t != PgType.JSONB
                && t != PgType.BIT
                && t != PgType.VARBIT;
    }

    static byte[] encode(PgType type, Object v) throws SQLException {
        if (type.element() != null) {
            return array(
                    type.element(), v instanceof SqlArray a ? a : PgArrayLiteral.parse(v.toString(), type.element()));
        }
        return switch (type) {
            case BOOL -> new byte[] {(byte) (Boolean.TRUE.equals(v) ? 1 : 0)};
            case INT2 ->
                ByteBuffer.allocate(2).putShort(((Number) v).shortValue()).array();
            case INT4, OID ->
                ByteBuffer.allocate(4).putInt(((Number) v).intValue()).array();
            case INT8 ->
                ByteBuffer.allocate(8).putLong(((Number) v).longValue()).array();
            case FLOAT4 ->
                ByteBuffer.allocate(4).putFloat(((Number) v).floatValue()).array();
            case FLOAT8 ->
                ByteBuffer.allocate(8).putDouble(((Number) v).doubleValue()).array();
            case NUMERIC ->
                v instanceof Double d && (d.isNaN() || d.isInfinite())
                        ? special(d)
                        : numeric(v instanceof BigDecimal d ? d : new BigDecimal(v.toString()));
            case BYTEA -> v instanceof byte[] b ? b : PgText.encode(v);
            case DATE ->
                ByteBuffer.allocate(4)
                        .putInt(
                                v.equals(LocalDate.MAX)
                                        ? Integer.MAX_VALUE
                                        : v.equals(LocalDate.MIN)
                                                ? Integer.MIN_VALUE
                                                : (int) ChronoUnit.DAYS.between(EPOCH, (LocalDate) v))
                        .array();
            case TIME ->
                ByteBuffer.allocate(8)
                        .putLong(((LocalTime) v).toNanoOfDay() / 1000)
                        .array();
            case TIMETZ -> {
                OffsetTime t = (OffsetTime) v;
                yield ByteBuffer.allocate(12)
                        .putLong(t.toLocalTime().toNanoOfDay() / 1000)
                        .putInt(-t.getOffset().getTotalSeconds())
                        .array();
            }
            case TIMESTAMP ->
                ByteBuffer.allocate(8).putLong(micros((LocalDateTime) v)).array();
            case TIMESTAMPTZ ->
                ByteBuffer.allocate(8)
                        .putLong(
                                v.equals(OffsetDateTime.MAX)
                                        ? Long.MAX_VALUE
                                        : v.equals(OffsetDateTime.MIN)
                                                ? Long.MIN_VALUE
                                                : micros(((OffsetDateTime) v)
                                                        .withOffsetSameInstant(ZoneOffset.UTC)
                                                        .toLocalDateTime()))
                        .array();
            case UUID -> {
                UUID u = v instanceof UUID x ? x : UUID.fromString(v.toString());
                yield ByteBuffer.allocate(16)
                        .putLong(u.getMostSignificantBits())
                        .putLong(u.getLeastSignificantBits())
                        .array();
            }
            case JSONB, INTERVAL, UNKNOWN, BIT, VARBIT ->
                throw new SQLException(
                        "the binary format of " + type.typeName() + " is not supported here: ask for it as text",
                        "0A000");
            default -> PgText.encode(v); // text, varchar, bpchar, name, json: the binary form is the text
        };
    }

    /**
     * Microseconds since 2000-01-01; infinity and -infinity (which pgjdbc reads as the largest and smallest
     * LocalDateTime) as PostgreSQL stores them, the largest and smallest long.
     */
    private static long micros(LocalDateTime t) {
        if (t.equals(LocalDateTime.MAX)) {
            return Long.MAX_VALUE;
        } else if (t.equals(LocalDateTime.MIN)) {
            return Long.MIN_VALUE;
        }
        return ChronoUnit.MICROS.between(EPOCH_TIME, t);
    }

    /**
     * PostgreSQL's array_send: dimensions, whether a NULL is among the elements, the element type's OID, each
     * dimension's length and lower bound (1), then every element (row-major) as its length (-1: NULL) and bytes.
     */
    static byte[] array(PgType elementType, SqlArray a) throws SQLException {
        List<Integer> lengths = new ArrayList<>();
        for (SqlArray level = a; level != null; ) {
            lengths.add(level.elements().size());
            level = level.elements().isEmpty() || !(level.elements().get(0) instanceof SqlArray inner) ? null : inner;
        }
        if (lengths.equals(List.of(0))) {
            lengths.clear(); // '{}' has no dimension at all
        }
        List<Object> flat = new ArrayList<>();
        flatten(a, lengths.size(), flat);
        List<byte[]> encoded = new ArrayList<>(flat.size());
        int bytes = 12 + 8 * lengths.size();
        boolean hasNull = false;
        for (Object e : flat) {
            byte[] b = e == null ? null : encode(elementType, e);
            hasNull |= b == null;
            bytes += 4 + (b == null ? 0 : b.length);
            encoded.add(b);
        }
        ByteBuffer out = ByteBuffer.allocate(bytes);
        out.putInt(lengths.size()).putInt(hasNull ? 1 : 0).putInt(elementType.oid());
        for (int length : lengths) {
            out.putInt(length).putInt(1);
        }
        for (byte[] b : encoded) {
            out.putInt(b == null ? -1 : b.length);
            if (b != null) {
                out.put(b);
            }
        }
        return out.array();
    }

    /** The elements of a (nested) array in row-major order; a sub-array that is not square is refused. */
    private static void flatten(SqlArray a, int depth, List<Object> out) throws SQLException {
        for (Object e : a.elements()) {
            if (depth > 1) {
                if (!(e instanceof SqlArray inner)) {
                    throw new SQLException(
                            "multidimensional arrays must have sub-arrays with matching dimensions", "2202E");
                }
                flatten(inner, depth - 1, out);
            } else if (e instanceof SqlArray) {
                throw new SQLException(
                        "multidimensional arrays must have sub-arrays with matching dimensions", "2202E");
            } else {
                out.add(e);
            }
        }
    }

    /** PostgreSQL's array_recv: the inverse of {@link #array}, into the value the request path binds. */
    private static SqlArray array(PgType declared, ByteBuffer b) throws SQLException {
        int dimensions = b.getInt();
        b.getInt(); // whether a NULL is among them: the lengths say it too
        PgType elementType = PgType.ofOid(b.getInt());
        if (elementType == null || elementType.element() != null || dimensions < 0 || dimensions > 6) {
            throw invalid(declared, "an array of an unsupported element type or with " + dimensions + " dimensions");
        }
        if (declared.element() != elementType) {
            throw invalid(declared, "elements of type " + elementType.typeName());
        }
        int[] lengths = new int[dimensions];
        for (int d = 0; d < dimensions; d++) {
            lengths[d] = b.getInt();
            b.getInt(); // lower bound: an array starting elsewhere than 1 is bound from 1
            if (lengths[d] < 0 || lengths[d] > b.remaining() / 4) {
                throw invalid(declared, "a dimension of " + lengths[d] + " elements");
            }
        }
        return dimensions == 0
                ? new SqlArray(elementType.typeName(), List.of())
                : arrayLevel(elementType, lengths, 0, b);
    }

    private static SqlArray arrayLevel(PgType elementType, int[] lengths, int depth, ByteBuffer b) throws SQLException {
        List<Object> elements = new ArrayList<>(lengths[depth]);
        for (int i = 0; i < lengths[depth]; i++) {
            if (depth + 1 < lengths.length) {
                elements.add(arrayLevel(elementType, lengths, depth + 1, b));
                continue;
            }
            int n = b.getInt();
            if (n < -1 || n > b.remaining()) {
                throw invalid(elementType, "an element of " + n + " bytes");
            }
            byte[] e = null;
            if (n >= 0) {
                e = new byte[n];
                b.get(e);
            }
            elements.add(e == null ? null : decode(elementType, e));
        }
        return new SqlArray(elementType.typeName(), elements);
    }

    /**
     * A numeric NaN or infinity (which the request path carries as a double, no BigDecimal holding them):
     * no digits, and the sign word PostgreSQL 14 and later give them.
     */
    private static byte[] special(double d) {
        int sign = Double.isNaN(d) ? NUMERIC_NAN : d > 0 ? 0xD000 : 0xF000;
        return ByteBuffer.allocate(8)
                .putShort((short) 0)
                .putShort((short) 0)
                .putShort((short) sign)
                .putShort((short) 0)
                .array();
    }

    /** PostgreSQL's numeric_send: ndigits, weight, sign, dscale, then base-10000 digits. */
    static byte[] numeric(BigDecimal d) {
        String plain = d.abs().toPlainString();
        int point = plain.indexOf('.');
        String whole = point < 0 ? plain : plain.substring(0, point);
        String fraction = point < 0 ? "" : plain.substring(point + 1);
        int dscale = fraction.length();
        whole = "0".repeat((4 - whole.length() % 4) % 4) + whole;
        fraction = fraction + "0".repeat((4 - fraction.length() % 4) % 4);
        List<Integer> digits = new ArrayList<>();
        for (int i = 0; i < whole.length(); i += 4) {
            digits.add(Integer.parseInt(whole.substring(i, i + 4)));
        }
        for (int i = 0; i < fraction.length(); i += 4) {
            digits.add(Integer.parseInt(fraction.substring(i, i + 4)));
        }
        int weight = whole.length() / 4 - 1;
        int first = 0;
        while (first < digits.size() && digits.get(first) == 0) {
            first++;
            weight--;
        }
        int last = digits.size();
        while (last > first && digits.get(last - 1) == 0) {
            last--;
        }
        if (first == last) {
            weight = 0;
        }
        ByteBuffer b = ByteBuffer.allocate(8 + 2 * (last - first));
        b.putShort((short) (last - first)).putShort((short) weight);
        b.putShort((short) (d.signum() < 0 ? NUMERIC_NEGATIVE : 0)).putShort((short) dscale);
        for (int i = first; i < last; i++) {
            b.putShort(digits.get(i).shortValue());
        }
        return b.array();
    }

    /** A binary parameter of the given type, as the Java value the request path binds. */
    static Object decode(PgType type, byte[] b) throws SQLException {
        ByteBuffer buf = ByteBuffer.wrap(b);
        try {
            if (type.element() != null) {
                SqlArray a = array(type, buf);
                if (buf.hasRemaining()) {
                    throw invalid(type, buf.remaining() + " bytes after the last element");
                }
                // The backends' drivers bind no array of byte arrays: it goes as the array's text, cast there.
                return type.element() == PgType.BYTEA ? new TypedText(type.typeName(), PgText.format(a)) : a;
            }
            return switch (type) {
                case BOOL -> exactly(b, 1) && b[0] != 0;
                case INT2 -> exactly(b, 2) ? buf.getShort() : null;
                case INT4, OID -> exactly(b, 4) ? buf.getInt() : null;
                case INT8 -> exactly(b, 8) ? buf.getLong() : null;
                case FLOAT4 -> exactly(b, 4) ? buf.getFloat() : null;
                case FLOAT8 -> exactly(b, 8) ? buf.getDouble() : null;
                case NUMERIC -> numeric(buf);
                case BYTEA -> b;
                case DATE -> exactly(b, 4) ? date(buf.getInt()) : null;
                case TIME -> exactly(b, 8) ? LocalTime.ofNanoOfDay(buf.getLong() * 1000) : null;
                case TIMESTAMP -> exactly(b, 8) ? timestamp(buf.getLong()) : null;
                case TIMESTAMPTZ -> exactly(b, 8) ? timestamptz(buf.getLong()) : null;
                case UUID -> exactly(b, 16) ? new UUID(buf.getLong(), buf.getLong()) : null;
                case TEXT, VARCHAR, BPCHAR, NAME, JSON -> new String(b, StandardCharsets.UTF_8);
                default ->
                    throw new SQLException(
                            "a binary parameter of type " + type.typeName()
                                    + " is not supported here: send it in the text format",
                            "0A000");
            };
        } catch (java.time.DateTimeException | ArithmeticException | java.nio.BufferUnderflowException e) {
            throw invalid(type, e.getMessage());
        }
    }

    private static LocalDate date(int days) {
        return days == Integer.MAX_VALUE
                ? LocalDate.MAX
                : days == Integer.MIN_VALUE ? LocalDate.MIN : EPOCH.plusDays(days);
    }

    private static LocalDateTime timestamp(long micros) {
        return micros == Long.MAX_VALUE
                ? LocalDateTime.MAX
                : micros == Long.MIN_VALUE ? LocalDateTime.MIN : EPOCH_TIME.plus(micros, ChronoUnit.MICROS);
    }

    private static OffsetDateTime timestamptz(long micros) {
        return micros == Long.MAX_VALUE
                ? OffsetDateTime.MAX
                : micros == Long.MIN_VALUE
                        ? OffsetDateTime.MIN
                        : OffsetDateTime.ofInstant(
                                EPOCH_TIME.toInstant(ZoneOffset.UTC).plus(micros, ChronoUnit.MICROS), ZoneOffset.UTC);
    }

    private static boolean exactly(byte[] b, int n) throws SQLException {
        if (b.length != n) {
            throw invalid(null, "a value of " + b.length + " bytes where " + n + " are expected");
        }
        return true;
    }

    private static BigDecimal numeric(ByteBuffer b) throws SQLException {
        int ndigits = b.getShort() & 0xffff;
        int weight = b.getShort();
        int sign = b.getShort() & 0xffff;
        int dscale = b.getShort() & 0xffff;
        if (sign == NUMERIC_NAN || (sign != 0 && sign != NUMERIC_NEGATIVE) || b.remaining() != 2 * ndigits) {
            throw invalid(PgType.NUMERIC, "NaN, infinity or a malformed value");
        }
        BigInteger unscaled = BigInteger.ZERO;
        for (int i = 0; i < ndigits; i++) {
            unscaled = unscaled.multiply(BigInteger.valueOf(10000)).add(BigInteger.valueOf(b.getShort()));
        }
        // The last digit is at 10000^(weight - ndigits + 1).
        BigDecimal d = new BigDecimal(unscaled).scaleByPowerOfTen(4 * (weight - ndigits + 1));
        d = d.setScale(dscale, java.math.RoundingMode.UNNECESSARY);
        return sign == NUMERIC_NEGATIVE ? d.negate() : d;
    }

    private static SQLException invalid(PgType type, String why) {
        return new SQLException(
                "invalid binary representation" + (type == null ? "" : " of type " + type.typeName()) + ": " + why,
                "22P03");
    }
}
