package org.raidb.driver.protocol;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Reads the payload of one received frame. Every read is bounds-checked so that a lying peer gets a ProtocolException. */
public final class PayloadReader {
    /** PostgreSQL's numeric: 131072 digits before the point, 16383 after, a sign, a point and an exponent. */
    static final int MAX_DECIMAL_CHARS = 131072 + 16383 + 16;

    private static final int MAX_OFFSET_SECONDS = 18 * 3600;
    /** PostgreSQL's MAXDIM. */
    static final int MAX_ARRAY_DIMENSIONS = 6;

    private final byte type;
    private final byte[] buf;
    private int pos;
    private final int end;

    public PayloadReader(byte type, byte[] buf, int offset, int end) {
        this.type = type;
        this.buf = buf;
        this.pos = offset;
        this.end = end;
    }

    public byte type() {
        return type;
    }

    public boolean hasRemaining() {
        return pos < end;
    }

    private void need(int n) throws ProtocolException {
        if (n < 0 || n > end - pos) { // not pos + n > end: that overflows for a forged length near 2^31
            throw new ProtocolException(
                    "truncated frame '" + (char) type + "': needed " + n + " more bytes, " + (end - pos) + " left");
        }
    }

    public byte readByte() throws ProtocolException {
        need(1);
        return buf[pos++];
    }

    public boolean readBoolean() throws ProtocolException {
        return readByte() != 0;
    }

    public short readShort() throws ProtocolException {
        need(2);
        int v = ((buf[pos] & 0xff) << 8) | (buf[pos + 1] & 0xff);
        pos += 2;
        return (short) v;
    }

    public int readInt() throws ProtocolException {
        need(4);
        int v = ((buf[pos] & 0xff) << 24)
                | ((buf[pos + 1] & 0xff) << 16)
                | ((buf[pos + 2] & 0xff) << 8)
                | (buf[pos + 3] & 0xff);
        pos += 4;
        return v;
    }

    public long readLong() throws ProtocolException {
        long hi = readInt() & 0xffffffffL;
        long lo = readInt() & 0xffffffffL;
        return (hi << 32) | lo;
    }

    public String readString() throws ProtocolException {
        int n = readInt();
        if (n == -1) {
            return null;
        }
        need(n);
        String s = new String(buf, pos, n, StandardCharsets.UTF_8);
        pos += n;
        return s;
    }

    public byte[] readBytes() throws ProtocolException {
        int n = readInt();
        if (n == -1) {
            return null;
        }
        need(n);
        byte[] b = new byte[n];
        System.arraycopy(buf, pos, b, 0, n);
        pos += n;
        return b;
    }

    /** Reads a collection size and checks it against the bytes left, so that a forged count cannot make us allocate. */
    public int readCount(int minBytesPerItem) throws ProtocolException {
        int n = readInt();
        if (n < 0 || (long) n * minBytesPerItem > end - pos) {
            throw new ProtocolException("implausible element count " + n + " in frame '" + (char) type + "'");
        }
        return n;
    }

    public Map<String, String> readStringMap() throws ProtocolException {
        int n = readCount(8);
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            map.put(readString(), readString());
        }
        return map;
    }

    /** A count where -1 stands for null (a null list, a non-batch error): -1, or a count checked as {@link #readCount}. */
    public int readNullableCount(int minBytesPerItem) throws ProtocolException {
        int n = readInt();
        if (n == -1) {
            return -1;
        }
        pos -= 4;
        return readCount(minBytesPerItem);
    }

    public List<String> readStringList() throws ProtocolException {
        int n = readNullableCount(4);
        if (n == -1) {
            return null;
        }
        List<String> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(readString());
        }
        return list;
    }

    /**
     * Reads a value written by {@link PayloadWriter#writeValue}. A NULL becomes a {@link SqlNull} so that the
     * declared SQL type survives for setNull on the backend. A value that is well framed but not valid
     * is an {@link InvalidValueException}; an unknown tag is a plain protocol violation, since the
     * reader can no longer tell where the value ends.
     */
    public Object readValue() throws ProtocolException {
        byte tag = readByte();
        try {
            return readTagged(tag);
        } catch (java.time.DateTimeException | ArithmeticException e) {
            throw new InvalidValueException(
                    "out-of-range " + ValueType.name(tag) + " value (" + e.getMessage()
                            + "): send a date or time between the years -999999999 and 999999999",
                    SqlStates.DATETIME_OVERFLOW);
        }
    }

    private Object readTagged(byte tag) throws ProtocolException {
        return switch (tag) {
            case ValueType.NULL -> SqlNull.of(readInt());
            case ValueType.BOOLEAN -> readBoolean();
            case ValueType.INT -> readInt();
            case ValueType.LONG -> readLong();
            case ValueType.SHORT -> readShort();
            case ValueType.FLOAT -> Float.intBitsToFloat(readInt());
            case ValueType.DOUBLE -> Double.longBitsToDouble(readLong());
            case ValueType.DECIMAL -> readDecimal();
            case ValueType.STRING -> readString();
            case ValueType.BYTES -> readBytes();
            case ValueType.DATE -> LocalDate.ofEpochDay(readLong());
            case ValueType.TIME -> LocalTime.ofNanoOfDay(readLong());
            case ValueType.TIMESTAMP -> {
                long sec = readLong();
                yield LocalDateTime.ofEpochSecond(sec, readInt(), ZoneOffset.UTC);
            }
            case ValueType.TIMESTAMP_TZ -> {
                long sec = readLong();
                int nano = readInt();
                ZoneOffset off = readOffset(tag);
                yield OffsetDateTime.ofInstant(java.time.Instant.ofEpochSecond(sec, nano), off);
            }
            case ValueType.TIME_TZ -> {
                long nanos = readLong();
                yield OffsetTime.of(LocalTime.ofNanoOfDay(nanos), readOffset(tag));
            }
            case ValueType.UUID -> new UUID(readLong(), readLong());
            case ValueType.OTHER -> new TypedText(readString(), readString());
            case ValueType.ARRAY -> readArray(1);
            default -> throw new ProtocolException("unknown value tag " + tag);
        };
    }

    private ZoneOffset readOffset(byte tag) throws ProtocolException {
        int seconds = readInt();
        if (seconds < -MAX_OFFSET_SECONDS || seconds > MAX_OFFSET_SECONDS) {
            throw new InvalidValueException(
                    "time zone offset of " + seconds + " seconds in a " + ValueType.name(tag)
                            + " value: offsets range from -18:00 to +18:00",
                    SqlStates.INVALID_TIME_ZONE_DISPLACEMENT);
        }
        return ZoneOffset.ofTotalSeconds(seconds);
    }

    private BigDecimal readDecimal() throws ProtocolException {
        String text = readString();
        if (text == null) {
            throw new InvalidValueException(
                    "a DECIMAL value has null text: send a NULL value instead", SqlStates.NULL_VALUE_NOT_ALLOWED);
        }
        // Parsing decimal text takes time quadratic in its length: refuse what no backend's numeric type holds.
        if (text.length() > MAX_DECIMAL_CHARS) {
            throw new InvalidValueException(
                    "a DECIMAL value of " + text.length() + " characters is longer than any backend's "
                            + "numeric type holds (" + MAX_DECIMAL_CHARS + ")",
                    SqlStates.NUMERIC_VALUE_OUT_OF_RANGE);
        }
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException e) {
            throw new InvalidValueException(
                    "invalid DECIMAL text \"" + abbreviate(text) + "\": send digits with an optional sign, "
                            + "point and exponent",
                    SqlStates.INVALID_TEXT_REPRESENTATION);
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }

    /**
     * An ARRAY value after its tag; its NULL elements are Java nulls. Nesting stops at PostgreSQL's own
     * limit of dimensions, so that a forged frame cannot exhaust the reader's stack.
     */
    private SqlArray readArray(int dimension) throws ProtocolException {
        if (dimension > MAX_ARRAY_DIMENSIONS) {
            throw new ProtocolException(
                    "array of more than " + MAX_ARRAY_DIMENSIONS + " dimensions in frame '" + (char) type + "'");
        }
        String elementType = readString();
        int n = readCount(1); // each element is at least its tag
        List<Object> elements = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Object e = pos < end && buf[pos] == ValueType.ARRAY ? readNested(dimension) : readValue();
            elements.add(e instanceof SqlNull ? null : e);
        }
        return new SqlArray(elementType, java.util.Collections.unmodifiableList(elements));
    }

    private SqlArray readNested(int dimension) throws ProtocolException {
        pos++; // the ARRAY tag
        return readArray(dimension + 1);
    }
}
