package org.raidb.controller.it.transactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/** Two transactions locking two tables in opposite order: one is the victim, the same on every backend. */
class DeadlockIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    @Test
    void oneTransactionGets40001AndTheOtherCommitsEverywhere() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection setup = raidb.connect();
                Statement st = setup.createStatement()) {
            st.execute("CREATE TABLE left_side (id int PRIMARY KEY, owner text)");
            st.execute("CREATE TABLE right_side (id int PRIMARY KEY, owner text)");
            st.executeUpdate("INSERT INTO left_side VALUES (1, 'nobody')");
            st.executeUpdate("INSERT INTO right_side VALUES (1, 'nobody')");

            try (Connection t1 = raidb.connect();
                    Connection t2 = raidb.connect();
                    Statement s1 = t1.createStatement();
                    Statement s2 = t2.createStatement()) {
                t1.setAutoCommit(false);
                t2.setAutoCommit(false);
                s1.executeUpdate("UPDATE left_side SET owner = 't1' WHERE id = 1");
                s2.executeUpdate("UPDATE right_side SET owner = 't2' WHERE id = 1");
                CompletableFuture<Integer> t1Blocked = CompletableFuture.supplyAsync(() -> {
                    try {
                        return s1.executeUpdate("UPDATE right_side SET owner = 't1' WHERE id = 1");
                    } catch (SQLException e) {
                        throw new RuntimeException(e);
                    }
                });
                await().atMost(10, TimeUnit.SECONDS)
                        .until(() -> raidb.controller()
                                        .virtualDatabase("shop")
                                        .scheduler()
                                        .waitingWrites()
                                == 1);
                assertThatThrownBy(() -> s2.executeUpdate("UPDATE left_side SET owner = 't2' WHERE id = 1"))
                        .isInstanceOf(SQLException.class)
                        .hasMessageContaining("deadlock")
                        .satisfies(e ->
                                assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"));
                // The controller rolled the victim back on every backend by itself: the survivor's blocked
                // UPDATE (which needs the victim's row lock on right_side, on all three backends) completes and
                // the survivor commits while the victim's client has not called rollback() yet.
                await().atMost(30, TimeUnit.SECONDS).until(t1Blocked::isDone);
                assertThat(t1Blocked.get()).isEqualTo(1);
                t1.commit();
                assertOwnersOnEveryBackend("t1", "t1");
                // The victim's own rollback finds nothing left to undo, and its session goes on.
                t2.rollback();
                try (ResultSet rs = s2.executeQuery("SELECT owner FROM left_side WHERE id = 1")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo("t1");
                }
            }
            Map<String, Map<String, String>> sums =
                    ControllerFixture.checksums(pg.cluster().servers());
            assertThat(sums.get("pg1")).containsKeys("left_side", "right_side");
            assertThat(sums.values()).allSatisfy(x -> assertThat(x).isEqualTo(sums.get("pg1")));
            assertThat(raidb.controller().virtualDatabase("shop").backends())
                    .allSatisfy(b -> assertThat(b.isEnabled()).isTrue());
        }
    }

    private static void assertOwnersOnEveryBackend(String left, String right) throws SQLException {
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            try (Connection c = s.connect();
                    Statement ds = c.createStatement();
                    ResultSet rs = ds.executeQuery("SELECT l.owner, r.owner FROM left_side l, right_side r")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).as("left on %s", s.name()).isEqualTo(left);
                assertThat(rs.getString(2)).as("right on %s", s.name()).isEqualTo(right);
            }
        }
    }
}
