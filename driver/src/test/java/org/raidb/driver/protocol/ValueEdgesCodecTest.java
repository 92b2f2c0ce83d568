package org.raidb.driver.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLTransactionRollbackException;
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
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The value and frame codecs at their edges, beside {@link CodecTest}'s ordinary values: extremes of
 * each {@link ValueType}, NULLs of every declared type, large texts, rowsets in several batches, and
 * payloads cut short at every byte, which must be a {@link ProtocolException} and nothing else.
 */
class ValueEdgesCodecTest {

    /** One value of each tag at or near its limits (BYTES apart: arrays do not compare by content). */
    private static final List<Object> EDGES = List.of(
            SqlNull.of(Types.VARCHAR),
            false,
            Integer.MIN_VALUE,
            Integer.MAX_VALUE,
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            Short.MIN_VALUE,
            Short.MAX_VALUE,
            Float.NaN,
            Float.NEGATIVE_INFINITY,
            -0.0f,
            Double.MIN_VALUE,
            Double.POSITIVE_INFINITY,
            -0.0d,
            new BigDecimal("1E+10"),
            new BigDecimal("-0.000000000000000000000000000001"),
            new BigDecimal("123456789012345678901234567890.123456789"),
            "",
            "\u0000 nul, é, 中文, \uD83D\uDE00 (a surrogate pair)",
            LocalDate.of(-4712, 1, 1),
            LocalDate.MAX,
            LocalTime.MIDNIGHT,
            LocalTime.MAX,
            LocalDateTime.of(1900, 1, 1, 0, 0, 0, 1),
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999),
            OffsetDateTime.of(2000, 2, 29, 12, 0, 0, 0, ZoneOffset.MAX),
            OffsetDateTime.of(1950, 6, 1, 0, 0, 0, 7, ZoneOffset.MIN),
            OffsetTime.of(LocalTime.MAX, ZoneOffset.ofHoursMinutesSeconds(-9, -30, -15)),
            new UUID(-1L, Long.MIN_VALUE),
            new TypedText("jsonb", "{\"a\": [1, null]}"),
            new TypedText("interval", null),
            new SqlArray("text", Arrays.asList("a", null, "")),
            new SqlArray(
                    "int8",
                    List.of(
                            new SqlArray("int8", Arrays.asList(1L, null)),
                            new SqlArray("int8", Arrays.asList(null, 4L)))));

    private static PayloadReader roundTrip(PayloadWriter w) throws IOException {
        return CodecTest.roundTrip(w);
    }

    /** The payload of a frame, without its length and type. */
    private static byte[] payload(PayloadWriter w) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        w.send(out);
        byte[] frame = out.toByteArray();
        return Arrays.copyOfRange(frame, 5, frame.length);
    }

    @Test
    void eachValueTypeRoundTripsAtItsEdges() throws IOException {
        PayloadWriter w = new PayloadWriter().begin(Protocol.EXECUTE);
        EDGES.forEach(w::writeValue);
        w.writeValue(new byte[0]).writeValue(new byte[] {0, -1, 127, -128});
        PayloadReader r = roundTrip(w);
        for (Object expected : EDGES) {
            assertThat(r.readValue()).as("%s", expected).isEqualTo(expected);
        }
        assertThat((byte[]) r.readValue()).isEmpty();
        assertThat((byte[]) r.readValue()).containsExactly(0, -1, 127, -128);
        assertThat(r.hasRemaining()).isFalse();
    }

    @Test
    void floatingPointBitsSurviveExactly() throws IOException {
        float signallingNan = Float.intBitsToFloat(0x7fa00001);
        double oddNan = Double.longBitsToDouble(0x7ff0000000000abcL);
        PayloadReader r = roundTrip(new PayloadWriter()
                .begin(Protocol.EXECUTE)
                .writeValue(signallingNan)
                .writeValue(oddNan)
                .writeValue(-0.0d));
        assertThat(Float.floatToRawIntBits((Float) r.readValue())).isEqualTo(0x7fa00001);
        assertThat(Double.doubleToRawLongBits((Double) r.readValue())).isEqualTo(0x7ff0000000000abcL);
        assertThat(Double.doubleToRawLongBits((Double) r.readValue()))
                .as("negative zero")
                .isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void aNullKeepsTheTypeDeclaredForItWhateverTheType() throws Exception {
        List<Integer> types = new ArrayList<>();
        for (Field f : Types.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class) {
                types.add(f.getInt(null));
            }
        }
        assertThat(types).hasSizeGreaterThan(30);
        PayloadWriter w = new PayloadWriter().begin(Protocol.EXECUTE);
        types.forEach(t -> w.writeValue(SqlNull.of(t)));
        w.writeNull(12345); // a vendor's own type number travels too
        PayloadReader r = roundTrip(w);
        for (int t : types) {
            assertThat(r.readValue()).isEqualTo(SqlNull.of(t));
        }
        assertThat(r.readValue()).isEqualTo(SqlNull.of(12345));
    }

    @Test
    void typesWithoutATagOfTheirOwnTravelAsTheirNearestTag() throws IOException {
        PayloadReader r = roundTrip(new PayloadWriter()
                .begin(Protocol.EXECUTE)
                .writeValue((byte) -5)
                .writeValue(new java.math.BigInteger("123456789012345678901234567890"))
                .writeValue(java.time.Instant.ofEpochSecond(-1, 5))
                .writeValue(java.sql.Time.valueOf("13:14:15"))
                .writeValue(new StringBuilder("built")));
        assertThat(r.readValue()).isEqualTo((short) -5);
        assertThat(r.readValue()).isEqualTo(new BigDecimal("123456789012345678901234567890"));
        assertThat(r.readValue()).isEqualTo(OffsetDateTime.of(1969, 12, 31, 23, 59, 59, 5, ZoneOffset.UTC));
        assertThat(r.readValue()).isEqualTo(LocalTime.of(13, 14, 15));
        assertThat(r.readValue())
                .as("anything else: its text, for the backend to cast")
                .isEqualTo(new TypedText(null, "built"));
    }

    @Test
    void largeTextsAndBinariesRoundTripWhole() throws IOException {
        StringBuilder text = new StringBuilder();
        Random random = new Random(13);
        while (text.length() < 3_000_000) {
            text.appendCodePoint(
                    switch (random.nextInt(4)) {
                        case 0 -> 'a' + random.nextInt(26);
                        case 1 -> 0xe0 + random.nextInt(32); // two bytes in UTF-8
                        case 2 -> 0x4e00 + random.nextInt(2000); // three
                        default -> 0x1f600 + random.nextInt(64); // four, a surrogate pair in Java
                    });
        }
        byte[] binary = new byte[2_000_000];
        random.nextBytes(binary);
        PayloadWriter w = new PayloadWriter()
                .begin(Protocol.EXECUTE)
                .writeValue(text.toString())
                .writeValue(binary)
                .writeValue(new TypedText("text", text.toString()));
        byte[] payload = payload(w);
        PayloadReader r = new PayloadReader(Protocol.EXECUTE, payload, 0, payload.length);

        assertThat(r.readValue()).isEqualTo(text.toString());
        assertThat((byte[]) r.readValue()).isEqualTo(binary);
        assertThat(((TypedText) r.readValue()).text()).isEqualTo(text.toString());
        assertThat(r.hasRemaining()).isFalse();
    }

    /** Every value of {@link #EDGES}, cut after each of its bytes: the reader must say the frame is short. */
    @Test
    void aValueCutShortAnywhereIsAProtocolException() throws IOException {
        List<Object> values = new ArrayList<>(EDGES);
        values.add(new byte[] {1, 2, 3});
        values.add(new BigDecimal("-12.5"));
        for (Object value : values) {
            byte[] whole = payload(new PayloadWriter().begin(Protocol.EXECUTE).writeValue(value));
            for (int cut = 0; cut < whole.length; cut++) {
                PayloadReader r = new PayloadReader(Protocol.EXECUTE, whole, 0, cut);
                assertThatThrownBy(r::readValue)
                        .as("%s cut after %d of %d bytes", value, cut, whole.length)
                        .isInstanceOf(ProtocolException.class)
                        .isNotInstanceOf(InvalidValueException.class);
            }
        }
    }

    @Test
    void aRowsetCutShortAnywhereIsAProtocolException() throws IOException {
        PayloadWriter w = new PayloadWriter().begin(Protocol.RESULTS);
        RowsetCodec.writeRowset(
                w,
                9,
                List.of(
                        ColumnInfo.simple("id", Types.INTEGER, "int4", "java.lang.Integer"),
                        ColumnInfo.simple("tags", Types.ARRAY, "_text", "java.sql.Array")),
                List.<Object[]>of(new Object[] {1, new SqlArray("text", List.of("x"))}, new Object[] {null, null}),
                true);
        byte[] whole = payload(w);
        assertThat(RowsetCodec.readRowset(new PayloadReader(Protocol.RESULTS, whole, 0, whole.length))
                        .firstBatch()
                        .rows())
                .hasSize(2);
        for (int cut = 0; cut < whole.length; cut++) {
            PayloadReader r = new PayloadReader(Protocol.RESULTS, whole, 0, cut);
            assertThatThrownBy(() -> RowsetCodec.readRowset(r))
                    .as("cut after %d of %d bytes", cut, whole.length)
                    .isInstanceOf(ProtocolException.class);
        }
    }

    @Test
    void aForgedLengthBelowMinusOneIsAProtocolException() throws IOException {
        for (byte tag : new byte[] {ValueType.STRING, ValueType.BYTES, ValueType.DECIMAL}) {
            PayloadReader r = roundTrip(new PayloadWriter()
                    .begin(Protocol.EXECUTE)
                    .writeByte(tag)
                    .writeInt(-2)
                    .writeInt(0));
            assertThatThrownBy(r::readValue)
                    .as(ValueType.name(tag))
                    .isInstanceOf(ProtocolException.class)
                    .hasMessageContaining("truncated");
        }
        PayloadReader r = roundTrip(new PayloadWriter()
                .begin(Protocol.EXECUTE)
                .writeByte(ValueType.ARRAY)
                .writeString("int4")
                .writeInt(-1));
        assertThatThrownBy(r::readValue).isInstanceOf(ProtocolException.class).hasMessageContaining("implausible");
    }

    @Test
    void aRowsetTravelsInBatchesUntilTheLastAndNullCellsAreJavaNulls() throws IOException {
        List<ColumnInfo> columns = List.of(
                ColumnInfo.simple("id", Types.BIGINT, "int8", "java.lang.Long"),
                ColumnInfo.simple("note", Types.VARCHAR, "text", "java.lang.String"));
        PayloadWriter first = new PayloadWriter().begin(Protocol.RESULTS);
        RowsetCodec.writeRowset(
                first, 31, columns, List.<Object[]>of(new Object[] {1L, SqlNull.of(Types.VARCHAR)}), false);
        PayloadWriter second = new PayloadWriter().begin(Protocol.ROWS);
        RowsetCodec.writeBatch(second, List.of(new Object[] {2L, "b"}, new Object[] {null, "c"}), false);
        PayloadWriter last = new PayloadWriter().begin(Protocol.ROWS);
        RowsetCodec.writeBatch(last, List.of(), true);

        RowsetCodec.Rowset rowset = RowsetCodec.readRowset(roundTrip(first));
        RowsetCodec.Batch batch2 =
                RowsetCodec.readBatch(roundTrip(second), rowset.header().columnCount());
        RowsetCodec.Batch batch3 =
                RowsetCodec.readBatch(roundTrip(last), rowset.header().columnCount());

        assertThat(rowset.header().cursorId()).isEqualTo(31);
        assertThat(rowset.firstBatch().rows().get(0)).containsExactly(1L, null);
        assertThat(rowset.firstBatch().last()).isFalse();
        assertThat(batch2.rows()).hasSize(2);
        assertThat(batch2.rows().get(1)).containsExactly(null, "c");
        assertThat(batch2.last()).isFalse();
        assertThat(batch3.rows()).isEmpty();
        assertThat(batch3.last()).isTrue();
    }

    @Test
    void rowsWithoutColumnsAreCountedNotRead() throws IOException {
        PayloadWriter w = new PayloadWriter().begin(Protocol.RESULTS);
        RowsetCodec.writeRowset(w, 0, List.of(), List.of(new Object[0], new Object[0], new Object[0]), true);
        RowsetCodec.Rowset rowset = RowsetCodec.readRowset(roundTrip(w));
        assertThat(rowset.header().columns()).isEmpty();
        assertThat(rowset.firstBatch().rows()).hasSize(3).allMatch(row -> row.length == 0);
        assertThat(rowset.firstBatch().last()).isTrue();
    }

    // ---- errors -----------------------------------------------------------------------------------

    private static SQLException throughErrorFrame(SQLException e) throws IOException {
        PayloadWriter w = new PayloadWriter();
        ErrorFrame.write(w, e);
        PayloadReader r = roundTrip(w);
        SQLException read = ErrorFrame.read(r);
        assertThat(r.hasRemaining()).isFalse();
        return read;
    }

    @Test
    void anErrorKeepsItsMessageStateAndVendorCodeAndGetsTheJdbcClassOfItsState() throws IOException {
        SQLException unique = throughErrorFrame(new SQLException("duplicate key value: é \uD83D\uDE00", "23505", 1062));
        assertThat((Throwable) unique)
                .isInstanceOf(SQLIntegrityConstraintViolationException.class)
                .hasMessage("duplicate key value: é \uD83D\uDE00");
        assertThat(unique.getSQLState()).isEqualTo("23505");
        assertThat(unique.getErrorCode()).isEqualTo(1062);

        assertThat((Throwable) throughErrorFrame(new SQLException("victim", "40001")))
                .isInstanceOf(SQLTransactionRollbackException.class);

        SQLException stateless = throughErrorFrame(new SQLException("no state"));
        assertThat(stateless.getSQLState()).isNull();
        assertThat((Throwable) stateless).hasMessage("no state").isNotInstanceOf(BatchUpdateException.class);
    }

    @Test
    void aBatchErrorKeepsItsCountsEvenNoneAndOtherErrorsHaveNone() throws IOException {
        SQLException none = throughErrorFrame(new BatchUpdateException("first failed", "22001", 0, new long[0], null));
        assertThat((Throwable) none).isInstanceOf(BatchUpdateException.class);
        assertThat(((BatchUpdateException) none).getLargeUpdateCounts()).isEmpty();

        SQLException counts = throughErrorFrame(
                new BatchUpdateException("third failed", "23505", 0, new long[] {Long.MAX_VALUE, -2, -3}, null));
        assertThat(((BatchUpdateException) counts).getLargeUpdateCounts()).containsExactly(Long.MAX_VALUE, -2, -3);
        assertThat(counts.getSQLState()).isEqualTo("23505");
    }

    @Test
    void anErrorFrameCutShortAnywhereIsAProtocolException() throws IOException {
        PayloadWriter w = new PayloadWriter();
        ErrorFrame.write(w, new BatchUpdateException("m", "23505", 3, new long[] {1, 2}, null));
        byte[] whole = payload(w);
        for (int cut = 0; cut < whole.length; cut++) {
            PayloadReader r = new PayloadReader(Protocol.ERROR, whole, 0, cut);
            assertThatThrownBy(() -> ErrorFrame.read(r))
                    .as("cut after %d of %d bytes", cut, whole.length)
                    .isInstanceOf(ProtocolException.class);
        }
    }
}
