package org.raidb.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/** A plain java.util.Date given to setObject travels as the JVM zone's wall-clock time, as pgjdbc sends it. */
class LegacyDateParameterTest {
    @Test
    void aUtilDateBecomesTheLocalDateTimeOfItsInstantInTheDefaultZone() throws Exception {
        for (long millis :
                new long[] {0L, 1_700_000_000_123L, -1L, -86_400_001L, -12_219_292_800_000L - 86_400_000L * 30}) {
            java.util.Date d = new java.util.Date(millis);
            @SuppressWarnings("JavaUtilDate") // the legacy conversion the driver must match
            LocalDateTime legacy = new java.sql.Timestamp(d.getTime()).toLocalDateTime();
            assertThat(ParameterConversions.normalize(d)).isEqualTo(legacy);
        }
        assertThat(ParameterConversions.normalize(new java.util.Date(1_700_000_000_123L)))
                .isEqualTo(LocalDateTime.ofInstant(
                        java.time.Instant.ofEpochMilli(1_700_000_000_123L), ZoneId.systemDefault()));
    }
}
