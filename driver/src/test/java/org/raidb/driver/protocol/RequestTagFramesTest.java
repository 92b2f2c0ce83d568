package org.raidb.driver.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The failover additions to the frames: the client session id at the end of HELLO and the request tag at the
 * end of EXECUTE, BATCH and TRANSACTION, in the bytes docs/protocol.md gives; a frame without them (a driver
 * that predates them) reads as before, with no id and {@link RequestTag#NONE}.
 */
class RequestTagFramesTest {
    private static final RequestTag TAG = RequestTag.of(42);

    @Test
    void helloEndsWithTheClientSessionId() throws Exception {
        HelloFrame hello = new HelloFrame("shop", "alice", "secret", Map.of(), "c0ffee");
        HelloFrame read = FrameBytes.roundTrip(
                hello::write,
                w -> w.begin(Protocol.HELLO)
                        .writeInt(Protocol.MAGIC)
                        .writeInt(Protocol.VERSION)
                        .writeString("shop")
                        .writeString("alice")
                        .writeString("secret")
                        .writeStringMap(Map.of())
                        .writeString("c0ffee"),
                HelloFrame::read);
        assertThat(read.clientSessionId()).isEqualTo("c0ffee");
        HelloFrame old = HelloFrame.read(
                FrameBytes.read(FrameBytes.of(new HelloFrame("shop", "alice", "secret", Map.of())::write)));
        assertThat(old.clientSessionId()).isNull();
    }

    @Test
    void executeEndsWithItsTag() throws Exception {
        ExecuteFrame frame = new ExecuteFrame("update t set x = 1", null, Protocol.MODE_UPDATE, 0, null, 0, 0, 0);
        ExecuteFrame read = FrameBytes.roundTrip(
                frame.withTag(TAG.asOutcomeQuery())::write,
                w -> {
                    frame.write(w);
                    w.writeLong(42).writeBoolean(true);
                },
                ExecuteFrame::read);
        assertThat(read.tag()).isEqualTo(new RequestTag(42, true));
        assertThat(ExecuteFrame.read(FrameBytes.read(FrameBytes.of(frame::write)))
                        .tag())
                .isEqualTo(RequestTag.NONE);
    }

    @Test
    void batchEndsWithItsTag() throws Exception {
        BatchFrame frame =
                BatchFrame.ofPrepared(0, 0, null, "insert into t values (?)", List.of(List.of(1), List.of(2)));
        BatchFrame read = FrameBytes.roundTrip(
                frame.withTag(TAG)::write,
                w -> {
                    frame.write(w);
                    w.writeLong(42).writeBoolean(false);
                },
                BatchFrame::read);
        assertThat(read.tag()).isEqualTo(TAG);
        BatchFrame texts = BatchFrame.ofStatements(0, 0, List.of("delete from t"));
        assertThat(BatchFrame.read(FrameBytes.read(FrameBytes.of(texts.withTag(TAG)::write)))
                        .tag())
                .isEqualTo(TAG);
        assertThat(BatchFrame.read(FrameBytes.read(FrameBytes.of(texts::write))).tag())
                .isEqualTo(RequestTag.NONE);
    }

    @Test
    void transactionCommandsEndWithTheirTag() throws Exception {
        TransactionFrame read = FrameBytes.roundTrip(
                TransactionFrame.commit().withTag(TAG)::write,
                w -> w.begin(Protocol.TRANSACTION).writeByte(2).writeLong(42).writeBoolean(false),
                TransactionFrame::read);
        assertThat(read).isEqualTo(TransactionFrame.commit().withTag(TAG));
        TransactionFrame savepoint =
                TransactionFrame.savepoint(Protocol.TX_SET_SAVEPOINT, "sp").withTag(TAG);
        assertThat(TransactionFrame.read(FrameBytes.read(FrameBytes.of(savepoint::write))))
                .isEqualTo(savepoint);
    }
}
