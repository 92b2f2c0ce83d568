package org.raidb.controller.determinism;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What PostgreSQL's lexer says is not code, or not the built-in, must come out untouched. */
class DeterminismPostgresqlLexingTest {

    private static String rewrite(String sql) {
        return DeterministicRewriter.rewrite(sql, SqlDialect.POSTGRESQL, FixedStatementClock.utc());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "INSERT INTO t VALUES ('now()')",
                "INSERT INTO t VALUES ('it''s now() and random()')",
                "INSERT INTO t VALUES (E'it\\'s now()')",
                "INSERT INTO t VALUES (e'\\\\'' now()')",
                "INSERT INTO t VALUES (U&'now()')",
                "SELECT \"now()\", \"current_date\" FROM t",
                "SELECT \"a\"\"now()\" FROM t",
                "SELECT 1 -- now()",
                "SELECT 1 /* now() */",
                "SELECT 1 /* outer /* inner */ now() still a comment */",
                "SELECT $$ now() $$",
                "SELECT $body$ now() $$ random() $body$",
                "SELECT $a$ $b$ now() $b$ $a$",
                "SELECT my_now(), now_utc(), nownow(), random_value, xrandom() FROM t",
                "SELECT current_date_x, current_timestamp_2, localtime_ms FROM t",
                "SELECT t.now, t.current_date, s.random(), s . now() FROM t",
                "SELECT x.now() FROM t",
                "SELECT RAND(42), random(1), now(1), current_date(0)",
                "SELECT 1 AS current_date, 2 as localtime",
                "SELECT current_timestamp(?)",
                "SELECT now$x(), now$ FROM t",
                "SELECT 'unterminated now()",
                "SELECT 1 /* unterminated now()",
            })
    void leftAsWritten(String sql) {
        assertThat(rewrite(sql)).isSameAs(sql);
        assertThat(NonDeterministicCalls.mayContain(sql, SqlDialect.POSTGRESQL)).isFalse();
    }

    @Test
    void codeAfterLiteralsAndCommentsIsStillCode() {
        assertThat(rewrite("SELECT 'a''b', E'\\'', \"x\"\"y\", $$q$$, $t$ $ $t$, /* /* */ */ -- c\n now(), $1"))
                .isEqualTo(
                        "SELECT 'a''b', E'\\'', \"x\"\"y\", $$q$$, $t$ $ $t$, /* /* */ */ -- c\n TIMESTAMPTZ '2026-11-22 03:40:00.123456+00', $1");
    }

    @Test
    void aCommentEndingInADotDoesNotQualifyTheNextName() {
        assertThat(rewrite("INSERT INTO t VALUES ( -- the time.\n now())"))
                .isEqualTo("INSERT INTO t VALUES ( -- the time.\n TIMESTAMPTZ '2026-11-22 03:40:00.123456+00')");
    }

    @Test
    void commentsBetweenNameAndParenthesesAreAllowed() {
        assertThat(rewrite("SELECT now /* why not */ ( )"))
                .isEqualTo("SELECT TIMESTAMPTZ '2026-11-22 03:40:00.123456+00'");
    }

    @Test
    void backslashesDoNotEscapeInStandardStrings() {
        assertThat(rewrite("SELECT 'C:\\', now()"))
                .isEqualTo("SELECT 'C:\\', TIMESTAMPTZ '2026-11-22 03:40:00.123456+00'");
    }

    @Test
    void nonAsciiTextAroundCallsIsCopied() {
        assertThat(rewrite("INSERT INTO größe VALUES ('é', now()) -- ünïcode"))
                .isEqualTo("INSERT INTO größe VALUES ('é', TIMESTAMPTZ '2026-11-22 03:40:00.123456+00') -- ünïcode");
        assertThat(rewrite("SELECT énow()")).isEqualTo("SELECT énow()");
    }
}
