package org.raidb.driver.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.sql.Types;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExecuteFrameTest {

    @Test
    void preparedStatementBytesAreTheDocumentedLayoutAndReadBack() throws Exception {
        ExecuteFrame frame = new ExecuteFrame(
                "insert into t values (?, ?) returning id",
                Arrays.asList(7, SqlNull.of(Types.VARCHAR)),
                Protocol.MODE_UPDATE,
                Protocol.FLAG_RETURN_GENERATED_KEYS,
                List.of("id"),
                50,
                1000L,
                30);
        // string sql | int32 paramCount | values | byte mode | int32 flags | stringList keyColumns |
        // int32 fetchSize | int64 maxRows | int32 queryTimeoutSeconds
        ExecuteFrame back = FrameBytes.roundTrip(
                frame::write,
                w -> w.begin(Protocol.EXECUTE)
                        .writeString("insert into t values (?, ?) returning id")
                        .writeInt(2)
                        .writeValue(7)
                        .writeNull(Types.VARCHAR)
                        .writeByte(Protocol.MODE_UPDATE)
                        .writeInt(1)
                        .writeStringList(List.of("id"))
                        .writeInt(50)
                        .writeLong(1000L)
                        .writeInt(30),
                ExecuteFrame::read);
        assertThat(back).isEqualTo(frame);
        assertThat(back.returnGeneratedKeys()).isTrue();
        assertThat(back.call()).isFalse();
        assertThat(back.escapeProcessing()).isTrue();
        assertThat(back.effectiveFetchSize()).isEqualTo(50);
    }

    @Test
    void plainStatementHasNoParameterListAndDefaultFetchSize() throws Exception {
        ExecuteFrame frame = new ExecuteFrame(
                "select 1",
                null,
                Protocol.MODE_ANY,
                Protocol.FLAG_CALL | Protocol.FLAG_NO_ESCAPE_PROCESSING,
                null,
                0,
                0,
                0);
        ExecuteFrame back = FrameBytes.roundTrip(
                frame::write,
                w -> w.begin(Protocol.EXECUTE)
                        .writeString("select 1")
                        .writeInt(-1)
                        .writeByte(Protocol.MODE_ANY)
                        .writeInt(6)
                        .writeStringList(null)
                        .writeInt(0)
                        .writeLong(0)
                        .writeInt(0),
                ExecuteFrame::read);
        assertThat(back).isEqualTo(frame);
        assertThat(back.parameters()).isNull();
        assertThat(back.call()).isTrue();
        assertThat(back.escapeProcessing()).isFalse();
        assertThat(back.effectiveFetchSize()).isEqualTo(Protocol.DEFAULT_FETCH_SIZE);
    }

    @Test
    void moreParametersThanABackendBindsAreRefusedBeforeTheyAreRead() {
        int n = ParameterList.MAX_PARAMETERS + 1;
        byte[] bytes = FrameBytes.of(w -> {
            w.begin(Protocol.EXECUTE).writeString("select 1").writeInt(n);
            for (int i = 0; i < n; i++) {
                w.writeValue(true);
            }
        });
        assertThatThrownBy(() -> ExecuteFrame.read(FrameBytes.read(bytes)))
                .isInstanceOf(SQLException.class)
                .hasFieldOrPropertyWithValue("SQLState", SqlStates.PROGRAM_LIMIT_EXCEEDED);
    }

    @Test
    void aCountTheFrameCannotHoldIsAProtocolViolation() {
        byte[] bytes = FrameBytes.of(
                w -> w.begin(Protocol.EXECUTE).writeString("select 1").writeInt(1000));
        assertThatThrownBy(() -> ExecuteFrame.read(FrameBytes.read(bytes))).isInstanceOf(ProtocolException.class);
    }
}
