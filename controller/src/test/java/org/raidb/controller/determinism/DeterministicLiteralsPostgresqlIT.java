package org.raidb.controller.determinism;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.raidb.test.PostgresClusterExtension;

/** The literals mean, to a real PostgreSQL, exactly what the calls they replace would have meant. */
class DeterministicLiteralsPostgresqlIT {

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(1).database("det");

    /** Calls whose value is fixed for the transaction: PostgreSQL's own answer must equal the literal. */
    private static final String[] TRANSACTION_CALLS = {
        "now()",
        "NOW ()",
        "pg_catalog.now()",
        "current_timestamp",
        "current_timestamp(0)",
        "current_timestamp(3)",
        "transaction_timestamp()",
        "current_date",
        "current_time",
        "current_time(2)",
        "localtimestamp",
        "localtimestamp(0)",
        "localtimestamp(5)",
        "localtime",
        "localtime(1)",
    };

    /** Calls whose value PostgreSQL decides at another moment: only the type can be compared. */
    private static final String[] OTHER_CALLS = {
        "statement_timestamp()", "clock_timestamp()", "timeofday()", "random()", "gen_random_uuid()",
    };

    @ParameterizedTest
    @ValueSource(strings = {"UTC", "Europe/Paris", "Asia/Kolkata", "America/St_Johns"})
    void literalsEqualWhatPostgresqlComputesInTheSameTransaction(String timeZone) throws SQLException {
        try (Connection c = pg.server(0).connect();
                Statement s = c.createStatement()) {
            s.execute("SET TIME ZONE '" + timeZone + "'");
            c.setAutoCommit(false);
            Instant transactionStart = transactionStart(s);
            StatementClock clock = new StatementClock(
                    Instant.now(), transactionStart, Clock.systemUTC(), new SplittableRandom(1), ZoneId.of(timeZone));
            for (String call : TRANSACTION_CALLS) {
                String literal = DeterministicRewriter.rewrite(call, SqlDialect.POSTGRESQL, clock);
                try (ResultSet rs = s.executeQuery("SELECT (" + call + ") = (" + literal + "), pg_typeof(" + call
                        + ")::text, pg_typeof(" + literal + ")::text")) {
                    rs.next();
                    assertThat(rs.getBoolean(1))
                            .as("%s = %s in %s", call, literal, timeZone)
                            .isTrue();
                    assertThat(rs.getString(3)).as("type of %s", literal).isEqualTo(rs.getString(2));
                }
            }
            c.rollback();
        }
    }

    @Test
    void otherCallsKeepTheirType() throws SQLException {
        try (Connection c = pg.server(0).connect();
                Statement s = c.createStatement()) {
            for (String call : OTHER_CALLS) {
                String literal = DeterministicRewriter.rewrite(call, SqlDialect.POSTGRESQL, StatementClock.now(null));
                try (ResultSet rs =
                        s.executeQuery("SELECT pg_typeof(" + call + ")::text, pg_typeof(" + literal + ")::text")) {
                    rs.next();
                    assertThat(rs.getString(2)).as("type of %s", literal).isEqualTo(rs.getString(1));
                }
            }
        }
    }

    @Test
    void rewrittenInsertStoresTheControllersValues() throws SQLException {
        StatementClock clock = FixedStatementClock.utc();
        String insert = DeterministicRewriter.rewrite(
                "INSERT INTO det_values VALUES (now(), current_timestamp(0), statement_timestamp(), "
                        + "clock_timestamp(), current_date, localtime, current_time(3), localtimestamp, random(), random(), gen_random_uuid(), "
                        + "uuid_generate_v4(), timeofday(), ?)",
                SqlDialect.POSTGRESQL,
                clock);
        try (Connection c = pg.server(0).connect();
                Statement s = c.createStatement()) {
            s.execute(
                    "CREATE TABLE det_values (tx timestamptz, tx0 timestamptz(0), st timestamptz, clk timestamptz, d date, lt time, "
                            + "ct timetz, lts timestamp, r1 double precision, r2 double precision, u1 uuid, u2 uuid, tod text, id int)");
            try (var ps = c.prepareStatement(insert)) {
                ps.setInt(1, 7);
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            try (ResultSet rs = s.executeQuery("SELECT *, ct::text FROM det_values")) {
                rs.next();
                Instant tx = FixedStatementClock.TRANSACTION_START.truncatedTo(ChronoUnit.MICROS);
                assertThat(rs.getObject("tx", OffsetDateTime.class).toInstant()).isEqualTo(tx);
                assertThat(rs.getObject("tx0", OffsetDateTime.class).toInstant())
                        .isEqualTo(Instant.parse("2026-11-22T03:40:00Z"));
                assertThat(rs.getObject("st", OffsetDateTime.class).toInstant())
                        .isEqualTo(FixedStatementClock.STATEMENT_TIME);
                assertThat(rs.getObject("clk", OffsetDateTime.class).toInstant())
                        .isEqualTo(FixedStatementClock.CLOCK_NOW);
                assertThat(rs.getObject("d", LocalDate.class)).isEqualTo(LocalDate.of(2026, 11, 22));
                assertThat(rs.getObject("lt", LocalTime.class)).isEqualTo(LocalTime.parse("03:40:00.123456"));
                assertThat(rs.getString(15)).isEqualTo("03:40:00.123+00");
                assertThat(rs.getObject("lts", LocalDateTime.class))
                        .isEqualTo(LocalDateTime.ofInstant(tx, ZoneOffset.UTC));
                assertThat(rs.getDouble("r1")).isEqualTo(clock.random(0));
                assertThat(rs.getDouble("r2")).isEqualTo(clock.random(1)).isNotEqualTo(clock.random(0));
                assertThat(rs.getObject("u1", UUID.class)).isEqualTo(clock.uuid(0));
                assertThat(rs.getObject("u2", UUID.class)).isEqualTo(clock.uuid(1));
                assertThat(rs.getString("tod")).isEqualTo("Sun Nov 22 03:42:00.500000 2026 UTC");
                assertThat(rs.getInt("id")).isEqualTo(7);
            }
            s.execute("DROP TABLE det_values");
        }
    }

    @Test
    void timeofdayLooksLikePostgresqlsOwn() throws SQLException {
        try (Connection c = pg.server(0).connect();
                Statement s = c.createStatement()) {
            s.execute("SET TIME ZONE 'UTC'");
            String literal =
                    DeterministicRewriter.rewrite("timeofday()", SqlDialect.POSTGRESQL, StatementClock.now(null));
            try (ResultSet rs = s.executeQuery("SELECT timeofday(), " + literal)) {
                rs.next();
                String shape = "[A-Z][a-z]{2} [A-Z][a-z]{2} \\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{6} \\d{4} UTC";
                assertThat(rs.getString(1)).matches(shape);
                assertThat(rs.getString(2)).matches(shape);
            }
        }
    }

    private static Instant transactionStart(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT now()")) {
            rs.next();
            return rs.getObject(1, OffsetDateTime.class).toInstant();
        }
    }
}
