package org.raidb.driver.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** HELLO, HELLO_OK, CANCEL and CLOSE: bytes as docs/protocol.md lays them out, and read back. */
class HandshakeFramesTest {

    @Test
    void hello() throws Exception {
        HelloFrame frame = new HelloFrame("shop", "alice", "secret", Map.of(Protocol.APPLICATION_NAME, "billing"));
        // int32 magic | int32 protocolVersion | string virtualDatabase | string user | string password | stringMap
        HelloFrame back = FrameBytes.roundTrip(
                frame::write,
                w -> w.begin(Protocol.HELLO)
                        .writeInt(0x52414944)
                        .writeInt(2)
                        .writeString("shop")
                        .writeString("alice")
                        .writeString("secret")
                        .writeStringMap(Map.of(Protocol.APPLICATION_NAME, "billing")),
                HelloFrame::read);
        assertThat(back).isEqualTo(frame);
        assertThat(back.protocolVersion()).isEqualTo(Protocol.VERSION);
        assertThat(back.toString()).doesNotContain("secret");
    }

    @Test
    void helloOfAnotherVersionIsRefusedBeforeItsRestIsRead() {
        // A version 1 driver, or a future one: what follows the version may be laid out differently.
        byte[] bytes = FrameBytes.of(w ->
                w.begin(Protocol.HELLO).writeInt(Protocol.MAGIC).writeInt(1).writeInt(-7));
        assertThatThrownBy(() -> HelloFrame.read(FrameBytes.read(bytes)))
                .isInstanceOf(SQLException.class)
                .isNotInstanceOf(ProtocolException.class)
                .hasFieldOrPropertyWithValue("SQLState", SqlStates.PROTOCOL_VIOLATION)
                .hasMessageContaining("use a driver of the same release");
    }

    @Test
    void helloWithBadMagicIsAProtocolViolation() {
        byte[] bytes =
                FrameBytes.of(w -> w.begin(Protocol.HELLO).writeInt(0x47455420).writeInt(2));
        assertThatThrownBy(() -> HelloFrame.read(FrameBytes.read(bytes)))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("bad magic number 0x47455420");
    }

    @Test
    void helloOk() throws Exception {
        HelloOkFrame frame = new HelloOkFrame(
                Protocol.VERSION,
                12L,
                -99L,
                "PostgreSQL",
                "15.8",
                15,
                8,
                "\"",
                Map.of("controller", "RAIDb test", "maxFrameBytes", "1024"));
        assertThat(FrameBytes.roundTrip(
                        frame::write,
                        w -> w.begin(Protocol.HELLO_OK)
                                .writeInt(2)
                                .writeLong(12L)
                                .writeLong(-99L)
                                .writeString("PostgreSQL")
                                .writeString("15.8")
                                .writeInt(15)
                                .writeInt(8)
                                .writeString("\"")
                                .writeStringMap(Map.of("controller", "RAIDb test", "maxFrameBytes", "1024")),
                        HelloOkFrame::read))
                .isEqualTo(frame);
        assertThat(frame.toString()).doesNotContain("-99");
    }

    @Test
    void cancel() throws Exception {
        CancelFrame frame = new CancelFrame(12L, 987654321L);
        assertThat(FrameBytes.roundTrip(
                        frame::write,
                        w -> w.begin(Protocol.CANCEL)
                                .writeInt(Protocol.MAGIC)
                                .writeLong(12L)
                                .writeLong(987654321L),
                        CancelFrame::read))
                .isEqualTo(frame);
        byte[] bad = FrameBytes.of(
                w -> w.begin(Protocol.CANCEL).writeInt(1).writeLong(12L).writeLong(0));
        assertThatThrownBy(() -> CancelFrame.read(FrameBytes.read(bad))).isInstanceOf(ProtocolException.class);
    }

    @Test
    void close() {
        assertThat(FrameBytes.of(CloseFrame::write)).containsExactly(0, 0, 0, 1, Protocol.CLOSE);
    }
}
