package org.raidb.controller.determinism;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Other databases get ANSI literals. */
class DeterministicRewriterGenericTest {

    @Test
    void ansiLiterals() {
        String sql = DeterministicRewriter.rewrite(
                "INSERT INTO t VALUES (CURRENT_TIMESTAMP, CURRENT_DATE, CURRENT_TIME(0), LOCALTIME, RAND(), UUID())",
                SqlDialect.GENERIC,
                FixedStatementClock.utc());
        assertThat(sql)
                .startsWith("INSERT INTO t VALUES (TIMESTAMP WITH TIME ZONE '2026-11-22 03:41:30.987654+00:00', "
                        + "DATE '2026-11-22', TIME WITH TIME ZONE '03:41:30+00:00', TIME '03:41:30.987654', "
                        + "CAST(" + FixedStatementClock.nthRandom(0) + " AS DOUBLE PRECISION), '")
                .matches(".*'[0-9a-f-]{36}'\\)");
    }
}
