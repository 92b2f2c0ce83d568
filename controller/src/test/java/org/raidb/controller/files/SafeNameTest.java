package org.raidb.controller.files;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Names that become file names cannot name a file anywhere else. */
class SafeNameTest {

    @ParameterizedTest
    @ValueSource(strings = {"nightly", "pg2-20250301T101502Z", "before_upgrade.1", "2025-03-01", "-x", "a..b"})
    void ordinaryNamesAreSafe(String name) {
        assertThat(SafeName.problem(name)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "../../../sec/evil",
                "..",
                ".",
                ".hidden",
                "/tmp/evil",
                "a/b",
                "a\\b",
                "a\u0000b",
                "a b",
                "line\nforged",
                "",
                "caf\u00e9"
            })
    void namesThatCouldLeaveTheirDirectoryOrForgeALineAreNot(String name) {
        assertThat(SafeName.problem(name))
                .hasValueSatisfying(why -> assertThat(why).contains("no path separators"));
    }

    @Test
    void lengthIsBounded() {
        assertThat(SafeName.problem("a".repeat(SafeName.MAX_LENGTH))).isEmpty();
        assertThat(SafeName.problem("a".repeat(SafeName.MAX_LENGTH + 1))).contains("at most 128 characters");
    }
}
