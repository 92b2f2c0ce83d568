package org.raidb.controller.request;

import static org.assertj.core.api.Assertions.assertThat;

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
}
