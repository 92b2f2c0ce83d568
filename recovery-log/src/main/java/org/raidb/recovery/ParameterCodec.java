package org.raidb.recovery;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.raidb.driver.protocol.SqlArray;
import org.raidb.driver.protocol.SqlNull;
import org.raidb.driver.protocol.TypedText;

/**
 * The stored form of a statement's parameters. Written by hand, not Java serialization, so that the
 * bytes are small, stable across Java versions and readable by a tool written in anything.
 *
 * <pre>
 * parameters := version(=1) count:varint value*
 * value      := tag:byte payload
 * </pre>
 *
 * varint is unsigned LEB128; zigzag means signed values are zigzag-mapped first; text is
 * varint length + UTF-8 bytes. Tags and payloads:
 *
 * <pre>
 *  0 NULL           sqlType:zigzag varint (java.sql.Types)
 *  1 STRING         text
 *  2 INTEGER        zigzag varint
 *  3 LONG           zigzag varint
 *  4 SHORT          zigzag varint
 *  5 FALSE          -          6 TRUE    -
 *  7 FLOAT          4 bytes IEEE 754, big-endian
 *  8 DOUBLE         8 bytes IEEE 754, big-endian
 *  9 BIG_DECIMAL    scale:zigzag varint, unscaled: varint length + two's complement big-endian
 * 10 BYTES          varint length + bytes
 * 11 LOCAL_DATE     epoch day:zigzag varint
 * 12 LOCAL_TIME     nano of day:varint
 * 13 LOCAL_DATETIME epoch day:zigzag varint, nano of day:varint
 * 14 OFFSET_DATETIME epoch second:zigzag varint, nano:varint, offset seconds:zigzag varint
 * 15 OFFSET_TIME    nano of day:varint, offset seconds:zigzag varint
 * 16 UUID           16 bytes, most significant first
 * 17 TYPED_TEXT     type name:text, value:text
 * 18 ARRAY          element type name:text, count:varint, value* (a NULL element as NULL, an
 *                   inner ARRAY per element of the first dimension of a multi-dimensional array)
 * </pre>
 *
 * A reader refuses a version it does not know rather than guess. A new type takes a new tag; the
 * version changes only if an existing payload changes.
 */
public final class ParameterCodec {

    public static final int VERSION = 1;

    private static final int NULL = 0,
            STRING = 1,
            INTEGER = 2,
            LONG = 3,
            SHORT = 4,
            FALSE = 5,
            TRUE = 6,
            FLOAT = 7,
            DOUBLE = 8,
            BIG_DECIMAL = 9,
            BYTES = 10,
            LOCAL_DATE = 11,
            LOCAL_TIME = 12,
            LOCAL_DATETIME = 13,
            OFFSET_DATETIME = 14,
            OFFSET_TIME = 15,
            UUID_TAG = 16,
            TYPED_TEXT = 17,
            ARRAY = 18;

    private static final byte[] NO_PARAMETERS = {VERSION, 0};
    /** How a NULL element of an array is stored: a NULL of no particular type. */
    /** Stored for text of no stated type (a null type name), whose type the server infers from where it goes. */
    private static final String UNTYPED = "";

    private static final SqlNull ARRAY_NULL = SqlNull.of(java.sql.Types.NULL);

    private ParameterCodec() {}

    public static byte[] encode(List<Object> parameters) {
        if (parameters.isEmpty()) {
            return NO_PARAMETERS.clone();
        }
        Output out = new Output();
        out.write(VERSION);
        out.varint(parameters.size());
        for (int i = 0; i < parameters.size(); i++) {
            encodeValue(out, parameters.get(i), i + 1);
        }
        return out.toByteArray();
    }

    private static void encodeValue(Output out, Object value, int index) {
        if (value instanceof String s) {
            out.write(STRING);
            out.text(s);
        } else if (value instanceof Integer v) {
            out.write(INTEGER);
            out.zigzag(v);
        } else if (value instanceof Long v) {
            out.write(LONG);
            out.zigzag(v);
        } else if (value instanceof Short v) {
            out.write(SHORT);
            out.zigzag(v);
        } else if (value instanceof Boolean v) {
            out.write(v ? TRUE : FALSE);
        } else if (value instanceof Float v) {
            out.write(FLOAT);
            out.fixed(Float.floatToRawIntBits(v), 4);
        } else if (value instanceof Double v) {
            out.write(DOUBLE);
            out.fixed(Double.doubleToRawLongBits(v), 8);
        } else if (value instanceof BigDecimal v) {
            out.write(BIG_DECIMAL);
            out.zigzag(v.scale());
            out.bytes(v.unscaledValue().toByteArray());
        } else if (value instanceof byte[] v) {
            out.write(BYTES);
            out.bytes(v);
        } else if (value instanceof LocalDate v) {
            out.write(LOCAL_DATE);
            out.zigzag(v.toEpochDay());
        } else if (value instanceof LocalTime v) {
            out.write(LOCAL_TIME);
            out.varint(v.toNanoOfDay());
        } else if (value instanceof LocalDateTime v) {
            out.write(LOCAL_DATETIME);
            out.zigzag(v.toLocalDate().toEpochDay());
            out.varint(v.toLocalTime().toNanoOfDay());
        } else if (value instanceof OffsetDateTime v) {
            out.write(OFFSET_DATETIME);
            out.zigzag(v.toEpochSecond());
            out.varint(v.getNano());
            out.zigzag(v.getOffset().getTotalSeconds());
        } else if (value instanceof OffsetTime v) {
            out.write(OFFSET_TIME);
            out.varint(v.toLocalTime().toNanoOfDay());
            out.zigzag(v.getOffset().getTotalSeconds());
        } else if (value instanceof UUID v) {
            out.write(UUID_TAG);
            out.fixed(v.getMostSignificantBits(), 8);
            out.fixed(v.getLeastSignificantBits(), 8);
        } else if (value instanceof TypedText v) {
            out.write(TYPED_TEXT);
            out.text(v.typeName() == null ? UNTYPED : v.typeName());
            out.text(v.text());
        } else if (value instanceof SqlNull v) {
            out.write(NULL);
            out.zigzag(v.sqlType());
        } else if (value instanceof SqlArray v) {
            out.write(ARRAY);
            out.text(v.elementTypeName());
            out.varint(v.elements().size());
            for (Object e : v.elements()) {
                encodeValue(out, e == null ? ARRAY_NULL : e, index);
            }
        } else {
            throw new IllegalArgumentException("parameter " + index + ": the recovery log cannot store a "
                    + (value == null
                            ? "Java null (use SqlNull with a java.sql.Types code)"
                            : value.getClass().getName()));
        }
    }

    public static List<Object> decode(byte[] stored) {
        if (stored == null || stored.length == 0) {
            return List.of();
        }
        Input in = new Input(stored);
        int version = in.read();
        if (version != VERSION) {
            throw new IllegalArgumentException("parameter encoding version " + version
                    + " is not known to this controller (it reads version " + VERSION + ")");
        }
        int count = (int) in.varint();
        List<Object> values = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            values.add(decodeValue(in));
        }
        return values;
    }

    private static Object decodeValue(Input in) {
        int tag = in.read();
        return switch (tag) {
            case NULL -> SqlNull.of((int) in.zigzag());
            case STRING -> in.text();
            case INTEGER -> (int) in.zigzag();
            case LONG -> in.zigzag();
            case SHORT -> (short) in.zigzag();
            case FALSE -> false;
            case TRUE -> true;
            case FLOAT -> Float.intBitsToFloat((int) in.fixed(4));
            case DOUBLE -> Double.longBitsToDouble(in.fixed(8));
            case BIG_DECIMAL -> {
                int scale = (int) in.zigzag();
                yield new BigDecimal(new BigInteger(in.bytes()), scale);
            }
            case BYTES -> in.bytes();
            case LOCAL_DATE -> LocalDate.ofEpochDay(in.zigzag());
            case LOCAL_TIME -> LocalTime.ofNanoOfDay(in.varint());
            case LOCAL_DATETIME -> {
                LocalDate date = LocalDate.ofEpochDay(in.zigzag());
                yield LocalDateTime.of(date, LocalTime.ofNanoOfDay(in.varint()));
            }
            case OFFSET_DATETIME -> {
                long seconds = in.zigzag();
                int nanos = (int) in.varint();
                ZoneOffset offset = ZoneOffset.ofTotalSeconds((int) in.zigzag());
                yield OffsetDateTime.ofInstant(java.time.Instant.ofEpochSecond(seconds, nanos), offset);
            }
            case OFFSET_TIME -> {
                LocalTime time = LocalTime.ofNanoOfDay(in.varint());
                yield OffsetTime.of(time, ZoneOffset.ofTotalSeconds((int) in.zigzag()));
            }
            case UUID_TAG -> new UUID(in.fixed(8), in.fixed(8));
            case TYPED_TEXT -> {
                String type = in.text();
                yield new TypedText(UNTYPED.equals(type) ? null : type, in.text());
            }
            case ARRAY -> {
                String elementType = in.text();
                int count = (int) in.varint();
                List<Object> elements = new ArrayList<>(Math.min(count, 1024));
                for (int i = 0; i < count; i++) {
                    Object e = decodeValue(in);
                    elements.add(e instanceof SqlNull ? null : e);
                }
                yield new SqlArray(elementType, java.util.Collections.unmodifiableList(elements));
            }
            default -> throw new IllegalArgumentException("unknown parameter tag " + tag + " in a stored entry");
        };
    }

    private static final class Output extends ByteArrayOutputStream {
        Output() {
            super(64);
        }

        void varint(long value) {
            while ((value & ~0x7FL) != 0) {
                write((int) ((value & 0x7F) | 0x80));
                value >>>= 7;
            }
            write((int) value);
        }

        void zigzag(long value) {
            varint((value << 1) ^ (value >> 63));
        }

        void fixed(long value, int size) {
            for (int shift = (size - 1) * 8; shift >= 0; shift -= 8) {
                write((int) (value >>> shift));
            }
        }

        void bytes(byte[] value) {
            varint(value.length);
            write(value, 0, value.length);
        }

        void text(String value) {
            bytes(value.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static final class Input {
        private final byte[] data;
        private int offset;

        Input(byte[] data) {
            this.data = data;
        }

        int read() {
            if (offset >= data.length) {
                throw new IllegalArgumentException("stored parameters are truncated");
            }
            return data[offset++] & 0xFF;
        }

        long varint() {
            long value = 0;
            for (int shift = 0; ; shift += 7) {
                int b = read();
                value |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return value;
                }
            }
        }

        long zigzag() {
            long raw = varint();
            return (raw >>> 1) ^ -(raw & 1);
        }

        long fixed(int size) {
            long value = 0;
            for (int i = 0; i < size; i++) {
                value = (value << 8) | read();
            }
            return value;
        }

        byte[] bytes() {
            int length = (int) varint();
            if (length < 0 || offset + length > data.length) {
                throw new IllegalArgumentException("stored parameters are truncated");
            }
            byte[] value = java.util.Arrays.copyOfRange(data, offset, offset + length);
            offset += length;
            return value;
        }

        String text() {
            return new String(bytes(), StandardCharsets.UTF_8);
        }
    }
}
