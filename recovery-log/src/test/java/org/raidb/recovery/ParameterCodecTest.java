package org.raidb.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.raidb.driver.protocol.SqlArray;
import org.raidb.driver.protocol.SqlNull;
import org.raidb.driver.protocol.TypedText;

class ParameterCodecTest {

    /** One value of every type the controller binds, with edge values where the encoding branches. */
    static List<Object> everyType() {
        return List.of(
                "héllo wörld ✓",
                "",
                Integer.MIN_VALUE,
                -1,
                0,
                Integer.MAX_VALUE,
                Long.MIN_VALUE,
                Long.MAX_VALUE,
                (short) -32768,
                (short) 7,
                true,
                false,
                3.5f,
                Float.NaN,
                -0.0d,
                Double.MAX_VALUE,
                new BigDecimal("-12345678901234567890.000123"),
                BigDecimal.ZERO,
                new BigDecimal("1E+30"),
                new byte[] {0, -1, 127, -128},
                new byte[0],
                LocalDate.of(1, 1, 1),
                LocalDate.of(2026, 11, 22),
                LocalTime.of(23, 59, 59, 999_999_999),
                LocalTime.MIDNIGHT,
                LocalDateTime.of(1969, 12, 31, 23, 59, 59, 1),
                OffsetDateTime.of(2026, 11, 22, 4, 15, 0, 123_456_789, ZoneOffset.ofHoursMinutes(-9, -30)),
                OffsetTime.of(12, 0, 0, 5, ZoneOffset.ofHours(14)),
                UUID.fromString("123e4567-e89b-12d3-a456-426614174000"),
                SqlNull.of(Types.VARCHAR),
                SqlNull.of(Types.OTHER),
                new TypedText("jsonb", "{\"a\": [1, 2]}"),
                new TypedText(null, "untyped"),
                new SqlArray("int4", java.util.Arrays.asList(1, null, 3)),
                new SqlArray("int4", List.of(new SqlArray("int4", List.of(1, 2)), new SqlArray("int4", List.of(3, 4)))),
                new SqlArray("text", List.of()));
    }

    @Test
    void everyTypeRoundTrips() {
        List<Object> values = everyType();
        List<Object> decoded = ParameterCodec.decode(ParameterCodec.encode(values));
        assertThat(decoded).hasSameSizeAs(values);
        for (int i = 0; i < values.size(); i++) {
            assertThat(decoded.get(i))
                    .as("parameter %d", i + 1)
                    .hasSameClassAs(values.get(i))
                    .isEqualTo(values.get(i));
        }
    }

    @Test
    void encodingIsCompact() {
        // version + count + (tag + 1-byte varint) per small integer
        assertThat(ParameterCodec.encode(List.of(1, 2, 3))).hasSize(2 + 3 * 2);
        assertThat(ParameterCodec.encode(List.of())).containsExactly(1, 0);
    }

    @Test
    void unknownVersionIsRefused() {
        byte[] stored = ParameterCodec.encode(List.of(1));
        stored[0] = 9;
        assertThatThrownBy(() -> ParameterCodec.decode(stored)).hasMessageContaining("version 9");
    }

    @Test
    void unsupportedTypeNamesTheParameter() {
        assertThatThrownBy(() -> ParameterCodec.encode(List.of(1, new Object())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parameter 2")
                .hasMessageContaining("java.lang.Object");
    }
}
