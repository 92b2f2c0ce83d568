package org.raidb.driver.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** METADATA and RESULTS, the answer to EXECUTE and METADATA: bytes as docs/protocol.md lays them out, and read back. */
class ResultsFramesTest {

    private static final List<ColumnInfo> COLUMNS =
            List.of(ColumnInfo.simple("n", Types.INTEGER, "int4", "java.lang.Integer"));

    private static List<Object[]> rows(Object... values) {
        List<Object[]> rows = new ArrayList<>();
        for (Object v : values) {
            rows.add(new Object[] {v});
        }
        return rows;
    }

    @Test
    void resultsWithCountsRowsetsKeysAndWarnings() throws Exception {
        RowsetCodec.Rowset first =
                new RowsetCodec.Rowset(new RowsetCodec.Header(9, COLUMNS), new RowsetCodec.Batch(rows(1, 2), false));
        RowsetCodec.Rowset keys =
                new RowsetCodec.Rowset(new RowsetCodec.Header(0, COLUMNS), new RowsetCodec.Batch(rows(5), true));
        SQLWarning warnings = new SQLWarning("one", "01000", 0);
        warnings.setNextWarning(new SQLWarning("two", "01P01", 7));
        ResultsFrame frame = new ResultsFrame(List.of(3L, first), keys, warnings);
        // int32 resultCount | (byte kind, int64 count | rowset)... | byte hasGeneratedKeys | [rowset] | warnings
        ResultsFrame back = FrameBytes.roundTrip(
                frame::write,
                w -> {
                    w.begin(Protocol.RESULTS)
                            .writeInt(2)
                            .writeByte(0)
                            .writeLong(3)
                            .writeByte(1);
                    RowsetCodec.writeRowset(w, 9, COLUMNS, rows(1, 2), false);
                    w.writeBoolean(true);
                    RowsetCodec.writeRowset(w, 0, COLUMNS, rows(5), true);
                    w.writeInt(2)
                            .writeString("01000")
                            .writeString("one")
                            .writeInt(0)
                            .writeString("01P01")
                            .writeString("two")
                            .writeInt(7);
                },
                ResultsFrame::read);
        assertThat(back.results()).hasSize(2);
        assertThat(back.results().get(0)).isEqualTo(3L);
        RowsetCodec.Rowset rowset = (RowsetCodec.Rowset) back.results().get(1);
        assertThat(rowset.header()).isEqualTo(first.header());
        assertThat(rowset.firstBatch().last()).isFalse();
        assertThat(rowset.firstBatch().rows()).extracting(row -> row[0]).containsExactly(1, 2);
        assertThat(back.generatedKeys().firstBatch().rows())
                .extracting(row -> row[0])
                .containsExactly(5);
        assertThat(back.warnings().getMessage()).isEqualTo("one");
        assertThat(back.warnings().getNextWarning().getSQLState()).isEqualTo("01P01");
        assertThat(back.warnings().getNextWarning().getErrorCode()).isEqualTo(7);
    }

    @Test
    void streamedRowsetWritersAreCalledInOrder() throws Exception {
        List<String> calls = new ArrayList<>();
        RowsetCodec.RowsetWriter a = w -> {
            calls.add("a");
            RowsetCodec.writeRowset(w, 1, COLUMNS, rows(1), false);
        };
        RowsetCodec.RowsetWriter keys = w -> {
            calls.add("keys");
            RowsetCodec.writeRowset(w, 0, COLUMNS, rows(2), true);
        };
        ResultsFrame back = FrameBytes.roundTrip(
                w -> ResultsFrame.write(w, List.of(a), keys, null),
                w -> {
                    w.begin(Protocol.RESULTS).writeInt(1).writeByte(1);
                    RowsetCodec.writeRowset(w, 1, COLUMNS, rows(1), false);
                    w.writeBoolean(true);
                    RowsetCodec.writeRowset(w, 0, COLUMNS, rows(2), true);
                    w.writeInt(0);
                },
                ResultsFrame::read);
        assertThat(calls).containsExactly("a", "keys");
        assertThat(((RowsetCodec.Rowset) back.results().get(0)).header().cursorId())
                .isEqualTo(1);
        assertThat((Object) back.warnings()).isNull();
    }

    @Test
    void unknownResultKindIsAProtocolViolation() {
        byte[] bytes = FrameBytes.of(
                w -> w.begin(Protocol.RESULTS).writeInt(1).writeByte(7).writeLong(0));
        assertThatThrownBy(() -> ResultsFrame.read(FrameBytes.read(bytes))).isInstanceOf(ProtocolException.class);
    }

    @Test
    void metadata() throws Exception {
        MetadataFrame frame = new MetadataFrame(
                "getTables",
                Arrays.asList(SqlNull.of(Types.NULL), "public", "%", new TypedText("text[]", "TABLE,VIEW")));
        // string method | int32 argCount | values
        assertThat(FrameBytes.roundTrip(
                        frame::write,
                        w -> w.begin(Protocol.METADATA)
                                .writeString("getTables")
                                .writeInt(4)
                                .writeNull(Types.NULL)
                                .writeValue("public")
                                .writeValue("%")
                                .writeValue(new TypedText("text[]", "TABLE,VIEW")),
                        MetadataFrame::read))
                .isEqualTo(frame);
    }

    @Test
    void metadataWithMoreArgumentsThanAnyMethodIsRefused() {
        byte[] bytes = FrameBytes.of(w -> {
            w.begin(Protocol.METADATA).writeString("getTables").writeInt(9);
            for (int i = 0; i < 9; i++) {
                w.writeValue(i);
            }
        });
        assertThatThrownBy(() -> MetadataFrame.read(FrameBytes.read(bytes)))
                .isInstanceOf(SQLException.class)
                .hasFieldOrPropertyWithValue("SQLState", SqlStates.FEATURE_NOT_SUPPORTED);
    }
}
