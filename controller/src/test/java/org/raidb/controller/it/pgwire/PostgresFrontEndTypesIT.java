package org.raidb.controller.it.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.PGConnection;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.test.PostgresClusterExtension;

/**
 * What pgjdbc's own test suite (module pgjdbc-suite) found missing in the PostgreSQL front end, shown with
 * pgjdbc over three backends: arrays in the binary format both ways, timestamptz written in the client's
 * TimeZone (startup packet, SET, RESET), infinity and dates before Christ.
 */
class PostgresFrontEndTypesIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static ControllerFixture raidb;

    @BeforeAll
    static void start() throws Exception {
        raidb = ControllerFixture.start(pg.controllerConfig("shop").controllerAttribute("pgPort", 0), "shop");
    }

    @AfterAll
    static void stop() {
        if (raidb != null) {
            raidb.close();
        }
    }

    private static Connection pgjdbc(boolean binary, String options) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", ControllerFixture.USER);
        p.setProperty("password", ControllerFixture.PASSWORD);
        p.setProperty("sslmode", "disable");
        if (binary) {
            p.setProperty("prepareThreshold", "-1"); // named statements, and so binary results, from the start
            // int4[], text[], int8[], float8[] by OID: the arrays pgjdbc 42.7 decodes from binary
            p.setProperty("binaryTransferEnable", "1007,1009,1016,1022");
        }
        if (options != null) {
            p.setProperty("options", options);
        }
        return DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + raidb.controller().pgPort() + "/shop", p);
    }

    @Test
    void arraysInTheBinaryFormatBothWays() throws Exception {
        try (Connection c = pgjdbc(true, null);
                Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS arr");
            st.execute("CREATE TABLE arr (id int PRIMARY KEY, ints int4[], grid int4[][], words text[], "
                    + "big int8[], nums numeric[], ats timestamptz[], days date[], flags bool[])");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO arr VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setInt(1, 1);
                ps.setArray(2, c.createArrayOf("int4", new Integer[] {1, null, -3}));
                ps.setArray(3, c.createArrayOf("int4", new Integer[][] {{1, 2}, {3, 4}}));
                ps.setArray(4, c.createArrayOf("text", new String[] {"a b", "quote\"d", "", null, "NULL"}));
                ps.setObject(5, new long[] {10_000_000_000L, -1}); // pgjdbc sends primitive arrays in binary
                ps.setArray(6, c.createArrayOf("numeric", new BigDecimal[] {new BigDecimal("12.50"), null}));
                ps.setArray(7, c.createArrayOf("timestamptz", new Object[] {"2024-03-01 12:00:00+02"}));
                ps.setArray(8, c.createArrayOf("date", new Object[] {"2024-02-29", "infinity"}));
                ps.setArray(9, c.createArrayOf("bool", new Boolean[] {true, false}));
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO arr (id, ints) VALUES (?, ?)")) {
                ps.setInt(1, 2);
                ps.setObject(2, new int[] {7, 8, 9}); // a binary int4[] parameter
                assertThat(ps.executeUpdate()).isEqualTo(1);
                ps.setInt(1, 3);
                ps.setObject(2, new int[0]);
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM arr WHERE id = ?")) {
                ps.setInt(1, 1);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat((Object[]) rs.getArray("ints").getArray()).containsExactly(1, null, -3);
                    Object[] grid = (Object[]) rs.getArray("grid").getArray();
                    assertThat((Object[]) grid[0]).containsExactly(1, 2);
                    assertThat((Object[]) grid[1]).containsExactly(3, 4);
                    assertThat((Object[]) rs.getArray("words").getArray())
                            .containsExactly("a b", "quote\"d", "", null, "NULL");
                    assertThat((Object[]) rs.getArray("big").getArray()).containsExactly(10_000_000_000L, -1L);
                    assertThat((Object[]) rs.getArray("nums").getArray())
                            .containsExactly(new BigDecimal("12.50"), null);
                    Object[] ats = (Object[]) rs.getArray("ats").getArray();
                    assertThat(((java.sql.Timestamp) ats[0]).toInstant())
                            .isEqualTo(OffsetDateTime.of(2024, 3, 1, 10, 0, 0, 0, ZoneOffset.UTC)
                                    .toInstant());
                    Array days = rs.getArray("days");
                    assertThat(((java.sql.Date) ((Object[]) days.getArray())[0]).toLocalDate())
                            .isEqualTo(LocalDate.of(2024, 2, 29));
                    assertThat((Object[]) rs.getArray("flags").getArray()).containsExactly(true, false);
                }
                ps.setInt(1, 2);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat((Object[]) rs.getArray("ints").getArray()).containsExactly(7, 8, 9);
                }
                ps.setInt(1, 3);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat((Object[]) rs.getArray("ints").getArray()).isEmpty();
                }
            }
            // The same values as text, from a plain statement: what the backends hold.
            try (ResultSet rs = st.executeQuery("SELECT ints::text, grid::text, words::text FROM arr WHERE id = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("{1,NULL,-3}");
                assertThat(rs.getString(2)).isEqualTo("{{1,2},{3,4}}");
                assertThat(rs.getString(3)).isEqualTo("{\"a b\",\"quote\\\"d\",\"\",NULL,\"NULL\"}");
            }
        }
        ReplicaChecks.assertIdentical(pg.cluster().servers());
    }

    @Test
    void timestamptzInTheClientsTimeZone() throws Exception {
        try (Connection c = pgjdbc(false, "-c TimeZone=Asia/Kolkata");
                Statement st = c.createStatement()) {
            assertThat(c.unwrap(PGConnection.class).getParameterStatus("TimeZone"))
                    .isEqualTo("Asia/Kolkata");
            st.execute("DROP TABLE IF EXISTS tz");
            st.execute("CREATE TABLE tz (id int PRIMARY KEY, at timestamptz)");
            // Text without an offset is read in the session's zone by every backend.
            st.executeUpdate("INSERT INTO tz VALUES (1, '2024-03-01 12:00:00')");
            assertThat(text(st)).isEqualTo("2024-03-01 12:00:00+05:30");

            st.execute("SET TIME ZONE 'America/New_York'");
            assertThat(c.unwrap(PGConnection.class).getParameterStatus("TimeZone"))
                    .isEqualTo("America/New_York");
            assertThat(text(st)).isEqualTo("2024-03-01 01:30:00-05");
            st.execute("SET timezone TO 'GMT+2'"); // POSIX: two hours west
            assertThat(text(st)).isEqualTo("2024-03-01 04:30:00-02");

            assertThatThrownBy(() -> st.execute("SET TIME ZONE 'Nowhere/Atlantis'"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"));
            assertThat(text(st)).isEqualTo("2024-03-01 04:30:00-02"); // unchanged, and the session goes on

            st.execute("RESET TIME ZONE");
            assertThat(c.unwrap(PGConnection.class).getParameterStatus("TimeZone"))
                    .isEqualTo("Asia/Kolkata");
            try (ResultSet rs = st.executeQuery("SELECT at FROM tz")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(1, OffsetDateTime.class).toInstant())
                        .isEqualTo(LocalDateTime.of(2024, 3, 1, 6, 30).toInstant(ZoneOffset.UTC));
            }
        }
        ReplicaChecks.assertIdentical(pg.cluster().servers());
    }

    @Test
    void infinityAndDatesBeforeChrist() throws Exception {
        for (boolean binary : new boolean[] {false, true}) {
            try (Connection c = pgjdbc(binary, null);
                    PreparedStatement ps = c.prepareStatement(
                            "SELECT 'infinity'::timestamp, '-infinity'::timestamptz, 'infinity'::date,"
                                    + " '0044-03-15 BC'::date, ?::timestamp")) {
                ps.setObject(1, LocalDateTime.MAX); // pgjdbc sends it as infinity
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getObject(1, LocalDateTime.class)).isEqualTo(LocalDateTime.MAX);
                    assertThat(rs.getObject(2, OffsetDateTime.class)).isEqualTo(OffsetDateTime.MIN);
                    assertThat(rs.getObject(3, LocalDate.class)).isEqualTo(LocalDate.MAX);
                    assertThat(rs.getObject(4, LocalDate.class)).isEqualTo(LocalDate.of(-43, 3, 15));
                    assertThat(rs.getObject(5, LocalDateTime.class)).isEqualTo(LocalDateTime.MAX);
                    if (!binary) {
                        assertThat(rs.getString(1)).isEqualTo("infinity");
                        assertThat(rs.getString(4)).isEqualTo("0044-03-15 BC");
                    }
                }
            }
        }
    }

    private static String text(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT at FROM tz WHERE id = 1")) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        }
    }
}
