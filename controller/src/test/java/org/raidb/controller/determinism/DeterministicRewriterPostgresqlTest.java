package org.raidb.controller.determinism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.raidb.controller.determinism.FixedStatementClock.nthRandom;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DeterministicRewriterPostgresqlTest {

    private static String rewrite(String sql) {
        return DeterministicRewriter.rewrite(sql, SqlDialect.POSTGRESQL, FixedStatementClock.utc());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
      now()                      | TIMESTAMPTZ '2026-11-22 03:40:00.123456+00'
      NOW ( )                    | TIMESTAMPTZ '2026-11-22 03:40:00.123456+00'
      current_timestamp          | TIMESTAMPTZ '2026-11-22 03:40:00.123456+00'
      CURRENT_TIMESTAMP(3)       | TIMESTAMPTZ '2026-11-22 03:40:00.123+00'
      current_timestamp ( 0 )    | TIMESTAMPTZ '2026-11-22 03:40:00+00'
      transaction_timestamp()    | TIMESTAMPTZ '2026-11-22 03:40:00.123456+00'
      statement_timestamp()      | TIMESTAMPTZ '2026-11-22 03:41:30.987654+00'
      clock_timestamp()          | TIMESTAMPTZ '2026-11-22 03:42:00.500000+00'
      current_date               | DATE '2026-11-22'
      current_time               | TIMETZ '03:40:00.123456+00'
      current_time(1)            | TIMETZ '03:40:00.1+00'
      localtimestamp             | TIMESTAMP '2026-11-22 03:40:00.123456'
      LocalTimestamp(2)          | TIMESTAMP '2026-11-22 03:40:00.12'
      localtime                  | TIME '03:40:00.123456'
      localtime(0)               | TIME '03:40:00'
      timeofday()                | TEXT 'Sun Nov 22 03:42:00.500000 2026 UTC'
      pg_catalog.now()           | TIMESTAMPTZ '2026-11-22 03:40:00.123456+00'
      current_timestamp(9)       | TIMESTAMPTZ '2026-11-22 03:40:00.123456+00'
      """)
    void eachTimeCallBecomesATypedLiteral(String call, String literal) {
        assertThat(rewrite("INSERT INTO t VALUES (" + call + ", 1)"))
                .isEqualTo("INSERT INTO t VALUES (" + literal + ", 1)");
    }

    @Test
    void randomBecomesADoubleLiteral() {
        assertThat(rewrite("UPDATE t SET r = random() WHERE id = ?"))
                .isEqualTo("UPDATE t SET r = CAST(" + nthRandom(0) + " AS DOUBLE PRECISION) WHERE id = ?");
    }

    @Test
    void uuidGeneratorsBecomeUuidLiterals() {
        assertThat(rewrite("INSERT INTO t VALUES (gen_random_uuid(), uuid_generate_v4())"))
                .matches(
                        "INSERT INTO t VALUES \\(CAST\\('[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}' AS UUID\\), "
                                + "CAST\\('[0-9a-f-]{36}' AS UUID\\)\\)");
    }

    @Test
    void eachRandomCallGetsItsOwnValueAndNowIsTheSameEverywhere() {
        String sql = rewrite(
                "INSERT INTO t VALUES (random(), random(), now(), now(), gen_random_uuid(), gen_random_uuid())");
        assertThat(sql)
                .contains("CAST(" + nthRandom(0) + " AS DOUBLE PRECISION), CAST(" + nthRandom(1)
                        + " AS DOUBLE PRECISION)");
        assertThat(nthRandom(0)).isNotEqualTo(nthRandom(1));
        assertThat(sql)
                .contains("TIMESTAMPTZ '2026-11-22 03:40:00.123456+00', TIMESTAMPTZ '2026-11-22 03:40:00.123456+00'");
        String[] uuids = sql.replaceAll(".*CAST\\('([^']+)' AS UUID\\), CAST\\('([^']+)' AS UUID\\).*", "$1 $2")
                .split(" ");
        assertThat(uuids[0]).isNotEqualTo(uuids[1]);
    }

    @Test
    void precisionRoundsAsPostgresqlDoes() {
        StatementClock clock = FixedStatementClock.at(
                Instant.parse("2026-11-22T23:59:59.654321Z"), FixedStatementClock.STATEMENT_TIME, ZoneOffset.UTC);
        assertThat(DeterministicRewriter.rewrite(
                        "SELECT current_timestamp(0), localtimestamp(2)", SqlDialect.POSTGRESQL, clock))
                .isEqualTo("SELECT TIMESTAMPTZ '2026-11-23 00:00:00+00', TIMESTAMP '2026-11-22 23:59:59.65'");
    }

    @Test
    void theSessionTimeZoneDecidesTheLocalValues() {
        StatementClock paris = FixedStatementClock.at(
                Instant.parse("2026-11-22T23:30:00Z"), FixedStatementClock.STATEMENT_TIME, ZoneId.of("Europe/Paris"));
        assertThat(DeterministicRewriter.rewrite(
                        "SELECT now(), current_date, localtime(0), current_time(0)", SqlDialect.POSTGRESQL, paris))
                .isEqualTo(
                        "SELECT TIMESTAMPTZ '2026-11-23 00:30:00.000000+01', DATE '2026-11-23', TIME '00:30:00', TIMETZ '00:30:00+01'");
        StatementClock kolkata = FixedStatementClock.in(ZoneId.of("Asia/Kolkata"));
        assertThat(DeterministicRewriter.rewrite("SELECT now()", SqlDialect.POSTGRESQL, kolkata))
                .isEqualTo("SELECT TIMESTAMPTZ '2026-11-22 09:10:00.123456+05:30'");
    }

    @Test
    void parameterMarkersAndTheRestOfTheTextStayInPlace() {
        assertThat(rewrite("INSERT INTO log(at, who, what) VALUES (now(), ?, $1) -- now()"))
                .isEqualTo(
                        "INSERT INTO log(at, who, what) VALUES (TIMESTAMPTZ '2026-11-22 03:40:00.123456+00', ?, $1) -- now()");
    }

    @Test
    void callsInsideExpressionsKeepTheirMeaning() {
        assertThat(rewrite("UPDATE t SET due = now() + interval '1 day', d = current_date::text WHERE x < random()*10"))
                .isEqualTo(
                        "UPDATE t SET due = TIMESTAMPTZ '2026-11-22 03:40:00.123456+00' + interval '1 day', d = DATE '2026-11-22'::text"
                                + " WHERE x < CAST(" + nthRandom(0) + " AS DOUBLE PRECISION)*10");
    }

    @Test
    void mariaDbOnlyNamesAreLeftAlone() {
        String sql = "INSERT INTO t VALUES (rand(), uuid(), sysdate(), curdate(), unix_timestamp(), utc_timestamp())";
        assertThat(rewrite(sql)).isSameAs(sql);
    }
}
