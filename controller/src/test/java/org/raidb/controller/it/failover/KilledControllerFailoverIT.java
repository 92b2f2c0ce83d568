package org.raidb.controller.it.failover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ForkedController;
import org.raidb.driver.RaidbConnection;
import org.raidb.test.PostgresClusterExtension;

/**
 * Failover from a controller process killed with {@code kill -9} (SIGKILL: no shutdown hook; the OS closes its
 * client and backend sockets, and PostgreSQL rolls back what it had open) to an in-process controller on the
 * same PostgreSQL database. Prints the time from the kill to the next successful statement of each client.
 */
class KilledControllerFailoverIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(1).database("shop");

    @Test
    void clientsOfAKilledControllerGoOnWithTheOther() throws Exception {
        pg.cluster().recreateDatabases();
        try (ForkedController a = ForkedController.start(pg.controllerConfig("shop"), "shop", "256m");
                ControllerFixture b = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            String url =
                    a.url().replace("/shop", ",127.0.0.1:" + b.controller().port() + "/shop") + "?connectTimeout=5";
            try (Connection setup = b.connect();
                    Statement st = setup.createStatement()) {
                st.execute("CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)");
                st.execute("INSERT INTO account SELECT g, 100 FROM generate_series(1, 10) g");
            }
            try (Connection idle =
                            DriverManager.getConnection(url, ControllerFixture.USER, ControllerFixture.PASSWORD);
                    Connection inTransaction =
                            DriverManager.getConnection(url, ControllerFixture.USER, ControllerFixture.PASSWORD);
                    Connection busy =
                            DriverManager.getConnection(url, ControllerFixture.USER, ControllerFixture.PASSWORD);
                    Statement idleSt = idle.createStatement();
                    Statement txSt = inTransaction.createStatement();
                    Statement busySt = busy.createStatement()) {
                int aPort = port(idle);
                assertThat(aPort).isNotEqualTo(b.controller().port());
                inTransaction.setAutoCommit(false);
                try (ResultSet rs = txSt.executeQuery("SELECT sum(balance) FROM account")) {
                    rs.next();
                    assertThat(rs.getInt(1)).isEqualTo(1000);
                }
                assertThat(txSt.executeUpdate("UPDATE account SET balance = balance - 5 WHERE id = 1"))
                        .isEqualTo(1);
                CompletableFuture<Integer> inFlight = CompletableFuture.supplyAsync(() -> {
                    try (ResultSet rs = busySt.executeQuery("SELECT count(*) FROM account, pg_sleep(0.3)")) {
                        rs.next();
                        return rs.getInt(1);
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                await().atMost(Duration.ofSeconds(30)).until(() -> active("%pg_sleep(0.3)%") == 1);

                long killed = System.nanoTime();
                a.kill();
                long killMillis = millisSince(killed);
                try (ResultSet rs = idleSt.executeQuery("SELECT 1")) {
                    assertThat(rs.next()).isTrue();
                }
                long idleMillis = millisSince(killed);
                assertThat(txSt.executeUpdate("UPDATE account SET balance = balance + 5 WHERE id = 2"))
                        .isEqualTo(1);
                inTransaction.commit();
                long transactionMillis = millisSince(killed);
                assertThat(inFlight.get(30, TimeUnit.SECONDS)).isEqualTo(10);
                System.out.printf(
                        "[failover] kill -9 of controller A (the kill itself took %d ms) to the next successful"
                                + " statement of an idle client: %d ms; of a client in a transaction (replayed, then"
                                + " committed): %d ms; answer of a 0.3 s query in flight: %d ms after the kill%n",
                        killMillis, idleMillis, transactionMillis, millisSince(killed));
                assertThat(port(idle)).isEqualTo(b.controller().port());
                assertThat(port(inTransaction)).isEqualTo(b.controller().port());
                assertThat(port(busy)).isEqualTo(b.controller().port());
            }
            try (Connection direct = pg.server(0).connect();
                    Statement st = direct.createStatement();
                    ResultSet rs = st.executeQuery("SELECT balance FROM account WHERE id IN (1, 2) ORDER BY id")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(95);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(105);
            }
        }
    }

    private static long active(String queryLike) throws SQLException {
        try (Connection direct = pg.server(0).connect();
                Statement st = direct.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE query LIKE '" + queryLike
                        + "' AND state = 'active' AND pid <> pg_backend_pid()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static int port(Connection c) throws SQLException {
        return c.unwrap(RaidbConnection.class).controller().port();
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }
}
