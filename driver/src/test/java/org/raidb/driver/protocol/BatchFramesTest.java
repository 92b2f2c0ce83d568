package org.raidb.driver.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLWarning;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** BATCH in both forms and its answer BATCH_RESULT: bytes as docs/protocol.md lays them out, and read back. */
class BatchFramesTest {

    @Test
    void batchOfStatements() throws Exception {
        BatchFrame frame =
                BatchFrame.ofStatements(5, Protocol.FLAG_NO_ESCAPE_PROCESSING, List.of("insert 1", "insert 2"));
        // byte form | int32 queryTimeoutSeconds | int32 flags | stringList keyColumns | stringList statements
        BatchFrame back = FrameBytes.roundTrip(
                frame::write,
                w -> w.begin(Protocol.BATCH)
                        .writeByte(0)
                        .writeInt(5)
                        .writeInt(4)
                        .writeStringList(null)
                        .writeStringList(List.of("insert 1", "insert 2")),
                BatchFrame::read);
        assertThat(back).isEqualTo(frame);
        assertThat(back.escapeProcessing()).isFalse();
    }

    @Test
    void preparedBatch() throws Exception {
        List<List<Object>> rows =
                List.of(Arrays.asList(1, "a"), Arrays.asList(2, SqlNull.of(Types.VARCHAR)), List.of());
        BatchFrame frame = BatchFrame.ofPrepared(
                0, Protocol.FLAG_RETURN_GENERATED_KEYS, List.of("id"), "insert into t values (?, ?)", rows);
        // ... | string sql | int32 rowCount | rowCount x (int32 n | n x value)
        BatchFrame back = FrameBytes.roundTrip(
                frame::write,
                w -> w.begin(Protocol.BATCH)
                        .writeByte(1)
                        .writeInt(0)
                        .writeInt(1)
                        .writeStringList(List.of("id"))
                        .writeString("insert into t values (?, ?)")
                        .writeInt(3)
                        .writeInt(2)
                        .writeValue(1)
                        .writeValue("a")
                        .writeInt(2)
                        .writeValue(2)
                        .writeNull(Types.VARCHAR)
                        .writeInt(0),
                BatchFrame::read);
        assertThat(back).isEqualTo(frame);
        assertThat(back.returnGeneratedKeys()).isTrue();
    }

    @Test
    void unknownFormAndRowWithoutParameterListAreProtocolViolations() {
        byte[] form = FrameBytes.of(w ->
                w.begin(Protocol.BATCH).writeByte(2).writeInt(0).writeInt(0).writeStringList(null));
        assertThatThrownBy(() -> BatchFrame.read(FrameBytes.read(form)))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("unknown batch form 2");
        byte[] row = FrameBytes.of(w -> w.begin(Protocol.BATCH)
                .writeByte(1)
                .writeInt(0)
                .writeInt(0)
                .writeStringList(null)
                .writeString("x")
                .writeInt(1)
                .writeInt(-1));
        assertThatThrownBy(() -> BatchFrame.read(FrameBytes.read(row)))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("no parameter list");
    }

    @Test
    void batchResultWithKeysAndWarnings() throws Exception {
        List<Object[]> keyRows = new ArrayList<>();
        keyRows.add(new Object[] {10L});
        keyRows.add(new Object[] {11L});
        List<ColumnInfo> columns = List.of(ColumnInfo.simple("id", Types.BIGINT, "int8", "java.lang.Long"));
        RowsetCodec.Rowset keys =
                new RowsetCodec.Rowset(new RowsetCodec.Header(0, columns), new RowsetCodec.Batch(keyRows, true));
        BatchResultFrame frame = new BatchResultFrame(new long[] {1, 1}, keys, new SQLWarning("careful", "01000", 3));
        // int32 n | n x int64 | byte hasGeneratedKeys | [rowset] | warnings
        BatchResultFrame back = FrameBytes.roundTrip(
                frame::write,
                w -> {
                    w.begin(Protocol.BATCH_RESULT)
                            .writeInt(2)
                            .writeLong(1)
                            .writeLong(1)
                            .writeBoolean(true);
                    RowsetCodec.writeRowset(w, 0, columns, keyRows, true);
                    w.writeInt(1).writeString("01000").writeString("careful").writeInt(3);
                },
                BatchResultFrame::read);
        assertThat(back.counts()).containsExactly(1, 1);
        assertThat(back.generatedKeys().header()).isEqualTo(keys.header());
        assertThat(back.generatedKeys().firstBatch().rows())
                .extracting(row -> row[0])
                .containsExactly(10L, 11L);
        assertThat(back.warnings().getMessage()).isEqualTo("careful");
        assertThat(back.warnings().getSQLState()).isEqualTo("01000");
        assertThat(back.warnings().getErrorCode()).isEqualTo(3);
    }

    @Test
    void batchResultWithoutKeysOrWarnings() throws Exception {
        BatchResultFrame back = FrameBytes.roundTrip(
                w -> BatchResultFrame.write(w, new long[] {3}, null, null),
                w -> w.begin(Protocol.BATCH_RESULT)
                        .writeInt(1)
                        .writeLong(3)
                        .writeBoolean(false)
                        .writeInt(0),
                BatchResultFrame::read);
        assertThat(back.counts()).containsExactly(3);
        assertThat(back.generatedKeys()).isNull();
        assertThat((Object) back.warnings()).isNull();
    }
}
