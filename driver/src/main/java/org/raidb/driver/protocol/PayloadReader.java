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
    if (n < 0 || pos + n > end) {
      throw new ProtocolException("truncated frame '" + (char) type + "': needed " + n + " more bytes, " + (end - pos) + " left");
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
    int v = ((buf[pos] & 0xff) << 24) | ((buf[pos + 1] & 0xff) << 16) | ((buf[pos + 2] & 0xff) << 8) | (buf[pos + 3] & 0xff);
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

  public List<String> readStringList() throws ProtocolException {
    int n = readInt();
    if (n == -1) {
      return null;
    }
    pos -= 4;
    n = readCount(4);
    List<String> list = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      list.add(readString());
    }
    return list;
  }

  /**
   * Reads a value written by {@link PayloadWriter#writeValue}. A NULL becomes a {@link SqlNull} so that the
   * declared SQL type survives for setNull on the backend.
   */
  public Object readValue() throws ProtocolException {
    byte tag = readByte();
    switch (tag) {
      case ValueType.NULL:
        return SqlNull.of(readInt());
      case ValueType.BOOLEAN:
        return readBoolean();
      case ValueType.INT:
        return readInt();
      case ValueType.LONG:
        return readLong();
      case ValueType.SHORT:
        return readShort();
      case ValueType.FLOAT:
        return Float.intBitsToFloat(readInt());
      case ValueType.DOUBLE:
        return Double.longBitsToDouble(readLong());
      case ValueType.DECIMAL:
        return new BigDecimal(readString());
      case ValueType.STRING:
        return readString();
      case ValueType.BYTES:
        return readBytes();
      case ValueType.DATE:
        return LocalDate.ofEpochDay(readLong());
      case ValueType.TIME:
        return LocalTime.ofNanoOfDay(readLong());
      case ValueType.TIMESTAMP: {
        long sec = readLong();
        return LocalDateTime.ofEpochSecond(sec, readInt(), ZoneOffset.UTC);
      }
      case ValueType.TIMESTAMP_TZ: {
        long sec = readLong();
        int nano = readInt();
        ZoneOffset off = ZoneOffset.ofTotalSeconds(readInt());
        return OffsetDateTime.ofInstant(java.time.Instant.ofEpochSecond(sec, nano), off);
      }
      case ValueType.TIME_TZ: {
        long nanos = readLong();
        return OffsetTime.of(LocalTime.ofNanoOfDay(nanos), ZoneOffset.ofTotalSeconds(readInt()));
      }
      case ValueType.UUID:
        return new UUID(readLong(), readLong());
      case ValueType.OTHER:
        return new TypedText(readString(), readString());
      default:
        throw new ProtocolException("unknown value tag " + tag);
    }
  }
}
