package org.raidb.controller.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SettingTextTest {
    @Test
    void parametersAreWrittenInAsLiterals() {
        assertThat(SettingText.replayable(
                        "SELECT set_config('search_path', ?, false)", List.of("\"my schema\", public")))
                .isEqualTo("SELECT set_config('search_path', '\"my schema\", public', false)");
        assertThat(SettingText.replayable("SELECT set_config(?, ?, false) /* ? */", Arrays.asList("a.b", "it's")))
                .isEqualTo("SELECT set_config('a.b', 'it''s', false) /* ? */");
        assertThat(SettingText.replayable("SET search_path TO x", List.of())).isEqualTo("SET search_path TO x");
    }

    @Test
    void onlyResetAllAndDiscardAllStartAfresh() {
        assertThat(SettingText.resetsAll("RESET ALL")).isTrue();
        assertThat(SettingText.resetsAll("discard all;")).isTrue();
        assertThat(SettingText.resetsAll("RESET statement_timeout")).isFalse();
        assertThat(SettingText.resetsAll("RESET ROLE")).isFalse();
        assertThat(SettingText.resetsAll("DISCARD PLANS")).isFalse();
    }

    @Test
    void theParameterOfASettingIsToldInEachOfItsSpellings() {
        assertThat(SettingText.parameter("SET search_path TO a, b")).isEqualTo("search_path");
        assertThat(SettingText.parameter("set SESSION Search_Path = 'x'")).isEqualTo("search_path");
        assertThat(SettingText.parameter("/* hi */ SET \"search_path\" TO x")).isEqualTo("search_path");
        assertThat(SettingText.parameter("SET TIME ZONE 'UTC'")).isEqualTo("timezone");
        assertThat(SettingText.parameter("RESET TIME ZONE")).isEqualTo("timezone");
        assertThat(SettingText.parameter("SET timezone = 'UTC'")).isEqualTo("timezone");
        assertThat(SettingText.parameter("SET ROLE app")).isEqualTo("role");
        assertThat(SettingText.parameter("SET SESSION AUTHORIZATION app")).isEqualTo("session_authorization");
        assertThat(SettingText.parameter("SET app.user_id = '42'")).isEqualTo("app.user_id");
        assertThat(SettingText.parameter("RESET statement_timeout;")).isEqualTo("statement_timeout");
        assertThat(SettingText.parameter("SELECT set_config('App.Tenant', '7', false)"))
                .isEqualTo("app.tenant");
        assertThat(SettingText.parameter("SET x = '10:00'")).isEqualTo("x");
        // Several parameters, a user variable, whole-transaction modes: no single parameter.
        assertThat(SettingText.parameter("SET a = 1, b = 2")).isNull();
        assertThat(SettingText.parameter("SET @v = 1")).isNull();
        assertThat(SettingText.parameter("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY"))
                .isNull();
        assertThat(SettingText.parameter("RESET ALL")).isNull();
        assertThat(SettingText.parameter("SELECT set_config(x, '7', false)")).isNull();
    }

    @Test
    void aLaterSettingOfAParameterReplacesTheEarlierOnesAndOthersKeepTheirOrder() throws SQLException {
        List<String> settings = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            SettingText.remember(settings, "SET search_path TO s" + (i % 7));
            SettingText.remember(settings, "SET statement_timeout = " + i);
        }
        SettingText.remember(settings, "SET a = 1, b = 2");
        SettingText.remember(settings, "SET a = 1, b = 2");
        SettingText.remember(settings, "RESET statement_timeout");
        assertThat(settings)
                .containsExactly(
                        "SET search_path TO s3", "SET a = 1, b = 2", "SET a = 1, b = 2", "RESET statement_timeout");
    }

    @Test
    void tooManyDifferentParametersAreRefusedAndTheSettingsStayAsTheyWere() throws SQLException {
        List<String> settings = new ArrayList<>();
        for (int i = 0; i < SettingText.MAX_REMEMBERED; i++) {
            SettingText.remember(settings, "SET app.p" + i + " = '1'");
        }
        List<String> before = List.copyOf(settings);
        assertThatThrownBy(() -> SettingText.remember(settings, "SET app.one_more = '1'"))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("RESET ALL")
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo("54000");
        assertThat(settings).isEqualTo(before);
        SettingText.remember(settings, "SET app.p3 = '2'"); // a parameter it keeps can still be set anew
        assertThat(settings).hasSize(SettingText.MAX_REMEMBERED).endsWith("SET app.p3 = '2'");
    }
}
