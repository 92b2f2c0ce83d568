package org.raidb.driver.protocol;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Builds one frame in a reusable growable buffer, then writes it with its length prefix in one call.
 * Not thread-safe: one writer per connection direction.
 */
public final class PayloadWriter {
    private static final int INITIAL_BYTES = 8192;
    private byte[] buf;
    private int pos;
    private int maxFrameBytes = Integer.MAX_VALUE - 8;

    public PayloadWriter() {
        this(INITIAL_BYTES);
    }

    /**
     * @param initialBytes the buffer's first size, grown as frames need: small for a writer made per result
     *     (most are a row or two), the default for one kept per connection
     */
    public PayloadWriter(int initialBytes) {
        buf = new byte[Math.max(16, initialBytes)];
    }

    /**
     * The largest frame (type byte and payload) the receiver accepts: a frame that grows past it fails
     * with {@link FrameTooLargeException} as soon as it does, before it is sent and before the buffer
     * grows further, so that the sender can refuse the request and keep its connection.
     */
    public PayloadWriter maxFrameBytes(int bytes) {
        this.maxFrameBytes = bytes;
        return this;
    }

    /** Starts a new frame of the given type, discarding anything not yet sent. */
    public PayloadWriter begin(byte type) {
        if (buf.length > 1 << 20) {
            buf = new byte[INITIAL_BYTES]; // a frame refused as too large left a large buffer behind
        }
        pos = 4; // room for the length prefix
        writeByte(type);
        return this;
    }

    /**
     * Empties the buffer to build bytes that are not a frame of their own, such as a batch of rows kept
     * aside until it is known whether it goes into a frame (error-checked reads).
     */
    public PayloadWriter clear() {
        pos = 4;
        return this;
    }

    /** The bytes written from payload position {@code from} to {@code to}, read-only, valid until the next write. */
    public ByteBuffer written(int from, int to) {
        return ByteBuffer.wrap(buf, from + 4, to - from).slice().asReadOnlyBuffer();
    }

    /** Appends the remaining bytes of {@code bytes} as they are, with no length prefix. */
    public PayloadWriter writeAll(ByteBuffer bytes) {
        int n = bytes.remaining();
        ensure(n);
        bytes.get(buf, pos, n);
        pos += n;
        return this;
    }

    /** Writes the frame that {@link #begin} started. */
    public void send(OutputStream out) throws IOException {
        int length = pos - 4;
        buf[0] = (byte) (length >>> 24);
        buf[1] = (byte) (length >>> 16);
        buf[2] = (byte) (length >>> 8);
        buf[3] = (byte) length;
        out.write(buf, 0, pos);
        out.flush();
        if (buf.length > 1 << 20) {
            buf = new byte[INITIAL_BYTES]; // do not keep a large buffer alive after one large frame
        }
    }

    /** Overwrites an int written earlier at payload position {@code at} (as returned by {@link #size()}). */
    public void patchInt(int at, int v) {
        int p = at + 4;
        buf[p] = (byte) (v >>> 24);
        buf[p + 1] = (byte) (v >>> 16);
        buf[p + 2] = (byte) (v >>> 8);
        buf[p + 3] = (byte) v;
    }

    /** Bytes in the current frame so far, length prefix excluded. */
    public int size() {
        return pos - 4;
    }

    private void ensure(int more) {
        if ((long) pos - 4 + more > maxFrameBytes) {
            throw new FrameTooLargeException(maxFrameBytes);
        }
        if (pos + more > buf.length) {
            buf = Arrays.copyOf(buf, (int) Math.min(Math.max(buf.length * 2L, pos + more), maxFrameBytes + 4L));
        }
    }

    public PayloadWriter writeByte(int v) {
        ensure(1);
        buf[pos++] = (byte) v;
        return this;
    }

    public PayloadWriter writeBoolean(boolean v) {
        return writeByte(v ? 1 : 0);
    }

    public PayloadWriter writeShort(int v) {
        ensure(2);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
        return this;
    }

    public PayloadWriter writeInt(int v) {
        ensure(4);
        buf[pos++] = (byte) (v >>> 24);
        buf[pos++] = (byte) (v >>> 16);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
        return this;
    }

    public PayloadWriter writeLong(long v) {
        writeInt((int) (v >>> 32));
        return writeInt((int) v);
    }

    public PayloadWriter writeString(String s) {
        if (s == null) {
            return writeInt(-1);
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        writeInt(b.length);
        return writeRaw(b);
    }

    public PayloadWriter writeBytes(byte[] b) {
        if (b == null) {
            return writeInt(-1);
        }
        writeInt(b.length);
        return writeRaw(b);
    }

    private PayloadWriter writeRaw(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
        return this;
    }

    public PayloadWriter writeStringMap(Map<String, String> map) {
        writeInt(map.size());
        for (Map.Entry<String, String> e : map.entrySet()) {
            writeString(e.getKey());
            writeString(e.getValue());
        }
        return this;
    }

    public PayloadWriter writeStringList(List<String> list) {
        if (list == null) {
            return writeInt(-1);
        }
        writeInt(list.size());
        for (String s : list) {
            writeString(s);
        }
        return this;
    }

    /** A SQL NULL, with the java.sql.Types the application declared (or {@link Types#NULL}). */
    public PayloadWriter writeNull(int sqlType) {
        writeByte(ValueType.NULL);
        return writeInt(sqlType);
    }

    /**
     * Writes any value the protocol carries. Types are matched on the Java class; anything unknown
     * travels as OTHER with its toString(), which PostgreSQL and MariaDB will cast from text.
     */
    public PayloadWriter writeValue(Object v) {
        if (v == null) {
            return writeNull(Types.NULL);
        }
        if (v instanceof SqlNull n) {
            return writeNull(n.sqlType()); // so that what readValue returned can be written back unchanged
        }
        if (v instanceof String s) {
            writeByte(ValueType.STRING);
            return writeString(s);
        }
        if (v instanceof Integer i) {
            writeByte(ValueType.INT);
            return writeInt(i);
        }
        if (v instanceof Long l) {
            writeByte(ValueType.LONG);
            return writeLong(l);
        }
        if (v instanceof Boolean b) {
            writeByte(ValueType.BOOLEAN);
            return writeBoolean(b);
        }
        if (v instanceof Short s) {
            writeByte(ValueType.SHORT);
            return writeShort(s);
        }
        if (v instanceof Byte b) {
            writeByte(ValueType.SHORT);
            return writeShort(b);
        }
        if (v instanceof Double d) {
            writeByte(ValueType.DOUBLE);
            return writeLong(Double.doubleToRawLongBits(d));
        }
        if (v instanceof Float f) {
            writeByte(ValueType.FLOAT);
            return writeInt(Float.floatToRawIntBits(f));
        }
        if (v instanceof BigDecimal d) {
            writeByte(ValueType.DECIMAL);
            return writeString(d.toString());
        }
        if (v instanceof java.math.BigInteger b) {
            writeByte(ValueType.DECIMAL);
            return writeString(b.toString());
        }
        if (v instanceof byte[] b) {
            writeByte(ValueType.BYTES);
            return writeBytes(b);
        }
        if (v instanceof LocalDate d) {
            writeByte(ValueType.DATE);
            return writeLong(d.toEpochDay());
        }
        if (v instanceof LocalTime t) {
            writeByte(ValueType.TIME);
            return writeLong(t.toNanoOfDay());
        }
        if (v instanceof LocalDateTime t) {
            writeByte(ValueType.TIMESTAMP);
            java.time.Instant i = t.toInstant(ZoneOffset.UTC);
            writeLong(i.getEpochSecond());
            return writeInt(i.getNano());
        }
        if (v instanceof OffsetDateTime t) {
            writeByte(ValueType.TIMESTAMP_TZ);
            writeLong(t.toEpochSecond());
            writeInt(t.getNano());
            return writeInt(t.getOffset().getTotalSeconds());
        }
        if (v instanceof java.time.Instant t) {
            return writeValue(t.atOffset(ZoneOffset.UTC));
        }
        if (v instanceof OffsetTime t) {
            writeByte(ValueType.TIME_TZ);
            writeLong(t.toLocalTime().toNanoOfDay());
            return writeInt(t.getOffset().getTotalSeconds());
        }
        if (v instanceof UUID u) {
            writeByte(ValueType.UUID);
            writeLong(u.getMostSignificantBits());
            return writeLong(u.getLeastSignificantBits());
        }
        if (v instanceof java.sql.Timestamp t) {
            return writeValue(t.toLocalDateTime());
        }
        if (v instanceof java.sql.Date d) {
            return writeValue(d.toLocalDate());
        }
        if (v instanceof java.sql.Time t) {
            return writeValue(t.toLocalTime());
        }
        if (v instanceof java.util.Date d) {
            return writeValue(java.sql.Timestamp.from(d.toInstant()).toLocalDateTime());
        }
        if (v instanceof TypedText t) {
            writeByte(ValueType.OTHER);
            writeString(t.typeName());
            return writeString(t.text());
        }
        if (v instanceof SqlArray a) {
            return writeArray(a);
        }
        writeByte(ValueType.OTHER);
        writeString(null);
        return writeString(v.toString());
    }

    /** An ARRAY: element type name, then the elements (nested arrays for further dimensions). */
    private PayloadWriter writeArray(SqlArray a) {
        writeByte(ValueType.ARRAY);
        writeString(a.elementTypeName());
        writeInt(a.elements().size());
        for (Object e : a.elements()) {
            writeValue(e);
        }
        return this;
    }
}
