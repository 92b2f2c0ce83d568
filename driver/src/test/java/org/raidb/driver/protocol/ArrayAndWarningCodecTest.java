package org.raidb.driver.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigDecimal;
import java.sql.SQLWarning;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The values and trailers protocol version 2 added: ARRAY values and warnings. */
class ArrayAndWarningCodecTest {

    private static PayloadReader roundTrip(PayloadWriter w) throws IOException {
        return CodecTest.roundTrip(w);
    }

    @Test
    void arraysRoundTripWithNullsAndDimensions() throws IOException {
        UUID u = UUID.randomUUID();
        SqlArray flat = new SqlArray("uuid", Arrays.asList(u, null));
        SqlArray grid =
                new SqlArray("int4", List.of(new SqlArray("int4", List.of(1, 2)), new SqlArray("int4", List.of(3, 4))));
        SqlArray decimals = new SqlArray("numeric", Arrays.asList(new BigDecimal("1.50"), null, BigDecimal.TEN));
        PayloadWriter w = new PayloadWriter().begin(Protocol.EXECUTE);
        w.writeValue(flat).writeValue(grid).writeValue(decimals).writeValue(new SqlArray("text", List.of()));
        PayloadReader r = roundTrip(w);
        assertThat(r.readValue()).isEqualTo(flat);
        SqlArray readGrid = (SqlArray) r.readValue();
        assertThat(readGrid).isEqualTo(grid);
        assertThat(Arrays.deepToString(readGrid.toNestedArray())).isEqualTo("[[1, 2], [3, 4]]");
        assertThat(r.readValue()).isEqualTo(decimals);
        assertThat(((SqlArray) r.readValue()).elements()).isEmpty();
        assertThat(r.hasRemaining()).isFalse();
    }

    @Test
    void arraysNestedDeeperThanPostgresAllowsAreRefused() throws IOException {
        PayloadWriter w = new PayloadWriter().begin(Protocol.EXECUTE);
        for (int i = 0; i < PayloadReader.MAX_ARRAY_DIMENSIONS + 1; i++) {
            w.writeByte(ValueType.ARRAY).writeString("int4").writeInt(1);
        }
        w.writeValue(1);
        PayloadReader r = roundTrip(w);
        assertThatThrownBy(r::readValue).isInstanceOf(ProtocolException.class).hasMessageContaining("dimensions");
    }

    @Test
    void aForgedElementCountIsRefused() throws IOException {
        PayloadWriter w = new PayloadWriter()
                .begin(Protocol.EXECUTE)
                .writeByte(ValueType.ARRAY)
                .writeString("int4")
                .writeInt(1_000_000);
        PayloadReader r = roundTrip(w);
        assertThatThrownBy(r::readValue).isInstanceOf(ProtocolException.class).hasMessageContaining("implausible");
    }

    @Test
    void warningsKeepTheirOrderStateAndCode() throws IOException {
        SQLWarning chain = new SQLWarning("hello 42", "00000", 0);
        chain.setNextWarning(new SQLWarning("careful", "01000", 7));
        PayloadWriter w = new PayloadWriter().begin(Protocol.RESULTS);
        Warnings.write(w, chain);
        Warnings.write(w, null);
        PayloadReader r = roundTrip(w);
        SQLWarning read = Warnings.read(r);
        assertThat(read.getMessage()).isEqualTo("hello 42");
        assertThat(read.getSQLState()).isEqualTo("00000");
        assertThat(read.getNextWarning().getMessage()).isEqualTo("careful");
        assertThat(read.getNextWarning().getErrorCode()).isEqualTo(7);
        assertThat((Object) read.getNextWarning().getNextWarning()).isNull();
        assertThat((Object) Warnings.read(r)).isNull();
    }
}
