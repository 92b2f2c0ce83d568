package org.raidb.controller.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.raidb.controller.determinism.SqlDialect;

/** A hostile text costs the splitter time in proportion to its length, look-aheads included. */
class StatementSplitterLinearTest {

    /**
     * Each ",a(" makes the splitter look past the parentheses for an AS: none of those look-aheads may
     * read the unterminated string or comment that follows to its end.
     */
    @ParameterizedTest
    @ValueSource(strings = {"'", "/*", "$$", "\"", "-- "})
    @Timeout(30)
    void manyWithNamesBeforeAHugeTokenAreReadInLinearTime(String opening) {
        String sql = "WITH " + ",a(".repeat(2_000) + opening + "x".repeat(10_000_000);
        for (SqlDialect dialect : SqlDialect.values()) {
            assertThat(StatementSplitter.split(sql, dialect)).hasSize(1);
        }
    }
}
