package org.raidb.controller.it.transactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * Under the optimistic scheduler, transactions that write disjoint tables do not wait for each
 * other: they are open at the same time on every backend, and one commits while the other is still
 * open.
 */
class DisjointTransactionsIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    @Test
    void aTransactionOnAnotherTableCommitsWhileTheFirstIsStillOpen() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(
                pg.controllerConfig("shop")
                        .replication(
                                "<scheduler type=\"optimisticTransaction\"/><raidb1 readPolicy=\"roundRobin\" completion=\"all\"/>"),
                "shop")) {
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE t1 (id int PRIMARY KEY, v text)");
                st.execute("CREATE TABLE t2 (id int PRIMARY KEY, v text)");
            }
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            try (Connection a = raidb.connect();
                    Connection b = raidb.connect();
                    Statement sa = a.createStatement();
                    Statement sb = b.createStatement()) {
                a.setAutoCommit(false);
                b.setAutoCommit(false);
                assertThat(sa.executeUpdate("INSERT INTO t1 VALUES (1, 'a')")).isEqualTo(1);
                // B's statements return while A holds t1: the preemptive timeout only keeps a scheduler that
                // wrongly makes B wait from hanging the build; it is far above any statement's duration.
                assertTimeoutPreemptively(Duration.ofMinutes(2), () -> {
                    assertThat(sb.executeUpdate("INSERT INTO t2 VALUES (1, 'b')"))
                            .isEqualTo(1);
                    assertThat(sb.executeUpdate("UPDATE t2 SET v = 'b2' WHERE id = 1"))
                            .isEqualTo(1);
                });
                assertThat(vdb.scheduler().waitingWrites())
                        .as("writes waiting for a conflict class")
                        .isZero();
                // Both transactions are open, with their writes, on every backend at once.
                for (EmbeddedPostgresServer s : pg.cluster().servers()) {
                    assertThat(openWritersOf(s, "t1"))
                            .as("transactions holding a write lock on t1 on %s", s.name())
                            .isEqualTo(1);
                    assertThat(openWritersOf(s, "t2"))
                            .as("transactions holding a write lock on t2 on %s", s.name())
                            .isEqualTo(1);
                }
                assertTimeoutPreemptively(Duration.ofMinutes(2), () -> b.commit());
                // B is committed everywhere while A is still open: A's row is not visible yet, B's is.
                for (EmbeddedPostgresServer s : pg.cluster().servers()) {
                    assertThat(count(s, "t2"))
                            .as("t2 rows on %s after B's commit", s.name())
                            .isEqualTo(1);
                    assertThat(count(s, "t1"))
                            .as("t1 rows on %s while A is open", s.name())
                            .isZero();
                }
                assertThat(sa.executeUpdate("UPDATE t1 SET v = 'a2' WHERE id = 1"))
                        .isEqualTo(1);
                a.commit();
            }
            assertThat(vdb.backends())
                    .allSatisfy(backend -> assertThat(backend.isEnabled()).isTrue());
        }
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            assertThat(count(s, "t1")).as("t1 rows on %s", s.name()).isEqualTo(1);
        }
        Map<String, Map<String, String>> sums =
                ControllerFixture.checksums(pg.cluster().servers());
        assertThat(sums.get("pg1")).containsKeys("t1", "t2");
        assertThat(sums.values()).allSatisfy(x -> assertThat(x).isEqualTo(sums.get("pg1")));
    }

    /** Backend sessions, other than the asking one, that hold a RowExclusiveLock on the table. */
    private static int openWritersOf(EmbeddedPostgresServer s, String table) throws SQLException {
        try (Connection c = s.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT count(DISTINCT l.pid) FROM pg_locks l JOIN pg_class r ON r.oid = l.relation "
                                + "WHERE r.relname = '" + table
                                + "' AND l.mode = 'RowExclusiveLock' AND l.granted AND l.pid <> pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static long count(EmbeddedPostgresServer s, String table) throws SQLException {
        try (Connection c = s.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
