package org.raidb.controller.it.transactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
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
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/** Two transactions locking two tables in opposite order: one is the victim, the same on every backend. */
class DeadlockIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    @Test
    void oneTransactionGets40P01AndTheOtherCommitsEverywhere() throws Exception {
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
                        .hasMessageContaining("deadlock detected by the controller")
                        .hasMessageContaining("(id)=(1)")
                        .hasMessageContaining("left_side")
                        .hasMessageContaining("run the transaction again")
                        .satisfies(e ->
                                assertThat(((SQLException) e).getSQLState()).isEqualTo("40P01"));
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

    /**
     * Two sessions deadlock on two keys round after round, in the order that starved a retry while the
     * transaction closing a cycle was the victim: the other session's new transaction starts first and
     * the retry closes the cycle. The retry keeps its victim's age and commits; the newer transaction is
     * the victim, told while it waits, and rolled back on every backend (its update of row 1 is on none).
     */
    @Test
    void theVictimsRetryKeepsItsAgeAndCommitsOnItsRetryRoundAfterRound() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection setup = raidb.connect();
                Statement st = setup.createStatement()) {
            st.execute("CREATE TABLE hot (id int PRIMARY KEY, v int)");
            st.execute("CREATE TABLE won (round int PRIMARY KEY, session text)");
            st.executeUpdate("INSERT INTO hot VALUES (1, 0), (2, 0)");
            try (Connection a = raidb.connect();
                    Connection b = raidb.connect()) {
                a.setAutoCommit(false);
                b.setAutoCommit(false);
                // Round 0: both new, b the younger and closing the cycle: b is the victim. From then on the
                // winner of a round starts the next one first, and the victim's retry closes the cycle.
                Connection first = a;
                Connection retrying = b;
                int rounds = 5;
                for (int round = 0; round <= rounds; round++) {
                    try (Statement sf = first.createStatement();
                            Statement sr = retrying.createStatement()) {
                        assertThat(sf.executeUpdate("UPDATE hot SET v = v + 1 WHERE id = 1"))
                                .isEqualTo(1);
                        assertThat(sr.executeUpdate("UPDATE hot SET v = v + 1 WHERE id = 2"))
                                .isEqualTo(1);
                        CompletableFuture<Integer> firstWaits = update(sf, "UPDATE hot SET v = v + 1 WHERE id = 2");
                        await().atMost(1, TimeUnit.MINUTES).until(() -> waitingWrites(raidb) == 1);
                        CompletableFuture<Integer> retryCloses = update(sr, "UPDATE hot SET v = v + 1 WHERE id = 1");
                        CompletableFuture<Integer> victim = round == 0 ? retryCloses : firstWaits;
                        CompletableFuture<Integer> survivor = round == 0 ? firstWaits : retryCloses;
                        Connection winner = round == 0 ? first : retrying;
                        Connection loser = round == 0 ? retrying : first;
                        SQLException failure = sqlFailure(victim);
                        assertThat(failure.getMessage())
                                .as("round %d: the newer transaction is the victim", round)
                                .contains("deadlock detected");
                        assertThat(failure.getSQLState()).isEqualTo("40P01");
                        assertThat(survivor.get(1, TimeUnit.MINUTES))
                                .as("round %d: the older transaction's update", round)
                                .isEqualTo(1);
                        try (Statement sw = winner.createStatement()) {
                            sw.executeUpdate(
                                    "INSERT INTO won VALUES (" + round + ", '" + (winner == a ? "a" : "b") + "')");
                        }
                        winner.commit();
                        loser.rollback(); // the client's rollback of a victim: nothing left, and its age kept
                        int done = round + 1;
                        ReplicaChecks.assertRowsOnEach(
                                pg.cluster().servers(),
                                "SELECT id, v FROM hot ORDER BY id",
                                "1|" + done + "|",
                                "2|" + done + "|");
                        first = winner;
                        retrying = loser;
                    }
                }
            }
            raidb.assertEveryBackendEnabled();
            // Each victim committed on its retry: the rounds' winners alternate.
            ReplicaChecks.assertRowsOnEach(
                    pg.cluster().servers(),
                    "SELECT round, session FROM won ORDER BY round",
                    "0|a|",
                    "1|b|",
                    "2|a|",
                    "3|b|",
                    "4|a|",
                    "5|b|");
            ReplicaChecks.assertIdentical(pg.cluster().servers());
        }
    }

    private static int waitingWrites(ControllerFixture raidb) {
        return raidb.controller().virtualDatabase("shop").scheduler().waitingWrites();
    }

    private static CompletableFuture<Integer> update(Statement st, String sql) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return st.executeUpdate(sql);
            } catch (SQLException e) {
                throw new RuntimeException(e);
            }
        });
    }

    private static SQLException sqlFailure(CompletableFuture<?> statement) {
        Throwable t = catchThrowable(() -> statement.get(1, TimeUnit.MINUTES));
        while (t != null && !(t instanceof SQLException)) {
            t = t.getCause();
        }
        assertThat(t).as("the statement's failure").isInstanceOf(SQLException.class);
        return (SQLException) t;
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
