package org.raidb.driver.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import org.junit.jupiter.api.Test;

/** TRANSACTION, every operation: bytes as docs/protocol.md lays them out, and read back. */
class TransactionFrameTest {

    private static void roundTrip(TransactionFrame frame, FrameBytes.Writing documentedPayload) throws Exception {
        assertThat(FrameBytes.roundTrip(
                        frame::write,
                        w -> documentedPayload.write(w.begin(Protocol.TRANSACTION)),
                        TransactionFrame::read))
                .isEqualTo(frame);
    }

    @Test
    void everyOperation() throws Exception {
        roundTrip(TransactionFrame.autoCommit(true), w -> w.writeByte(1).writeBoolean(true));
        roundTrip(TransactionFrame.autoCommit(false), w -> w.writeByte(1).writeBoolean(false));
        roundTrip(TransactionFrame.commit(), w -> w.writeByte(2));
        roundTrip(TransactionFrame.rollback(), w -> w.writeByte(3));
        roundTrip(
                TransactionFrame.savepoint(Protocol.TX_SET_SAVEPOINT, "sp1"),
                w -> w.writeByte(4).writeString("sp1"));
        roundTrip(
                TransactionFrame.savepoint(Protocol.TX_ROLLBACK_TO_SAVEPOINT, "sp1"),
                w -> w.writeByte(5).writeString("sp1"));
        roundTrip(
                TransactionFrame.savepoint(Protocol.TX_RELEASE_SAVEPOINT, "sp1"),
                w -> w.writeByte(6).writeString("sp1"));
        roundTrip(
                TransactionFrame.isolation(Connection.TRANSACTION_SERIALIZABLE),
                w -> w.writeByte(7).writeInt(8));
        roundTrip(TransactionFrame.readOnly(true), w -> w.writeByte(8).writeBoolean(true));
    }

    @Test
    void unknownOperationIsAProtocolViolation() {
        byte[] bytes = FrameBytes.of(w -> w.begin(Protocol.TRANSACTION).writeByte(9));
        assertThatThrownBy(() -> TransactionFrame.read(FrameBytes.read(bytes)))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("unknown transaction operation 9");
    }
}
