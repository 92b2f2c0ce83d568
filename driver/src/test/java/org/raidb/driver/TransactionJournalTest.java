package org.raidb.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.raidb.driver.protocol.BatchResultFrame;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.ErrorFrame;
import org.raidb.driver.protocol.OkFrame;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.ResultsFrame;
import org.raidb.driver.protocol.RowsFrame;
import org.raidb.driver.protocol.RowsetCodec;
import org.raidb.driver.protocol.SqlStates;

/**
 * The journal of an open transaction and its replay: what the client received is compared with what the new
 * controller answers (update counts, row digests, errors); a replay that reads the same rows in batches of
 * another size still matches; one row more or one value changed does not. The "new controller" here answers
 * from a script of frames, as the real one would write them.
 */
class TransactionJournalTest {
    private static final List<ColumnInfo> COLUMNS = List.of(new ColumnInfo(
            "balance",
            "balance",
            "account",
            "public",
            Types.INTEGER,
            "int4",
            "java.lang.Integer",
            10,
            0,
            11,
            0,
            false,
            true,
            false));

    private static final ControllerChannel.Request REQUEST = w -> {};

    /** Answers each request with the next scripted frame, and counts the requests. */
    private static final class ScriptedController implements TransactionJournal.Wire {
        final Deque<FrameBytesOf> answers = new ArrayDeque<>();
        int requests;

        ScriptedController then(FrameBytesOf answer) {
            answers.add(answer);
            return this;
        }

        @Override
        public <T> T call(ControllerChannel.Request request, ControllerChannel.Response<T> response)
                throws IOException, SQLException {
            requests++;
            PayloadWriter w = new PayloadWriter();
            answers.removeFirst().write(w);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            w.send(out);
            org.raidb.driver.protocol.PayloadReader r = new org.raidb.driver.protocol.FrameReader(
                            new java.io.ByteArrayInputStream(out.toByteArray()), 1 << 20)
                    .next();
            if (r.type() == org.raidb.driver.protocol.Protocol.ERROR) {
                throw ErrorFrame.read(r);
            }
            return response.read(r);
        }
    }

    @FunctionalInterface
    private interface FrameBytesOf {
        void write(PayloadWriter w) throws IOException, SQLException;
    }

    private static List<Object[]> rows(int... values) {
        List<Object[]> rows = new ArrayList<>();
        for (int v : values) {
            rows.add(new Object[] {v});
        }
        return rows;
    }

    private static RowsetCodec.Rowset rowset(long cursorId, List<Object[]> rows, boolean last) {
        return new RowsetCodec.Rowset(new RowsetCodec.Header(cursorId, COLUMNS), new RowsetCodec.Batch(rows, last));
    }

    private static FrameBytesOf results(Object... results) {
        return w -> new ResultsFrame(List.of(results), null, null).write(w);
    }

    private static FrameBytesOf rowsFrame(List<Object[]> rows, boolean last) {
        return w -> RowsFrame.write(w, rows, last);
    }

    private static FrameBytesOf error(String state) {
        return w -> ErrorFrame.write(w, new SQLException("refused", state));
    }

    /** A journal holding a read of 1, 2, 3 (read to the end), an update of 1 row, and a failed statement. */
    private static TransactionJournal journal() {
        TransactionJournal journal = new TransactionJournal();
        List<RowsDigest> digests = journal.executed(
                "SELECT balance", REQUEST, new ResultsFrame(List.of(rowset(7, rows(1, 2), false)), null, null));
        digests.get(0).add(rows(3), true); // the second batch, fetched by the result set
        journal.executed("UPDATE account", REQUEST, new ResultsFrame(List.of(1L), null, null));
        journal.refused("INSERT dup", REQUEST, new SQLException("duplicate", "23505"));
        return journal;
    }

    @Test
    void aReplayThatGetsTheSameAnswersMatchesWhateverTheBatchSizes() throws IOException {
        ScriptedController b = new ScriptedController()
                .then(results(rowset(3, rows(1), false)))
                .then(rowsFrame(rows(2, 3), false))
                .then(rowsFrame(rows(), true))
                .then(results(1L))
                .then(error("23505"));
        assertThat(journal().replay(b)).isNull();
        assertThat(b.answers).isEmpty();
    }

    @Test
    void aChangedValueIsNamedWithTheStatement() throws IOException {
        ScriptedController b = new ScriptedController().then(results(rowset(0, rows(1, 2, 4), true)));
        assertThat(journal().replay(b))
                .contains("request 1 of 3 (SELECT balance)")
                .contains("with different values");
    }

    @Test
    void oneRowMoreThanTheClientReadToTheEndDoesNotMatchAndTheCursorIsClosed() throws IOException {
        ScriptedController b = new ScriptedController()
                .then(results(rowset(5, rows(1, 2, 3, 4), false)))
                .then(OkFrame::write); // CLOSE_CURSOR
        assertThat(journal().replay(b)).contains("it read 3 row(s) and would now read more than 3");
        assertThat(b.answers).isEmpty();
    }

    @Test
    void aResultTheClientStoppedReadingIsComparedOnTheRowsItRead() throws IOException {
        TransactionJournal journal = new TransactionJournal();
        List<RowsDigest> digests = journal.executed(
                "SELECT balance", REQUEST, new ResultsFrame(List.of(rowset(7, rows(1, 2), false)), null, null));
        assertThat(journal.resultStillRead()).isEqualTo("SELECT balance");
        digests.get(0).abandon(); // the client closed the result set after two rows
        assertThat(journal.resultStillRead()).isNull();
        ScriptedController b = new ScriptedController()
                .then(results(rowset(9, rows(1, 2, 5), false)))
                .then(OkFrame::write);
        assertThat(journal.replay(b)).isNull();
    }

    @Test
    void anotherUpdateCountOrErrorDoesNotMatch() throws IOException {
        ScriptedController counts = new ScriptedController()
                .then(results(rowset(0, rows(1, 2, 3), true)))
                .then(results(2L));
        assertThat(journal().replay(counts)).contains("request 2 of 3").contains("was 1 and would now be 2");
        ScriptedController succeeds = new ScriptedController()
                .then(results(rowset(0, rows(1, 2, 3), true)))
                .then(results(1L))
                .then(results(1L));
        assertThat(journal().replay(succeeds)).contains("now succeeds where it had failed with 23505");
        ScriptedController fails = new ScriptedController().then(error("40P01"));
        assertThat(journal().replay(fails)).contains("now fails with 40P01");
    }

    @Test
    void batchesAndSavepointsReplay() throws IOException, SQLException {
        TransactionJournal journal = new TransactionJournal();
        journal.answeredOk("SAVEPOINT a", REQUEST);
        journal.batched("a batch", REQUEST, new BatchResultFrame(new long[] {1, 1}, null, null));
        ScriptedController same = new ScriptedController()
                .then(OkFrame::write)
                .then(w -> BatchResultFrame.write(w, new long[] {1, 1}, null, null));
        assertThat(journal.replay(same)).isNull();
        ScriptedController other = new ScriptedController()
                .then(OkFrame::write)
                .then(w -> BatchResultFrame.write(w, new long[] {1, 0}, null, null));
        assertThat(journal.replay(other)).contains("update counts were [1, 1] and would now be [1, 0]");
        journal.clear();
        assertThat(journal.size()).isZero();
    }

    @Test
    void aTransactionTooLargeToKeepCannotBeReplayed() throws IOException {
        TransactionJournal journal = new TransactionJournal();
        long[] counts = new long[TransactionJournal.MAX_WEIGHT];
        journal.batched("a huge batch", REQUEST, new BatchResultFrame(counts, null, null));
        assertThat(journal.size()).isZero();
        ScriptedController nothingAsked = new ScriptedController();
        assertThat(journal.replay(nothingAsked)).contains("more than the driver keeps");
        assertThat(nothingAsked.requests).isZero();
        journal.clear(); // the transaction ended: the next one is kept again
        journal.answeredOk("SAVEPOINT a", REQUEST);
        assertThat(journal.replay(new ScriptedController().then(OkFrame::write)))
                .isNull();
    }

    @Test
    void theDigestCoversValuesAndOrder() {
        assertThat(RowsDigest.ofComplete(rows(1, 2)).sameAs(RowsDigest.ofComplete(rows(1, 2))))
                .isTrue();
        assertThat(RowsDigest.ofComplete(rows(1, 2)).sameAs(RowsDigest.ofComplete(rows(2, 1))))
                .isFalse();
        List<Object[]> withNull = new ArrayList<>();
        withNull.add(new Object[] {null});
        assertThat(RowsDigest.ofComplete(withNull).sameAs(RowsDigest.ofComplete(rows(0))))
                .isFalse();
        assertThat(RowsDigest.ofComplete(List.<Object[]>of(new Object[] {"a", "bc"}))
                        .sameAs(RowsDigest.ofComplete(List.<Object[]>of(new Object[] {"ab", "c"}))))
                .isFalse();
        assertThat(SqlStates.SERIALIZATION_FAILURE).isEqualTo("40001");
    }
}
