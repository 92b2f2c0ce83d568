package org.raidb.controller.it.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.test.PostgresClusterExtension;

/**
 * Session settings as Flyway and pools send them: {@code SELECT set_config(…, false)} is a setting
 * (before, a call that might write any table: in a transaction it held every other writer back, and
 * Flyway, which inserts its history row from a second connection on the same thread, waited out the
 * lock timeout and failed with 55P03); {@code RESET name} undoes that one parameter only (before, the
 * session's other settings were lost on the next connection it borrowed). Reads go round robin over
 * three backends, so each setting is seen on several backend connections.
 */
class SessionSettingsIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static final Duration HANG_GUARD = Duration.ofMinutes(2);

    @BeforeEach
    void freshDatabases() {
        pg.cluster().recreateDatabases();
    }

    @Test
    void setConfigInAnOpenTransactionLeavesOtherWritersAlone() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE history (id int PRIMARY KEY)");
            }
            try (Connection migration = raidb.connect();
                    Connection history = raidb.connect();
                    PreparedStatement set = migration.prepareStatement("SELECT set_config('search_path', ?, false)")) {
                migration.setAutoCommit(false);
                set.setString(1, "public");
                try (ResultSet rs = set.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo("public");
                }
                assertTimeoutPreemptively(HANG_GUARD, () -> {
                    try (Statement st = history.createStatement()) {
                        assertThat(st.executeUpdate("INSERT INTO history VALUES (1)"))
                                .isEqualTo(1);
                    }
                });
                migration.commit();
            }
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertIdentical(pg.cluster().servers());
    }

    @Test
    void setConfigWithAParameterHoldsOnEveryConnectionTheSessionBorrows() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA other");
            try (PreparedStatement set = c.prepareStatement("SELECT set_config('search_path', ?, false)")) {
                set.setString(1, "other, public");
                set.executeQuery().close();
            }
            assertThat(showSixTimes(st, "SHOW search_path")).containsOnly("other, public");
            // Nor does it leak through the pool to another session (before, it ran as a write and stayed).
            try (Connection other = raidb.connect();
                    Statement os = other.createStatement()) {
                assertThat(showSixTimes(os, "SHOW search_path")).containsOnly("\"$user\", public");
            }
        }
    }

    @Test
    void resetOfOneParameterKeepsTheOthers() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("SET search_path TO other, public");
            st.execute("SET statement_timeout = '5s'");
            st.execute("RESET statement_timeout");
            assertThat(showSixTimes(st, "SHOW search_path")).containsOnly("other, public");
            assertThat(showSixTimes(st, "SHOW statement_timeout")).containsOnly("0");
            st.execute("RESET ALL");
            assertThat(showSixTimes(st, "SHOW search_path")).containsOnly("\"$user\", public");
        }
    }

    /**
     * A request-scoped search path or tenant id set at every request: the session replays the last value
     * of each parameter, not every SET it ever sent, and a session setting ever new parameters is stopped
     * with 54000 and goes on.
     */
    @Test
    void aParameterSetAtEveryRequestIsReplayedOnceAndEndlessNewOnesAreRefused() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA other");
            st.execute("CREATE TABLE public.t (id int PRIMARY KEY)");
            st.execute("CREATE TABLE other.t (id int PRIMARY KEY)");
            for (int i = 0; i < 1_000; i++) {
                st.execute(i % 2 == 0 ? "SET search_path TO other, public" : "SET search_path TO public");
                st.execute("SELECT set_config('app.request', '" + i + "', false)");
            }
            st.executeUpdate("INSERT INTO t VALUES (1)"); // the last search path: public
            assertThat(showSixTimes(st, "SHOW app.request")).containsOnly("999");
            assertThat(showSixTimes(st, "SHOW search_path")).containsOnly("public");
            SQLException refused = null;
            for (int i = 0; i < 1_000 && refused == null; i++) {
                try {
                    st.execute("SET app.p" + i + " = 'x'");
                } catch (SQLException e) {
                    refused = e;
                }
            }
            assertThat((Throwable) refused)
                    .as("a session setting ever new parameters")
                    .isNotNull();
            assertThat(refused.getSQLState()).isEqualTo("54000");
            assertThat(refused.getMessage()).contains("RESET ALL");
            st.execute("RESET ALL");
            st.execute("SET search_path TO other, public");
            assertThat(st.executeUpdate("INSERT INTO t VALUES (2)")).isEqualTo(1);
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertRowsOnEach(pg.cluster().servers(), "SELECT id FROM public.t", "1|");
        ReplicaChecks.assertRowsOnEach(pg.cluster().servers(), "SELECT id FROM other.t", "2|");
        ReplicaChecks.assertIdentical(pg.cluster().servers());
    }

    @Test
    void aDateStyleOrEncodingTheBackendConnectionsCannotTakeIsRefusedAndDisablesNothing() throws Exception {
        try (ControllerFixture raidb =
                ControllerFixture.start(pg.controllerConfig("shop").controllerAttribute("pgPort", 0), "shop")) {
            Properties p = new Properties();
            p.setProperty("user", ControllerFixture.USER);
            p.setProperty("password", ControllerFixture.PASSWORD);
            p.setProperty("sslmode", "disable");
            try (Connection driver = raidb.connect();
                    Connection frontEnd = DriverManager.getConnection(
                            "jdbc:postgresql://127.0.0.1:" + raidb.controller().pgPort() + "/shop", p)) {
                for (Connection c : List.of(driver, frontEnd)) {
                    try (Statement st = c.createStatement()) {
                        // Run on the backends, each would make the controller's pgjdbc drop its connection: every
                        // backend would look failed at once and be disabled.
                        for (String refused : List.of(
                                "SET DateStyle = 'German'",
                                "SET datestyle TO sql, dmy",
                                "SELECT set_config('DateStyle', 'Postgres', false)",
                                "SET client_encoding = 'LATIN1'")) {
                            assertThatThrownBy(() -> st.execute(refused))
                                    .as(refused)
                                    .isInstanceOf(SQLException.class)
                                    .satisfies(e -> assertThat(((SQLException) e).getSQLState())
                                            .isEqualTo("0A000"));
                        }
                        st.execute("SET DateStyle = 'ISO, DMY'");
                        try (ResultSet rs = st.executeQuery("SELECT DATE '2026-11-28'::text")) {
                            assertThat(rs.next()).isTrue();
                            assertThat(rs.getString(1)).isEqualTo("2026-11-28");
                        }
                    }
                }
            }
            raidb.assertEveryBackendEnabled();
        }
    }

    private static List<String> showSixTimes(Statement st, String show) throws SQLException {
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            try (ResultSet rs = st.executeQuery(show)) {
                rs.next();
                seen.add(rs.getString(1));
            }
        }
        return seen;
    }
}
