package org.raidb.controller.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PgStartupSettingsTest {
    private static Map<String, String> params(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void pgjdbcsStartupPacketPassesOnOnlyItsTimeZoneAndSearchPath() throws SQLException {
        assertThat(PgStartupSettings.of(params(
                        "user", "app",
                        "database", "shop",
                        "client_encoding", "UTF8",
                        "DateStyle", "ISO",
                        "TimeZone", "Europe/Paris",
                        "extra_float_digits", "3",
                        "application_name", "PostgreSQL JDBC Driver",
                        "search_path", "inventory")))
                // The TimeZone goes to the backends too, for what they compute from it (date_trunc of a timestamptz).
                .containsExactly("SET timezone TO 'Europe/Paris'", "SET search_path TO 'inventory'");
    }

    @Test
    void optionsAreReadAsPostgresqlReadsThemAndComeLast() throws SQLException {
        assertThat(PgStartupSettings.of(params(
                        "options", "-c search_path=a\\ b  --statement-timeout=5s -cwork_mem=4MB -c x.y='q'",
                        "search_path", "first")))
                .containsExactly(
                        "SET search_path TO 'a b'",
                        "SET statement_timeout TO '5s'",
                        "SET work_mem TO '4MB'",
                        "SET x.y TO '''q'''");
    }

    @Test
    void badOptionsNamesAndReplicationAreRefused() {
        assertThatThrownBy(() -> PgStartupSettings.of(params("options", "-d 5")))
                .hasMessageContaining("-c name=value");
        assertThatThrownBy(() -> PgStartupSettings.of(params("options", "-c work_mem")))
                .hasMessageContaining("requires a value");
        assertThatThrownBy(() -> PgStartupSettings.of(params("options", "-c a;DROP=1")))
                .hasMessageContaining("invalid configuration parameter name");
        assertThatThrownBy(() -> PgStartupSettings.of(params("replication", "database")))
                .hasMessageContaining("replication connections are not supported");
    }
}
