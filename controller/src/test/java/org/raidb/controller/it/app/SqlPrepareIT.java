package org.raidb.controller.it.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.test.PostgresClusterExtension;

/**
 * SQL's PREPARE / EXECUTE / DEALLOCATE, through the driver and through the PostgreSQL front end (pgjdbc, simple
 * and extended query modes), over three PostgreSQL backends read round robin. Before, a PREPARE ran on one pooled
 * backend connection and the session's EXECUTE reached others, so it worked only while the session happened to
 * borrow the same connections: with other sessions busy it failed on some backends and not on others.
 */
class SqlPrepareIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    static ControllerFixture raidb;

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

    @BeforeEach
    void freshTable() throws SQLException {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS entry");
            st.execute("CREATE TABLE entry (id int PRIMARY KEY, owner text, at timestamptz, amount numeric)");
        }
    }

    @Test
    void concurrentSessionsPrepareTheSameNameAndEachRunsItsOwn() throws Exception {
        int sessions = 6;
        int rows = 40;
        ExecutorService pool = Executors.newFixedThreadPool(sessions);
        try {
            List<CompletableFuture<Void>> all = new ArrayList<>();
            for (int s = 0; s < sessions; s++) {
                int session = s;
                all.add(CompletableFuture.runAsync(
                        () -> {
                            try (Connection c = session % 2 == 0 ? raidb.connect() : pgjdbc("simple");
                                    Statement st = c.createStatement()) {
                                // Same name, another statement per session: each EXECUTE must run its own.
                                st.execute("PREPARE put (int, numeric) AS INSERT INTO entry VALUES ($1, 'session "
                                        + session + "', clock_timestamp(), $2)");
                                st.execute("PREPARE mine AS SELECT count(*) FROM entry WHERE owner = 'session "
                                        + session + "'");
                                for (int i = 0; i < rows; i++) {
                                    assertThat(st.executeUpdate(
                                                    "EXECUTE put(" + (session * 1000 + i) + ", " + i + " * 1.5)"))
                                            .isEqualTo(1);
                                    if (i % 10 == 9) {
                                        try (ResultSet rs = st.executeQuery("EXECUTE mine")) {
                                            assertThat(rs.next()).isTrue();
                                            assertThat(rs.getInt(1)).isEqualTo(i + 1);
                                        }
                                    }
                                }
                            } catch (SQLException e) {
                                throw new IllegalStateException(e);
                            }
                        },
                        pool));
            }
            CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0])).get(3, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }
        try (Connection c = raidb.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*), count(DISTINCT owner) FROM entry")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(sessions * rows);
            assertThat(rs.getInt(2)).isEqualTo(sessions);
        }
        raidb.assertEveryBackendEnabled();
        // clock_timestamp() in an argument's statement is filled once for every backend, as in any write.
        ReplicaChecks.assertIdentical(pg.cluster().servers());
    }

    @Test
    void typesCastTheArgumentsAndPreparedStatementsOutliveARollback() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("PREPARE put (int, text, numeric) AS INSERT INTO entry (id, owner, amount) VALUES ($1, $2, $3)");
            st.execute("PREPARE total (text) AS SELECT sum(amount) FROM entry WHERE owner = $1");
            c.setAutoCommit(false);
            assertThat(st.executeUpdate("EXECUTE put('1', 'ann', '2.50')")).isEqualTo(1);
            c.rollback();
            assertThat(st.executeUpdate("EXECUTE put(2, 'ann', 4)")).isEqualTo(1);
            c.commit();
            c.setAutoCommit(true);
            try (ResultSet rs = st.executeQuery("EXECUTE total('ann')")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getBigDecimal(1)).isEqualByComparingTo("4");
            }
            st.execute("DEALLOCATE PREPARE put");
            assertThatThrownBy(() -> st.executeUpdate("EXECUTE put(3, 'bob', 1)"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("26000"))
                    .hasMessageContaining("\"put\" does not exist");
            st.execute("DEALLOCATE ALL");
            assertThatThrownBy(() -> st.executeQuery("EXECUTE total('ann')"))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("26000"));
        }
        ReplicaChecks.assertIdentical(pg.cluster().servers());
    }

    @Test
    void badInputGetsItsSqlStateAndTheSessionGoesOn() throws Exception {
        for (Connection c : List.of(raidb.connect(), pgjdbc("extended"), pgjdbc("simple"))) {
            try (c;
                    Statement st = c.createStatement()) {
                st.execute("PREPARE one AS SELECT $1::int + 1");
                assertState(st, "PREPARE one AS SELECT 2", "42P05");
                assertState(st, "EXECUTE nothing(1)", "26000");
                assertState(st, "EXECUTE one", "42601");
                assertState(st, "EXECUTE one(1, 2)", "42601");
                assertState(st, "EXECUTE one(1", "42601");
                assertState(st, "PREPARE t AS CREATE TABLE t (id int)", "42601");
                assertState(st, "DEALLOCATE never_prepared", "26000");
                try (ResultSet rs = st.executeQuery("EXECUTE one(41)")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(42);
                }
                st.execute("DEALLOCATE one");
            }
        }
        raidb.assertEveryBackendEnabled();
    }

    @Test
    void throughTheFrontEndExecuteAnswersWithTheTagOfItsStatement() throws Exception {
        try (Connection c = pgjdbc("extended");
                Statement st = c.createStatement()) {
            st.execute(
                    "PREPARE put (int) AS INSERT INTO entry (id, owner) SELECT g, 'many' FROM generate_series($1, $1 + 2) g");
            // pgjdbc reads the update count out of the CommandComplete tag: INSERT 0 3.
            assertThat(st.executeUpdate("EXECUTE put(10)")).isEqualTo(3);
            st.execute("PREPARE move AS UPDATE entry SET amount = 1 WHERE owner = 'many'");
            assertThat(st.executeUpdate("EXECUTE move")).isEqualTo(3);
        }
        ReplicaChecks.assertIdentical(pg.cluster().servers());
    }

    private static void assertState(Statement st, String sql, String sqlState) {
        assertThatThrownBy(() -> st.execute(sql))
                .as(sql)
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(sqlState));
    }

    private static Connection pgjdbc(String mode) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", ControllerFixture.USER);
        p.setProperty("password", ControllerFixture.PASSWORD);
        p.setProperty("preferQueryMode", mode);
        p.setProperty("sslmode", "disable");
        return DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + raidb.controller().pgPort() + "/shop", p);
    }
}
