package org.raidb.controller.it.determinism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.raidb.controller.it.support.ReplicaChecks.rowsOn;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.test.PostgresClusterExtension;

/** now(), random(), serial keys and sequences in writes leave identical rows on every backend. */
class DeterministicWritesIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static void assertSameOnEveryBackend(String query) throws SQLException {
        ReplicaChecks.assertSameOnEvery(
                pg.cluster().servers().stream()
                        .map(s -> (ReplicaChecks.Backend) s::connect)
                        .toList(),
                query);
    }

    /** One client's work on its own connection through the controller. */
    @FunctionalInterface
    private interface Client {
        void run(Connection c, int client) throws SQLException;
    }

    /** Runs {@code clients} clients at once, each on its own connection, and waits for all. */
    private static void concurrently(ControllerFixture raidb, int clients, Client work) throws Exception {
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (int t = 0; t < clients; t++) {
            int client = t;
            running.add(CompletableFuture.runAsync(() -> {
                try (Connection c = raidb.connect()) {
                    work.run(c, client);
                } catch (SQLException e) {
                    throw new RuntimeException(e);
                }
            }));
        }
        CompletableFuture.allOf(running.toArray(new CompletableFuture[0])).get();
    }

    @Test
    void timeRandomAndUuidFunctionsBecomeTheSameLiteralsEverywhere() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE events (id int PRIMARY KEY, at timestamptz, day date, t time, r double precision,"
                    + " u uuid, local timestamp)");
            st.executeUpdate(
                    "INSERT INTO events VALUES (1, now(), current_date, localtime, random(), gen_random_uuid(), localtimestamp)");
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO events VALUES (?, clock_timestamp(), CURRENT_DATE, current_time, random() * ?, gen_random_uuid(), now())")) {
                for (int i = 2; i <= 20; i++) {
                    ps.setInt(1, i);
                    ps.setInt(2, i);
                    ps.executeUpdate();
                }
            }
            c.setAutoCommit(false);
            st.executeUpdate("INSERT INTO events (id, at, r) VALUES (21, now(), random())");
            st.executeUpdate("UPDATE events SET at = now(), r = random() WHERE id = 1");
            c.commit();
            c.setAutoCommit(true);
            try (ResultSet rs =
                    st.executeQuery("SELECT count(DISTINCT r), count(DISTINCT u) FROM events WHERE id <= 20")) {
                rs.next();
                assertThat(rs.getInt(1))
                        .as("random() still random between rows")
                        .isEqualTo(20);
                assertThat(rs.getInt(2)).isEqualTo(20);
            }
            try (ResultSet rs = st.executeQuery(
                    "SELECT (SELECT at FROM events WHERE id = 1) = (SELECT at FROM events WHERE id = 21)")) {
                rs.next();
                assertThat(rs.getBoolean(1))
                        .as("now() is the transaction's start for every statement of it")
                        .isTrue();
            }
        }
        assertSameOnEveryBackend("SELECT * FROM events ORDER BY id");
    }

    @Test
    void serialKeysAndSequencesMatchUnderConcurrency() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE tickets (id serial PRIMARY KEY, holder text, number bigint)");
                st.execute("CREATE SEQUENCE ticket_numbers START 1000");
            }
            concurrently(raidb, 8, (c, client) -> {
                try (PreparedStatement insert = c.prepareStatement(
                                "INSERT INTO tickets (holder, number) VALUES (?, nextval('ticket_numbers'))");
                        PreparedStatement serialOnly = c.prepareStatement("INSERT INTO tickets (holder) VALUES (?)");
                        Statement st = c.createStatement()) {
                    for (int i = 0; i < 40; i++) {
                        PreparedStatement ps = i % 2 == 0 ? insert : serialOnly;
                        ps.setString(1, "client" + client + "-" + i);
                        ps.executeUpdate();
                        if (i % 10 == 0) {
                            try (ResultSet rs = st.executeQuery("SELECT nextval('ticket_numbers')")) {
                                rs.next();
                            }
                        }
                    }
                }
            });
            Map<String, Map<String, String>> sums =
                    ControllerFixture.checksums(pg.cluster().servers());
            assertThat(sums.values()).allSatisfy(s -> assertThat(s).isEqualTo(sums.get("pg1")));
            assertSameOnEveryBackend("SELECT last_value FROM ticket_numbers");
            assertSameOnEveryBackend("SELECT id, holder, number FROM tickets ORDER BY id");
            assertThat(rowsOn(pg.server(0), "SELECT count(*) FROM tickets")).containsExactly("320|");
        }
    }

    @Test
    void identityColumnsAndSetvalLeaveTheSameRowsAndSequenceStateEverywhere() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                st.execute(
                        "CREATE TABLE badges (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, holder text NOT NULL)");
                st.execute(
                        "CREATE TABLE visits (id bigint GENERATED BY DEFAULT AS IDENTITY (START WITH 100 INCREMENT BY 5) "
                                + "PRIMARY KEY, who text NOT NULL, token bigint)");
                st.execute("CREATE SEQUENCE tokens");
            }
            concurrently(raidb, 8, (c, client) -> {
                try (PreparedStatement badge = c.prepareStatement("INSERT INTO badges (holder) VALUES (?)");
                        PreparedStatement visit =
                                c.prepareStatement("INSERT INTO visits (who, token) VALUES (?, nextval('tokens'))");
                        Statement st = c.createStatement()) {
                    for (int i = 0; i < 30; i++) {
                        badge.setString(1, "client" + client + "-" + i);
                        badge.executeUpdate();
                        visit.setString(1, "client" + client + "-" + i);
                        visit.executeUpdate();
                        if (i % 10 == 5) {
                            // Jumps of the sequences, racing the inserts that draw from them.
                            st.executeQuery("SELECT setval('tokens', nextval('tokens') + 1000)")
                                    .close();
                            st.executeQuery(
                                            "SELECT setval(pg_get_serial_sequence('visits', 'id'), (SELECT max(id) FROM visits) + 50)")
                                    .close();
                        }
                    }
                }
            });
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                st.execute("ALTER TABLE badges ALTER COLUMN id RESTART WITH 5000");
                st.executeQuery("SELECT setval('tokens', 7, false)").close();
                st.executeUpdate("INSERT INTO badges (holder) VALUES ('after restart')");
                st.executeUpdate("INSERT INTO visits (who, token) VALUES ('after setval', nextval('tokens'))");
            }
        }
        Map<String, Map<String, String>> sums =
                ControllerFixture.checksums(pg.cluster().servers());
        assertThat(sums.values()).allSatisfy(s -> assertThat(s).isEqualTo(sums.get("pg1")));
        assertSameOnEveryBackend("SELECT id, holder FROM badges ORDER BY id");
        assertSameOnEveryBackend("SELECT id, who, token FROM visits ORDER BY id");
        assertSameOnEveryBackend(
                "SELECT sequencename, start_value, increment_by, last_value FROM pg_sequences ORDER BY 1");
        assertSameOnEveryBackend("SELECT last_value, is_called FROM tokens");
        assertThat(rowsOn(pg.server(0), "SELECT count(*), count(DISTINCT id) FROM badges"))
                .containsExactly("241|241|");
        assertThat(rowsOn(pg.server(0), "SELECT id FROM badges WHERE holder = 'after restart'"))
                .containsExactly("5000|");
        assertThat(rowsOn(pg.server(0), "SELECT token FROM visits WHERE who = 'after setval'"))
                .containsExactly("7|");
    }

    @Test
    void updateWithLimitButNoOrderIsRefusedAndTheSessionGoesOn() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE queue (id int PRIMARY KEY, taken boolean DEFAULT false)");
            st.executeUpdate("INSERT INTO queue (id) SELECT generate_series(1, 5)");
            assertThatThrownBy(() -> st.executeUpdate("UPDATE queue SET taken = true LIMIT 1"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("ORDER BY")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
            assertThatThrownBy(() -> st.executeUpdate("DELETE FROM queue LIMIT 2"))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM queue WHERE NOT taken")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(5);
            }
        }
    }
}
