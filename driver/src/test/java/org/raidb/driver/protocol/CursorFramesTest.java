package org.raidb.driver.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** FETCH, its answer ROWS, CLOSE_CURSOR and OK: bytes as docs/protocol.md lays them out, and read back. */
class CursorFramesTest {

    private static List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {1, "a"});
        rows.add(new Object[] {2, SqlNull.of(Types.VARCHAR)});
        return rows;
    }

    /** int32 rowCount | rows | byte last */
    private static void documentedRows(PayloadWriter w) {
        w.begin(Protocol.ROWS)
                .writeInt(2)
                .writeValue(1)
                .writeValue("a")
                .writeValue(2)
                .writeNull(Types.VARCHAR)
                .writeBoolean(false);
    }

    @Test
    void fetch() throws Exception {
        FetchFrame frame = new FetchFrame(42L, 500);
        assertThat(FrameBytes.roundTrip(
                        frame::write,
                        w -> w.begin(Protocol.FETCH).writeLong(42L).writeInt(500),
                        FetchFrame::read))
                .isEqualTo(frame);
        assertThat(new FetchFrame(1, 0).effectiveMaxRows()).isEqualTo(Protocol.DEFAULT_FETCH_SIZE);
    }

    @Test
    void rowsHeldInMemory() throws Exception {
        RowsetCodec.Batch batch = FrameBytes.roundTrip(
                w -> RowsFrame.write(w, rows(), false), CursorFramesTest::documentedRows, r -> RowsFrame.read(r, 2));
        assertThat(batch.last()).isFalse();
        assertThat(batch.rows()).hasSize(2);
        assertThat(batch.rows().get(0)).containsExactly(1, "a");
        assertThat(batch.rows().get(1)).containsExactly(2, null);
    }

    @Test
    void rowsStreamed() throws Exception {
        List<Boolean> returned = new ArrayList<>();
        FrameBytes.roundTrip(
                w -> returned.add(RowsFrame.write(w, b -> {
                    int countAt = RowsetCodec.beginBatch(b);
                    for (Object[] row : rows()) {
                        b.writeValue(row[0]).writeValue(row[1]);
                    }
                    RowsetCodec.endBatch(b, countAt, 2, false);
                    return false;
                })),
                CursorFramesTest::documentedRows,
                r -> RowsFrame.read(r, 2));
        assertThat(returned).containsExactly(false);
    }

    @Test
    void aRowsetStreamedWithItsCursorIdPatchedIsTheSameBytesAsOneWrittenWhole() {
        List<ColumnInfo> columns = List.of(ColumnInfo.simple("id", Types.BIGINT, "int8", "java.lang.Long"));
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {1L});
        byte[] whole = FrameBytes.of(w -> RowsetCodec.writeRowset(w.begin(Protocol.RESULTS), 0, columns, rows, true));
        byte[] streamed = FrameBytes.of(w -> {
            w.begin(Protocol.RESULTS);
            int headerAt = w.size();
            RowsetCodec.writeHeader(w, 5, columns);
            int countAt = RowsetCodec.beginBatch(w);
            w.writeValue(1L);
            RowsetCodec.endBatch(w, countAt, 1, true);
            RowsetCodec.markComplete(w, headerAt);
        });
        assertThat(streamed).containsExactly(whole);
    }

    @Test
    void closeCursor() throws Exception {
        CloseCursorFrame frame = new CloseCursorFrame(7L);
        assertThat(FrameBytes.roundTrip(
                        frame::write, w -> w.begin(Protocol.CLOSE_CURSOR).writeLong(7L), CloseCursorFrame::read))
                .isEqualTo(frame);
    }

    @Test
    void ok() {
        assertThat(FrameBytes.of(OkFrame::write)).containsExactly(0, 0, 0, 1, Protocol.OK);
    }
}
