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
  private static PayloadReader roundTrip(PayloadWriter w) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    w.send(out);
    return new FrameReader(new ByteArrayInputStream(out.toByteArray()), 1 << 20).next();
  }

  @Test
  void everyValueTypeRoundTrips() throws IOException {
    List<Object> values = List.of(
        SqlNull.of(Types.INTEGER), true, 42, 1L << 40, 1.5f, 2.25d, new BigDecimal("123.4500"), "héllo", new byte[] {1, 2, 3},
        LocalDate.of(2024, 2, 29), LocalTime.of(23, 59, 58, 123_456_789), LocalDateTime.of(1969, 7, 20, 20, 17, 40, 5),
        OffsetDateTime.of(2024, 1, 2, 3, 4, 5, 6, ZoneOffset.ofHoursMinutes(5, 30)), UUID.randomUUID(), (short) -7,
        OffsetTime.of(10, 11, 12, 0, ZoneOffset.ofHours(-3)), new TypedText("int4[]", "{1,2}"), new TypedText(null, "x"));
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
    ColumnInfo id = new ColumnInfo("id", "id", "t", "public", Types.BIGINT, "int8", "java.lang.Long", 19, 0, 20, 0, true, true, false);
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
    assertThatThrownBy(reader::next).isInstanceOf(ProtocolException.class).hasMessageContaining("exceeds the maximum of 1024");
  }

  @Test
  void frameReaderRefusesAFrameCutShort() {
    byte[] partial = {0, 0, 0, 10, 'E', 1, 2};
    FrameReader reader = new FrameReader(new ByteArrayInputStream(partial), 1024);
    assertThatThrownBy(reader::next).isInstanceOf(java.io.EOFException.class);
  }

  @Test
  void truncatedPayloadIsAProtocolException() throws IOException {
    PayloadWriter w = new PayloadWriter().begin(Protocol.EXECUTE).writeInt(100).writeByte(1); // string of 100 bytes announced, 1 sent
    PayloadReader r = roundTrip(w);
    assertThatThrownBy(r::readString).isInstanceOf(ProtocolException.class).hasMessageContaining("truncated");
  }

  @Test
  void forgedRowCountIsRefusedBeforeAllocating() throws IOException {
    PayloadWriter w = new PayloadWriter().begin(Protocol.ROWS).writeInt(Integer.MAX_VALUE).writeBoolean(true);
    PayloadReader r = roundTrip(w);
    assertThatThrownBy(() -> RowsetCodec.readBatch(r, 3)).isInstanceOf(ProtocolException.class)
        .hasMessageContaining("implausible");
  }

  @Test
  void writerSendsLengthPrefix() throws IOException {
    PayloadWriter w = new PayloadWriter().begin(Protocol.PING).writeInt(5);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    w.send(out);
    assertThat(Arrays.copyOf(out.toByteArray(), 5)).containsExactly(0, 0, 0, 5, 'P');
  }
}
