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
        return t != PgType.INTERVAL && t != PgType.UNKNOWN && t != PgType.JSONB;
    }

    static byte[] encode(PgType type, Object v) throws SQLException {
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
            case NUMERIC -> numeric(v instanceof BigDecimal d ? d : new BigDecimal(v.toString()));
            case BYTEA -> v instanceof byte[] b ? b : PgText.encode(v);
            case DATE ->
                ByteBuffer.allocate(4)
                        .putInt((int) ChronoUnit.DAYS.between(EPOCH, (LocalDate) v))
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
                ByteBuffer.allocate(8)
                        .putLong(ChronoUnit.MICROS.between(EPOCH_TIME, (LocalDateTime) v))
                        .array();
            case TIMESTAMPTZ ->
                ByteBuffer.allocate(8)
                        .putLong(ChronoUnit.MICROS.between(
                                EPOCH_TIME,
                                ((OffsetDateTime) v)
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
            case JSONB, INTERVAL, UNKNOWN ->
                throw new SQLException(
                        "the binary format of " + type.typeName() + " is not supported here: ask for it as text",
                        "0A000");
            default -> PgText.encode(v); // text, varchar, bpchar, name, json: the binary form is the text
        };
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
            return switch (type) {
                case BOOL -> exactly(b, 1) && b[0] != 0;
                case INT2 -> exactly(b, 2) ? buf.getShort() : null;
                case INT4, OID -> exactly(b, 4) ? buf.getInt() : null;
                case INT8 -> exactly(b, 8) ? buf.getLong() : null;
                case FLOAT4 -> exactly(b, 4) ? buf.getFloat() : null;
                case FLOAT8 -> exactly(b, 8) ? buf.getDouble() : null;
                case NUMERIC -> numeric(buf);
                case BYTEA -> b;
                case DATE -> exactly(b, 4) ? EPOCH.plusDays(buf.getInt()) : null;
                case TIME -> exactly(b, 8) ? LocalTime.ofNanoOfDay(buf.getLong() * 1000) : null;
                case TIMESTAMP -> exactly(b, 8) ? EPOCH_TIME.plus(buf.getLong(), ChronoUnit.MICROS) : null;
                case TIMESTAMPTZ ->
                    exactly(b, 8)
                            ? OffsetDateTime.ofInstant(
                                    EPOCH_TIME.toInstant(ZoneOffset.UTC).plus(buf.getLong(), ChronoUnit.MICROS),
                                    ZoneOffset.UTC)
                            : null;
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
