package org.raidb.controller.determinism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.raidb.controller.determinism.FixedStatementClock.nthRandom;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DeterministicRewriterMariaDbTest {

    private static String rewrite(String sql) {
        return DeterministicRewriter.rewrite(sql, SqlDialect.MARIADB, FixedStatementClock.utc());
    }

    /** MariaDB's NOW() is the start of the statement, not of the transaction. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
      NOW()                   | TIMESTAMP '2026-11-22 03:41:30'
      now(3)                  | TIMESTAMP '2026-11-22 03:41:30.987'
      NOW( 6 )                | TIMESTAMP '2026-11-22 03:41:30.987654'
      SYSDATE()               | TIMESTAMP '2026-11-22 03:42:00'
      SYSDATE(1)              | TIMESTAMP '2026-11-22 03:42:00.5'
      CURRENT_TIMESTAMP       | TIMESTAMP '2026-11-22 03:41:30'
      CURRENT_TIMESTAMP()     | TIMESTAMP '2026-11-22 03:41:30'
      current_timestamp(2)    | TIMESTAMP '2026-11-22 03:41:30.98'
      LOCALTIMESTAMP          | TIMESTAMP '2026-11-22 03:41:30'
      LOCALTIMESTAMP(4)       | TIMESTAMP '2026-11-22 03:41:30.9876'
      LOCALTIME               | TIMESTAMP '2026-11-22 03:41:30'
      LOCALTIME()             | TIMESTAMP '2026-11-22 03:41:30'
      CURDATE()               | DATE '2026-11-22'
      CURRENT_DATE            | DATE '2026-11-22'
      CURRENT_DATE()          | DATE '2026-11-22'
      CURTIME()               | TIME '03:41:30'
      CURTIME(3)              | TIME '03:41:30.987'
      CURRENT_TIME            | TIME '03:41:30'
      CURRENT_TIME(6)         | TIME '03:41:30.987654'
      UTC_TIMESTAMP()         | TIMESTAMP '2026-11-22 03:41:30'
      UTC_TIMESTAMP           | TIMESTAMP '2026-11-22 03:41:30'
      UTC_DATE()              | DATE '2026-11-22'
      UTC_TIME(2)             | TIME '03:41:30.98'
      UNIX_TIMESTAMP()        | 1795318890
      """)
    void eachTimeCallBecomesALiteral(String call, String literal) {
        assertThat(rewrite("INSERT INTO t VALUES (" + call + ", 1)"))
                .isEqualTo("INSERT INTO t VALUES (" + literal + ", 1)");
    }

    @Test
    void unixTimestampIsTheStatementTimeInWholeSeconds() {
        assertThat(FixedStatementClock.STATEMENT_TIME.getEpochSecond()).isEqualTo(1795318890L);
    }

    @Test
    void randBecomesADoubleLiteralAndUuidAString() {
        String sql = rewrite("INSERT INTO t VALUES (RAND(), rand(), UUID())");
        assertThat(sql)
                .startsWith("INSERT INTO t VALUES (" + nthRandom(0) + "e0, " + nthRandom(1) + "e0, '")
                .matches(".*, '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}'\\)");
    }

    @Test
    void precisionTruncatesAsMariaDbDoes() {
        StatementClock clock = FixedStatementClock.at(
                FixedStatementClock.TRANSACTION_START, Instant.parse("2026-11-22T23:59:59.654321Z"), ZoneOffset.UTC);
        assertThat(DeterministicRewriter.rewrite("SELECT NOW(), NOW(2)", SqlDialect.MARIADB, clock))
                .isEqualTo("SELECT TIMESTAMP '2026-11-22 23:59:59', TIMESTAMP '2026-11-22 23:59:59.65'");
    }

    @Test
    void localValuesFollowTheSessionZoneButUtcFunctionsDoNot() {
        StatementClock paris = FixedStatementClock.in(ZoneId.of("Europe/Paris"));
        assertThat(DeterministicRewriter.rewrite(
                        "SELECT NOW(), UTC_TIMESTAMP(), CURTIME(), UTC_TIME()", SqlDialect.MARIADB, paris))
                .isEqualTo(
                        "SELECT TIMESTAMP '2026-11-22 04:41:30', TIMESTAMP '2026-11-22 03:41:30', TIME '04:41:30', TIME '03:41:30'");
    }

    /** Only these spellings are the deterministic or user-defined calls MariaDB sees, so they stay. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT RAND(42)",
                "SELECT UNIX_TIMESTAMP(created) FROM t",
                "SELECT NOW ()", // MariaDB calls a stored function NOW here
                "SELECT CURDATE ()",
                "SELECT CURTIME ()",
                "SELECT NOW",
                "SELECT CURDATE",
                "SELECT t.NOW(), t.CURRENT_DATE FROM t",
                "SELECT pg_catalog.now()",
                "SELECT random(), gen_random_uuid(), clock_timestamp()",
                "SELECT 'it\\'s NOW()'",
                "SELECT \"NOW()\"",
                "SELECT `now()` FROM t",
                "SELECT 1 # NOW()",
                "SELECT 1 -- NOW()",
                "SELECT 1 /* NOW() */",
            })
    void leftAsWritten(String sql) {
        assertThat(rewrite(sql)).isSameAs(sql);
    }

    @Test
    void mysqlLexingDiffersFromPostgresql() {
        assertThat(rewrite("SELECT 1--1, NOW()")).isEqualTo("SELECT 1--1, TIMESTAMP '2026-11-22 03:41:30'");
        assertThat(rewrite("SELECT 1 /*!100000 , NOW() */"))
                .isEqualTo("SELECT 1 /*!100000 , TIMESTAMP '2026-11-22 03:41:30' */");
        assertThat(rewrite("SELECT '\\\\', NOW()")).isEqualTo("SELECT '\\\\', TIMESTAMP '2026-11-22 03:41:30'");
        assertThat(rewrite("SELECT $$, NOW() $$")).contains("TIMESTAMP '");
        assertThat(rewrite("SELECT 1 /* a /* b */ NOW()")).contains("TIMESTAMP '");
    }
}
