package org.raidb.controller.determinism;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.raidb.test.MariaDbServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * The MariaDB literals mean what the calls meant. {@code SET timestamp} pins MariaDB's statement
 * time to the controller's, so its own NOW() can be compared with the literal.
 */
class DeterministicLiteralsMariaDbIT {
    private static final String DATABASE = "raidb_determinism_test";

    /** Calls that follow the session's pinned timestamp. */
    private static final String[] STATEMENT_CALLS = {
        "NOW()",
        "NOW(3)",
        "now(6)",
        "CURRENT_TIMESTAMP",
        "CURRENT_TIMESTAMP()",
        "CURRENT_TIMESTAMP(2)",
        "LOCALTIME",
        "LOCALTIME(1)",
        "LOCALTIMESTAMP()",
        "LOCALTIMESTAMP(4)",
        "CURDATE()",
        "CURRENT_DATE",
        "CURRENT_DATE()",
        "CURTIME()",
        "CURTIME(5)",
        "CURRENT_TIME",
        "CURRENT_TIME(6)",
        "UTC_TIMESTAMP()",
        "UTC_TIMESTAMP(3)",
        "UTC_TIMESTAMP",
        "UTC_DATE()",
        "UTC_DATE",
        "UTC_TIME()",
        "UTC_TIME(2)",
        "UNIX_TIMESTAMP()",
    };

    /**
     * Calls MariaDB decides by itself: only the type can be compared. Not UUID(): since 10.10 it
     * returns the UUID type, which MySQL and older MariaDB lack, so it becomes a string literal; the
     * insert test shows it stores the same into UUID and CHAR(36) columns.
     */
    private static final String[] OTHER_CALLS = {"SYSDATE()", "SYSDATE(6)", "RAND()"};

    @BeforeAll
    static void database() throws SQLException {
        Assumptions.assumeTrue(
                PostgresClusterExtension.mariaDbAvailable(), "no MariaDB answers on 127.0.0.1:3306 as root");
        MariaDbServer.recreateDatabase(DATABASE);
    }

    @AfterAll
    static void dropDatabase() throws SQLException {
        if (PostgresClusterExtension.mariaDbAvailable()) {
            MariaDbServer.dropDatabase(DATABASE);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"+00:00", "+01:00", "-03:30"})
    void literalsEqualWhatMariaDbComputesAtTheSameStatementTime(String timeZone) throws SQLException {
        Instant statementTime = Instant.parse("2026-11-22T23:59:59.654321Z");
        StatementClock clock = new StatementClock(
                statementTime, statementTime, Clock.systemUTC(), new SplittableRandom(1), ZoneId.of(timeZone));
        try (Connection c = MariaDbServer.connect(DATABASE);
                Statement s = c.createStatement()) {
            s.execute("SET time_zone = '" + timeZone + "'");
            s.execute("SET timestamp = " + statementTime.getEpochSecond() + "."
                    + String.format("%06d", statementTime.getNano() / 1000));
            for (String call : STATEMENT_CALLS) {
                String literal = DeterministicRewriter.rewrite(call, SqlDialect.MARIADB, clock);
                try (ResultSet rs = s.executeQuery("SELECT " + call + " = " + literal + ", " + call + ", " + literal)) {
                    rs.next();
                    assertThat(rs.getBoolean(1))
                            .as("%s = %s at %s", call, literal, timeZone)
                            .isTrue();
                    assertSameType(rs.getMetaData(), call, literal);
                }
            }
        }
    }

    @Test
    void otherCallsKeepTheirType() throws SQLException {
        try (Connection c = MariaDbServer.connect(DATABASE);
                Statement s = c.createStatement()) {
            for (String call : OTHER_CALLS) {
                String literal = DeterministicRewriter.rewrite(call, SqlDialect.MARIADB, StatementClock.now(null));
                try (ResultSet rs = s.executeQuery("SELECT " + call + ", " + literal)) {
                    rs.next();
                    ResultSetMetaData meta = rs.getMetaData();
                    assertThat(meta.getColumnTypeName(2))
                            .as("type of %s", literal)
                            .isEqualTo(meta.getColumnTypeName(1));
                }
            }
        }
    }

    @Test
    void rewrittenInsertStoresTheControllersValues() throws SQLException {
        StatementClock clock = FixedStatementClock.utc();
        String insert = DeterministicRewriter.rewrite(
                "INSERT INTO det_values VALUES (NOW(6), NOW(), SYSDATE(6), CURDATE(), CURTIME(3), "
                        + "UTC_TIMESTAMP(), UNIX_TIMESTAMP(), RAND(), RAND(), UUID(), UUID(), RAND(42), ?)",
                SqlDialect.MARIADB,
                clock);
        try (Connection c = MariaDbServer.connect(DATABASE);
                Statement s = c.createStatement()) {
            s.execute("SET time_zone = '+00:00'");
            s.execute(
                    "CREATE TABLE det_values (n6 DATETIME(6), n0 DATETIME, sd DATETIME(6), d DATE, t TIME(3), u DATETIME, "
                            + "epoch BIGINT, r1 DOUBLE, r2 DOUBLE, id CHAR(36), typed UUID, seeded DOUBLE, p INT)");
            try (PreparedStatement ps = c.prepareStatement(insert)) {
                ps.setInt(1, 7);
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            try (ResultSet rs = s.executeQuery("SELECT * FROM det_values")) {
                rs.next();
                LocalDateTime statement = LocalDateTime.ofInstant(FixedStatementClock.STATEMENT_TIME, ZoneOffset.UTC);
                assertThat(rs.getObject("n6", LocalDateTime.class)).isEqualTo(statement);
                assertThat(rs.getObject("n0", LocalDateTime.class))
                        .isEqualTo(LocalDateTime.parse("2026-11-22T03:41:30"));
                assertThat(rs.getObject("sd", LocalDateTime.class))
                        .isEqualTo(LocalDateTime.ofInstant(FixedStatementClock.CLOCK_NOW, ZoneOffset.UTC));
                assertThat(rs.getObject("d", LocalDate.class)).isEqualTo(LocalDate.of(2026, 11, 22));
                assertThat(rs.getObject("t", LocalTime.class)).isEqualTo(LocalTime.parse("03:41:30.987"));
                assertThat(rs.getLong("epoch")).isEqualTo(FixedStatementClock.STATEMENT_TIME.getEpochSecond());
                assertThat(rs.getDouble("r1")).isEqualTo(clock.random(0));
                assertThat(rs.getDouble("r2")).isEqualTo(clock.random(1));
                assertThat(rs.getString("id")).isEqualTo(clock.uuid(0).toString());
                assertThat(rs.getString("typed")).isEqualTo(clock.uuid(1).toString());
                assertThat(rs.getInt("p")).isEqualTo(7);
            }
            s.execute("DROP TABLE det_values");
        }
    }

    private static void assertSameType(ResultSetMetaData meta, String call, String literal) throws SQLException {
        assertThat(meta.getColumnTypeName(3))
                .as("type of %s for %s", literal, call)
                .isEqualTo(meta.getColumnTypeName(2));
        assertThat(meta.getScale(3))
                .as("fractional digits of %s for %s", literal, call)
                .isEqualTo(meta.getScale(2));
    }
}
