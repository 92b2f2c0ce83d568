package org.raidb.controller.it.failover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.session.RecentOutcomes;
import org.raidb.driver.RaidbConnection;
import org.raidb.test.PostgresClusterExtension;

/**
 * A driver connection moves to another controller when its controller dies (issue 16 item 5). Two controllers
 * that are not a group serve virtual database "shop" from the same single PostgreSQL database, so that what
 * either writes the other sees; the URL lists A then B, so every connection starts on A. A dies as a killed
 * process looks to its clients ({@code Controller.dropClients()}: listener and client sockets closed, no
 * answer). Where a controller group would tell B of the writes A ran, the test records A's outcome in B's
 * {@link RecentOutcomes} itself, from the hook a session calls between applying a write and answering it.
 */
class ControllerFailoverIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(1).database("shop");

    private ControllerFixture a;
    private ControllerFixture b;

    @BeforeEach
    void twoControllersOnOneDatabase() throws Exception {
        pg.cluster().recreateDatabases();
        a = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
        b = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
        try (Connection c = b.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)");
            st.execute("CREATE TABLE event (note text NOT NULL)");
            st.execute("INSERT INTO account SELECT g, 100 FROM generate_series(1, 50) g");
        }
    }

    @AfterEach
    void stop() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
    }

    private String url(String extra) {
        return "jdbc:raidb://127.0.0.1:" + a.controller().port() + ",127.0.0.1:"
                + b.controller().port() + "/shop?connectTimeout=5" + extra;
    }

    private Connection connect() throws SQLException {
        Connection c = DriverManager.getConnection(url(""), ControllerFixture.USER, ControllerFixture.PASSWORD);
        assertThat(port(c)).as("connected to A first").isEqualTo(a.controller().port());
        return c;
    }

    private static int port(Connection c) throws SQLException {
        return c.unwrap(RaidbConnection.class).controller().port();
    }

    /** What the database holds, read straight from PostgreSQL. */
    private static long count(String sql) throws SQLException {
        try (Connection direct = pg.server(0).connect();
                Statement st = direct.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void anAutoCommitStatementInFlightIsAnsweredByTheOtherControllerAndTheNextStatementToo() throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement();
                Connection idle = connect();
                Statement idleSt = idle.createStatement()) {
            CompletableFuture<Long> inFlight = CompletableFuture.supplyAsync(() -> {
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM account, pg_sleep(0.5)")) {
                    rs.next();
                    return rs.getLong(1);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> count("SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(0.5)%'"
                                    + " AND state = 'active' AND pid <> pg_backend_pid()")
                            == 1);
            long killed = System.nanoTime();
            a.controller().dropClients();
            try (ResultSet rs = idleSt.executeQuery("SELECT 1")) {
                assertThat(rs.next()).isTrue();
            }
            long nextStatementMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
            assertThat(inFlight.get(30, TimeUnit.SECONDS)).isEqualTo(50);
            long inFlightMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
            System.out.printf(
                    "[failover] kill of controller A to the next successful statement of an idle client: %d ms;"
                            + " to the answer of a 0.5 s query in flight (run again on B): %d ms%n",
                    nextStatementMillis, inFlightMillis);
            assertThat(port(c)).isEqualTo(b.controller().port());
            assertThat(port(idle)).isEqualTo(b.controller().port());
            assertThat(idleSt.executeUpdate("UPDATE account SET balance = 7 WHERE id = 1"))
                    .isEqualTo(1);
        }
        assertThat(count("SELECT balance FROM account WHERE id = 1")).isEqualTo(7);
    }

    @Test
    void aTransactionIsReplayedOnTheOtherControllerAndCommitsExactlyOnce() throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            st.execute("SET application_name = 'failover-test'");
            try (ResultSet rs = st.executeQuery("SELECT balance FROM account WHERE id BETWEEN 1 AND 20 ORDER BY id")) {
                int n = 0;
                while (rs.next()) {
                    assertThat(rs.getInt(1)).isEqualTo(100);
                    n++;
                }
                assertThat(n).isEqualTo(20);
            }
            assertThat(st.executeUpdate("UPDATE account SET balance = balance - 30 WHERE id = 1"))
                    .isEqualTo(1);
            c.setSavepoint("half");
            assertThat(st.executeUpdate("UPDATE account SET balance = balance + 30 WHERE id = 2"))
                    .isEqualTo(1);
            assertThat(st.executeUpdate("INSERT INTO event VALUES ('transfer')"))
                    .isEqualTo(1);

            a.controller().dropClients();

            // The next statement finds A gone: the driver replays the five requests above on B, then runs it.
            try (ResultSet rs = st.executeQuery("SELECT balance FROM account WHERE id IN (1, 2) ORDER BY id")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(70);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(130);
            }
            assertThat(port(c)).isEqualTo(b.controller().port());
            try (ResultSet rs = st.executeQuery("SHOW application_name")) {
                rs.next();
                assertThat(rs.getString(1)).as("the SET was replayed").isEqualTo("failover-test");
            }
            assertThat(c.getAutoCommit()).isFalse();
            c.commit();
        }
        assertThat(count("SELECT count(*) FROM event WHERE note = 'transfer'")).isEqualTo(1);
        assertThat(count("SELECT balance FROM account WHERE id = 1")).isEqualTo(70);
        assertThat(count("SELECT balance FROM account WHERE id = 2")).isEqualTo(130);
        assertThat(count("SELECT sum(balance) FROM account")).isEqualTo(5000);
    }

    @Test
    void aTransactionBegunAsSqlWithABatchIsReplayedToo() throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement();
                PreparedStatement insert = c.prepareStatement("INSERT INTO event VALUES (?)")) {
            st.execute("BEGIN");
            for (String note : List.of("one", "two", "three")) {
                insert.setString(1, note);
                insert.addBatch();
            }
            assertThat(insert.executeBatch()).containsExactly(1, 1, 1);
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM event")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(3);
            }

            a.controller().dropClients();

            assertThat(st.executeUpdate("DELETE FROM event WHERE note = 'two'")).isEqualTo(1);
            st.execute("COMMIT");
            assertThat(port(c)).isEqualTo(b.controller().port());
        }
        assertThat(count("SELECT count(*) FROM event")).isEqualTo(2);
        assertThat(count("SELECT count(*) FROM event WHERE note = 'two'")).isZero();
    }

    @Test
    void aTransactionWhoseReadsChangedIsLostWith40001AndTheConnectionGoesOn() throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            try (ResultSet rs = st.executeQuery("SELECT balance FROM account WHERE id = 3")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(100);
            }
            assertThat(st.executeUpdate("UPDATE account SET balance = balance - 10 WHERE id = 4"))
                    .isEqualTo(1);
            try (Connection other = b.connect();
                    Statement o = other.createStatement()) {
                assertThat(o.executeUpdate("UPDATE account SET balance = 55 WHERE id = 3"))
                        .isEqualTo(1);
            }

            a.controller().dropClients();

            assertThatThrownBy(() -> st.executeUpdate("UPDATE account SET balance = balance + 10 WHERE id = 5"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"))
                    .hasMessageContaining("transaction was lost when controller 127.0.0.1:"
                            + a.controller().port())
                    .hasMessageContaining("SELECT balance FROM account WHERE id = 3")
                    .hasMessageContaining("retry the transaction");
            c.rollback();
            assertThat(port(c)).isEqualTo(b.controller().port());
            // The retry, on B, reads what is there now.
            try (ResultSet rs = st.executeQuery("SELECT balance FROM account WHERE id = 3")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(55);
            }
            assertThat(st.executeUpdate("UPDATE account SET balance = balance - 10 WHERE id = 4"))
                    .isEqualTo(1);
            c.commit();
        }
        assertThat(count("SELECT balance FROM account WHERE id = 4")).isEqualTo(90);
        assertThat(count("SELECT balance FROM account WHERE id = 5")).isEqualTo(100);
    }

    @Test
    void aWriteSentAgainWithItsRequestIdIsAnsweredFromTheRememberedOutcomeNotRunTwice() throws Exception {
        RecentOutcomes bOutcomes = b.controller().sessions().recentOutcomes("shop");
        a.controller().sessions().answerHook((clientSessionId, requestId, outcome) -> {
            bOutcomes.record(clientSessionId, requestId, outcome); // what a controller group does
            a.controller().dropClients(); // A dies after the write, before its answer
        });
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            assertThat(st.executeUpdate("INSERT INTO event VALUES ('once')")).isEqualTo(1);
            assertThat(port(c)).isEqualTo(b.controller().port());
            assertThat(bOutcomes.size()).isEqualTo(1);
            assertThat(st.executeUpdate("INSERT INTO event VALUES ('after')")).isEqualTo(1);
        }
        assertThat(count("SELECT count(*) FROM event WHERE note = 'once'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM event WHERE note = 'after'")).isEqualTo(1);
    }

    @Test
    void aControllerRemembersFinalAnswersOnlyNotReadsNorStatementsOfAnOpenTransaction() throws Exception {
        RecentOutcomes aOutcomes = a.controller().sessions().recentOutcomes("shop");
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            assertThat(st.executeUpdate("INSERT INTO event VALUES ('auto-commit')"))
                    .isEqualTo(1);
            assertThat(aOutcomes.size()).isEqualTo(1);
            st.executeQuery("SELECT * FROM event").close();
            st.executeQuery("SELECT count(*) FROM account").close();
            assertThat(aOutcomes.size()).as("reads").isEqualTo(1);
            c.setAutoCommit(false); // answered OK between transactions: remembered
            assertThat(aOutcomes.size()).isEqualTo(2);
            assertThat(st.executeUpdate("INSERT INTO event VALUES ('in a transaction')"))
                    .isEqualTo(1);
            assertThat(aOutcomes.size())
                    .as("a statement of an open transaction")
                    .isEqualTo(2);
            c.commit();
            assertThat(aOutcomes.size()).isEqualTo(3);
        }
        try (Connection withoutFailover = DriverManager.getConnection(
                        url("&failover=false"), ControllerFixture.USER, ControllerFixture.PASSWORD);
                Statement st = withoutFailover.createStatement()) {
            assertThat(st.executeUpdate("INSERT INTO event VALUES ('untagged')"))
                    .isEqualTo(1);
        }
        assertThat(aOutcomes.size()).as("requests without ids").isEqualTo(3);
    }

    @Test
    void aCommitInFlightThatTheFailedControllerAppliedIsNotReplayed() throws Exception {
        RecentOutcomes bOutcomes = b.controller().sessions().recentOutcomes("shop");
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            assertThat(st.executeUpdate("INSERT INTO event VALUES ('committed once')"))
                    .isEqualTo(1);
            a.controller().sessions().answerHook((clientSessionId, requestId, outcome) -> {
                bOutcomes.record(clientSessionId, requestId, outcome);
                a.controller().dropClients();
            });
            c.commit();
            assertThat(port(c)).isEqualTo(b.controller().port());
            assertThat(st.executeUpdate("INSERT INTO event VALUES ('next transaction')"))
                    .isEqualTo(1);
            c.rollback();
        }
        assertThat(count("SELECT count(*) FROM event WHERE note = 'committed once'"))
                .isEqualTo(1);
        assertThat(count("SELECT count(*) FROM event WHERE note = 'next transaction'"))
                .isZero();
    }

    @Test
    void aResultSetBeingReadLosesItsCursorButTheConnectionGoesOn() throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.setFetchSize(10);
            ResultSet rs = st.executeQuery("SELECT id FROM account ORDER BY id");
            for (int i = 1; i <= 10; i++) {
                assertThat(rs.next()).isTrue(); // the first batch
            }
            a.controller().dropClients();
            assertThatThrownBy(rs::next)
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08006"))
                    .hasMessageContaining("run the query again");
            assertThat(port(c)).isEqualTo(b.controller().port());
            try (ResultSet again = st.executeQuery("SELECT count(*) FROM account")) {
                again.next();
                assertThat(again.getInt(1)).isEqualTo(50);
            }
        }
    }

    @Test
    void inATransactionAResultSetBeingReadLosesTheTransaction() throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.setFetchSize(10);
            ResultSet rs = st.executeQuery("SELECT id FROM account ORDER BY id");
            assertThat(rs.next()).isTrue();
            a.controller().dropClients();
            try (Statement other = c.createStatement()) {
                assertThatThrownBy(() -> other.executeUpdate("UPDATE account SET balance = 0 WHERE id = 9"))
                        .isInstanceOf(SQLException.class)
                        .satisfies(e ->
                                assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"))
                        .hasMessageContaining("was still being read");
            }
            c.rollback();
            assertThat(st.executeUpdate("UPDATE account SET balance = 1 WHERE id = 9"))
                    .isEqualTo(1);
            c.commit();
        }
        assertThat(count("SELECT balance FROM account WHERE id = 9")).isEqualTo(1);
    }

    @Test
    void withFailoverOffTheConnectionFailsWith08006() throws Exception {
        try (Connection c = DriverManager.getConnection(
                        url("&failover=false"), ControllerFixture.USER, ControllerFixture.PASSWORD);
                Statement st = c.createStatement()) {
            a.controller().dropClients();
            assertThatThrownBy(() -> st.executeQuery("SELECT 1"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08006"));
            assertThat(c.isClosed()).isTrue();
        }
    }

    @Test
    void whenEveryControllerIsDeadTheClientGets08001NamingEachAddressAndWhy() throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            a.controller().dropClients();
            b.controller().dropClients();
            assertThatThrownBy(() -> st.executeQuery("SELECT 1"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"))
                    .hasMessageContaining("127.0.0.1:" + a.controller().port() + ": failed")
                    .hasMessageContaining("127.0.0.1:" + b.controller().port() + ": connection refused")
                    .hasMessageContaining("127.0.0.1:" + a.controller().port() + ": connection refused");
            assertThat(c.isClosed()).isTrue();
        }
    }

    @Test
    void aUrlListingOnlyDeadControllersIs08001NamingEachAddress() throws Exception {
        int p1 = closedPort();
        int p2 = closedPort();
        String url = "jdbc:raidb://127.0.0.1:" + p1 + ",127.0.0.1:" + p2 + "/shop?connectTimeout=2";
        assertThatThrownBy(() -> DriverManager.getConnection(url, ControllerFixture.USER, ControllerFixture.PASSWORD))
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"))
                .hasMessageContaining("127.0.0.1:" + p1 + ": connection refused")
                .hasMessageContaining("127.0.0.1:" + p2 + ": connection refused");
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
