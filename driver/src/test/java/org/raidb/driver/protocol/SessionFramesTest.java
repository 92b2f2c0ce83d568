package org.raidb.driver.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.ParameterMetaData;
import java.sql.Types;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PING, CLIENT_INFO, DESCRIBE and its answer DESCRIPTION: bytes as docs/protocol.md lays them out, and read back. */
class SessionFramesTest {

    @Test
    void ping() throws Exception {
        PingFrame frame = new PingFrame(5);
        assertThat(FrameBytes.roundTrip(
                        frame::write, w -> w.begin(Protocol.PING).writeInt(5), PingFrame::read))
                .isEqualTo(frame);
    }

    @Test
    void clientInfo() throws Exception {
        for (ClientInfoFrame frame : List.of(
                new ClientInfoFrame(Protocol.APPLICATION_NAME, "billing"),
                new ClientInfoFrame(Protocol.APPLICATION_NAME, null))) {
            assertThat(FrameBytes.roundTrip(
                            frame::write,
                            w -> w.begin(Protocol.CLIENT_INFO)
                                    .writeString(frame.name())
                                    .writeString(frame.value()),
                            ClientInfoFrame::read))
                    .isEqualTo(frame);
        }
    }

    @Test
    void describe() throws Exception {
        DescribeFrame frame = new DescribeFrame("select * from t where id = ?");
        assertThat(FrameBytes.roundTrip(
                        frame::write, w -> w.begin(Protocol.DESCRIBE).writeString(frame.sql()), DescribeFrame::read))
                .isEqualTo(frame);
    }

    @Test
    void descriptionWithColumns() throws Exception {
        ParameterInfo p = new ParameterInfo(
                Types.INTEGER,
                "int4",
                "java.lang.Integer",
                10,
                0,
                ParameterMetaData.parameterNullableUnknown,
                true,
                ParameterMetaData.parameterModeIn);
        ColumnInfo c = ColumnInfo.simple("name", Types.VARCHAR, "varchar", "java.lang.String");
        StatementDescription frame = new StatementDescription(List.of(p), List.of(c));
        // int32 paramCount | (int32 jdbcType | string typeName | string className | int32 precision | int32 scale |
        // int32 nullable | byte signed | int32 mode)... | byte hasColumns | [int32 columnCount | column...]
        assertThat(FrameBytes.roundTrip(
                        frame::write,
                        w -> {
                            w.begin(Protocol.DESCRIPTION)
                                    .writeInt(1)
                                    .writeInt(Types.INTEGER)
                                    .writeString("int4")
                                    .writeString("java.lang.Integer")
                                    .writeInt(10)
                                    .writeInt(0)
                                    .writeInt(ParameterMetaData.parameterNullableUnknown)
                                    .writeBoolean(true)
                                    .writeInt(ParameterMetaData.parameterModeIn)
                                    .writeBoolean(true)
                                    .writeInt(1);
                            c.write(w);
                        },
                        StatementDescription::read))
                .isEqualTo(frame);
    }

    @Test
    void descriptionOfAStatementWithoutRows() throws Exception {
        StatementDescription back = FrameBytes.roundTrip(
                new StatementDescription(List.of(), null)::write,
                w -> w.begin(Protocol.DESCRIPTION).writeInt(0).writeBoolean(false),
                StatementDescription::read);
        assertThat(back.parameters()).isEmpty();
        assertThat(back.columns()).isNull();
    }
}
