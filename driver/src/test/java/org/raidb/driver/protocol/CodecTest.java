package org.raidb.driver.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CodecTest {

    /** Writes a frame and reads it back through FrameReader, as the peer would. */
    static PayloadReader roundTrip(PayloadWriter w) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        w.send(out);
        return new FrameReader(new ByteArrayInputStream(out.toByteArray()), 1 << 20).next();
    }

    @Test
    void everyValueTypeRoundTrips() throws IOException {
        List<Object> values = List.of(
                SqlNull.of(Types.INTEGER),
                true,
                42,
                1L << 40,
                1.5f,
                2.25d,
                new BigDecimal("123.4500"),
                "héllo",
                new byte[] {1, 2, 3},
                LocalDate.of(2024, 2, 29),
                LocalTime.of(23, 59, 58, 123_456_789),
                LocalDateTime.of(1969, 7, 20, 20, 17, 40, 5),
                OffsetDateTime.of(2024, 1, 2, 3, 4, 5, 6, ZoneOffset.ofHoursMinutes(5, 30)),
                UUID.randomUUID(),
                (short) -7,
                OffsetTime.of(10, 11, 12, 0, ZoneOffset.ofHours(-3)),
                new TypedText("int4[]", "{1,2}"),
                new TypedText(null, "x"));
        PayloadWriter w = new PayloadWriter().begin(Protocol.EXECUTE);
        values.forEach(w::writeValue);
        PayloadReader r = roundTrip(w);
        assertThat(r.type()).isEqualTo(Protocol.EXECUTE);
        for (Object expected : values) {
            Object actual = r.readValue();
            if (expected instanceof byte[] b) {
                assertThat((byte[]) actual).containsExactly(b);
            } else {
                assertThat(actual).isEqualTo(expected);
            }
        }
        assertThat(r.hasRemaining()).isFalse();
    }

    @Test
    void nullWithoutTypeAndJavaSqlTypesAreWrittenAsWireTypes() throws IOException {
        PayloadWriter w = new PayloadWriter().begin(Protocol.EXECUTE);
        w.writeValue(null);
        w.writeValue(java.sql.Date.valueOf("2024-03-01"));
        w.writeValue(java.sql.Timestamp.valueOf("2024-03-01 10:00:00.5"));
        PayloadReader r = roundTrip(w);
        assertThat(r.readValue()).isEqualTo(SqlNull.of(Types.NULL));
        assertThat(r.readValue()).isEqualTo(LocalDate.of(2024, 3, 1));
        assertThat(r.readValue()).isEqualTo(LocalDateTime.of(2024, 3, 1, 10, 0, 0, 500_000_000));
    }

    @Test
    void columnInfoAndRowsetRoundTrip() throws IOException {
        ColumnInfo id = new ColumnInfo(
                "id", "id", "t", "public", Types.BIGINT, "int8", "java.lang.Long", 19, 0, 20, 0, true, true, false);
        ColumnInfo name = ColumnInfo.simple("name", Types.VARCHAR, "text", "java.lang.String");
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {1L, "a"});
        rows.add(new Object[] {2L, null});
        PayloadWriter w = new PayloadWriter().begin(Protocol.RESULTS);
        RowsetCodec.writeRowset(w, 77, List.of(id, name), rows, false);
        PayloadReader r = roundTrip(w);
        RowsetCodec.Rowset rowset = RowsetCodec.readRowset(r);
        assertThat(rowset.header().cursorId()).isEqualTo(77);
        assertThat(rowset.header().columns()).containsExactly(id, name);
        assertThat(rowset.firstBatch().last()).isFalse();
        assertThat(rowset.firstBatch().rows()).hasSize(2);
        assertThat(rowset.firstBatch().rows().get(0)).containsExactly(1L, "a");
        assertThat(rowset.firstBatch().rows().get(1)).containsExactly(2L, null);
    }

    @Test
    void errorFrameCarriesStateAndBatchCounts() throws IOException {
        PayloadWriter w = new PayloadWriter();
        ErrorFrame.write(w, new BatchUpdateException("dup", "23505", 7, new long[] {1, -3}, null));
        PayloadReader r = roundTrip(w);
        assertThat(r.type()).isEqualTo(Protocol.ERROR);
        SQLException e = ErrorFrame.read(r);
        assertThat((Throwable) e).isInstanceOf(BatchUpdateException.class).hasMessage("dup");
        assertThat(e.getSQLState()).isEqualTo("23505");
        assertThat(((BatchUpdateException) e).getLargeUpdateCounts()).containsExactly(1, -3);
    }

    @Test
    void frameReaderRefusesOversizedFrameBeforeReadingIt() {
        byte[] header = {0x10, 0, 0, 0, 'E'}; // announces 256 MiB, sends almost nothing
        FrameReader reader = new FrameReader(new ByteArrayInputStream(header), 1024);
        assertThatThrownBy(reader::next)
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("exceeds the maximum of 1024");
    }

    @Test
    void frameReaderRefusesAFrameCutShort() {
        byte[] partial = {0, 0, 0, 10, 'E', 1, 2};
        FrameReader reader = new FrameReader(new ByteArrayInputStream(partial), 1024);
        assertThatThrownBy(reader::next).isInstanceOf(java.io.EOFException.class);
    }

    @Test
    void truncatedPayloadIsAProtocolException() throws IOException {
        PayloadWriter w = new PayloadWriter()
                .begin(Protocol.EXECUTE)
                .writeInt(100)
                .writeByte(1); // string of 100 bytes announced, 1 sent
        PayloadReader r = roundTrip(w);
        assertThatThrownBy(r::readString).isInstanceOf(ProtocolException.class).hasMessageContaining("truncated");
    }

    @Test
    void aStringLengthNearTwoToThe31IsTruncationNotAnOverflow() throws IOException {
        PayloadWriter w = new PayloadWriter()
                .begin(Protocol.EXECUTE)
                .writeInt(1)
                .writeInt(Integer.MAX_VALUE)
                .writeByte(1);
        PayloadReader r = roundTrip(w);
        r.readInt(); // a few bytes in, so that the position plus the length overflows an int
        assertThatThrownBy(r::readString).isInstanceOf(ProtocolException.class).hasMessageContaining("truncated");
    }

    @Test
    void forgedRowCountIsRefusedBeforeAllocating() throws IOException {
        PayloadWriter w = new PayloadWriter()
                .begin(Protocol.ROWS)
                .writeInt(Integer.MAX_VALUE)
                .writeBoolean(true);
        PayloadReader r = roundTrip(w);
        assertThatThrownBy(() -> RowsetCodec.readBatch(r, 3))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("implausible");
    }

    @Test
    void writerSendsLengthPrefix() throws IOException {
        PayloadWriter w = new PayloadWriter().begin(Protocol.PING).writeInt(5);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        w.send(out);
        assertThat(Arrays.copyOf(out.toByteArray(), 5)).containsExactly(0, 0, 0, 5, 'P');
    }

    /** Bytes the current thread allocated so far (HotSpot's per-thread allocation counter). */
    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @Test
    void frameReaderAllocatesOnlyWhatArrivesNotWhatIsAnnounced() {
        byte[] lie = new byte[5 + 100];
        lie[0] = 0x03; // announces 64 MiB minus a little, sends 100 bytes, then hangs up
        lie[1] = (byte) 0xFE;
        lie[2] = 0x5F;
        lie[3] = (byte) 0xC0;
        lie[4] = 'H';
        FrameReader reader = new FrameReader(new ByteArrayInputStream(lie), Protocol.DEFAULT_MAX_FRAME_BYTES);
        long before = allocatedByThisThread();
        assertThatThrownBy(reader::next).isInstanceOf(java.io.EOFException.class);
        assertThat(allocatedByThisThread() - before)
                .as("bytes allocated reading the frame")
                .isLessThan(1 << 20);
    }

    @Test
    void frameReaderGrowsToReadALargeFrameWhole() throws IOException {
        byte[] payload = new byte[300_000];
        new java.util.Random(7).nextBytes(payload);
        PayloadWriter w = new PayloadWriter().begin(Protocol.EXECUTE).writeBytes(payload);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        w.send(out);
        // A stream that hands out a few bytes per read, as a slow network does.
        java.io.InputStream trickle = new java.io.FilterInputStream(new ByteArrayInputStream(out.toByteArray())) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, 1000));
            }
        };
        PayloadReader r = new FrameReader(trickle, 1 << 20).next();
        assertThat(r.readBytes()).containsExactly(payload);
    }

    @Test
    void frameReaderLimitCanChangeBetweenFrames() throws IOException {
        PayloadWriter w = new PayloadWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        w.begin(Protocol.PING).writeBytes(new byte[2000]).send(out);
        w.begin(Protocol.PING).writeBytes(new byte[2000]).send(out);
        FrameReader reader = new FrameReader(new ByteArrayInputStream(out.toByteArray()), 1024);
        assertThatThrownBy(reader::next)
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("exceeds the maximum of 1024");
        reader = new FrameReader(new ByteArrayInputStream(out.toByteArray()), 1024);
        reader.maxFrameBytes(4096);
        assertThat(reader.next().readBytes()).hasSize(2000);
    }

    private static PayloadReader valueFrame(java.util.function.Consumer<PayloadWriter> value) throws IOException {
        PayloadWriter w = new PayloadWriter().begin(Protocol.EXECUTE);
        value.accept(w);
        return roundTrip(w);
    }

    private static void assertInvalidValue(
            java.util.function.Consumer<PayloadWriter> value, String sqlState, String message) throws IOException {
        PayloadReader r = valueFrame(value);
        assertThatThrownBy(r::readValue)
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining(message)
                .satisfies(
                        e -> assertThat(((InvalidValueException) e).sqlState()).isEqualTo(sqlState));
    }

    @Test
    void malformedValuesAreInvalidValuesWithADataExceptionState() throws IOException {
        assertInvalidValue(
                w -> w.writeByte(ValueType.DECIMAL).writeString("12,5"), "22P02", "invalid DECIMAL text \"12,5\"");
        assertInvalidValue(w -> w.writeByte(ValueType.DECIMAL).writeString(null), "22004", "null text");
        assertInvalidValue(
                w -> w.writeByte(ValueType.DECIMAL).writeString("9".repeat(PayloadReader.MAX_DECIMAL_CHARS + 1)),
                "22003",
                "longer than any backend's numeric type holds");
        assertInvalidValue(w -> w.writeByte(ValueType.DATE).writeLong(Long.MAX_VALUE), "22008", "out-of-range DATE");
        assertInvalidValue(w -> w.writeByte(ValueType.TIME).writeLong(-1), "22008", "out-of-range TIME");
        assertInvalidValue(
                w -> w.writeByte(ValueType.TIMESTAMP).writeLong(0).writeInt(-5), "22008", "out-of-range TIMESTAMP");
        assertInvalidValue(
                w -> w.writeByte(ValueType.TIMESTAMP_TZ)
                        .writeLong(Long.MAX_VALUE)
                        .writeInt(999_999_999)
                        .writeInt(0),
                "22008",
                "out-of-range TIMESTAMP_TZ");
        assertInvalidValue(
                w -> w.writeByte(ValueType.TIMESTAMP_TZ)
                        .writeLong(0)
                        .writeInt(0)
                        .writeInt(100_000),
                "22009",
                "offsets range from -18:00 to +18:00");
        assertInvalidValue(
                w -> w.writeByte(ValueType.TIME_TZ).writeLong(0).writeInt(Integer.MIN_VALUE),
                "22009",
                "time zone offset");
    }

    @Test
    void anUnknownTagIsAProtocolViolationNotAnInvalidValue() throws IOException {
        PayloadReader r = valueFrame(w -> w.writeByte(99).writeInt(1));
        assertThatThrownBy(r::readValue)
                .isInstanceOf(ProtocolException.class)
                .isNotInstanceOf(InvalidValueException.class)
                .hasMessageContaining("unknown value tag 99");
    }

    @Test
    void forgedErrorFrameCountIsRefusedBeforeAllocating() throws IOException {
        PayloadWriter w = new PayloadWriter()
                .begin(Protocol.ERROR)
                .writeString("42000")
                .writeString("m")
                .writeInt(0)
                .writeInt(Integer.MAX_VALUE);
        PayloadReader r = roundTrip(w);
        assertThatThrownBy(() -> ErrorFrame.read(r))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("implausible");
    }

    @Test
    void writerRefusesToGrowAFramePastItsLimitAndRecovers() throws IOException {
        PayloadWriter w = new PayloadWriter().maxFrameBytes(10_000);
        w.begin(Protocol.EXECUTE).writeInt(1);
        long before = allocatedByThisThread();
        assertThatThrownBy(() -> w.writeBytes(
                        new byte[50_000 - 20_000 - 20_000])) // 10,000 bytes: with what precedes, 1 too many
                .isInstanceOf(FrameTooLargeException.class)
                .hasMessageContaining("maximum of 10000 bytes");
        assertThatThrownBy(() -> w.writeString("z".repeat(5_000_000))).isInstanceOf(FrameTooLargeException.class);
        assertThat(allocatedByThisThread() - before)
                .as("bytes allocated by the refused writes")
                .isLessThan(12 << 20);
        PayloadReader r = roundTrip(w.begin(Protocol.PING).writeInt(7));
        assertThat(r.readInt()).isEqualTo(7);
        assertThat(r.hasRemaining()).isFalse();
    }
}
