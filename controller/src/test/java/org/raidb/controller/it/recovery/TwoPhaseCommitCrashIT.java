package org.raidb.controller.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.Controller;
import org.raidb.controller.config.ConfigLoader;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * A RAIDb-0 controller killed between the two phases of a commit (the transaction prepared on both
 * backends and its COMMIT durable in the recovery log): the restarted controller commits what was
 * left prepared, so the transaction is on both backends, and nothing stays prepared.
 */
class TwoPhaseCommitCrashIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    @Test
    void aControllerKilledBetweenPrepareAndCommitFinishesTheTransactionAfterRestart() throws Exception {
        pg.cluster().ensureAllRunning();
        pg.cluster().recreateDatabases();
        Path dir = Files.createTempDirectory("raidb-2pc");
        int port = freePort();
        Path config = pg.controllerConfig("shop")
                .port(port)
                .dataDir(dir.resolve("data"))
                .replication("<raidb0/>")
                .tables("pg1", List.of("customer"))
                .tables("pg2", List.of("author"))
                .writeTo(dir.resolve("raidb.xml"));
        String url = "jdbc:raidb://127.0.0.1:" + port + "/shop";

        Process controller = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        HaltingBetweenCommitPhases.class.getName(),
                        "--config",
                        config.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("controller.log").toFile())
                .start();
        try {
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
                DriverManager.getConnection(url, ControllerFixture.USER, ControllerFixture.PASSWORD)
                        .close();
                return true;
            });
            try (Connection c = DriverManager.getConnection(url, ControllerFixture.USER, ControllerFixture.PASSWORD);
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE customer (c_id int PRIMARY KEY, c_name text)");
                st.execute("CREATE TABLE author (a_id int PRIMARY KEY, a_name text)");
                c.setAutoCommit(false);
                st.execute("INSERT INTO customer VALUES (1, 'ada')");
                st.execute("INSERT INTO author VALUES (1, 'ada')");
                try {
                    c.commit(); // the controller halts after logging the decision, before COMMIT PREPARED
                } catch (SQLException expected) {
                    assertThat(expected.getSQLState()).startsWith("08");
                }
            }
            assertThat(controller.waitFor(60, java.util.concurrent.TimeUnit.SECONDS))
                    .isTrue();
            assertThat(controller.exitValue())
                    .as("the controller halted between the phases")
                    .isEqualTo(137);
        } finally {
            controller.destroyForcibly();
        }
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            assertThat(count(s, "pg_prepared_xacts"))
                    .as("prepared on %s while the controller is down", s.name())
                    .isEqualTo(1);
        }

        try (Controller restarted = Controller.start(ConfigLoader.load(config))) {
            assertThat(count(pg.server(0), "customer WHERE c_id = 1")).isEqualTo(1);
            assertThat(count(pg.server(1), "author WHERE a_id = 1")).isEqualTo(1);
            for (EmbeddedPostgresServer s : pg.cluster().servers()) {
                assertThat(count(s, "pg_prepared_xacts"))
                        .as("left prepared on %s", s.name())
                        .isZero();
            }
        }
    }

    private static long count(EmbeddedPostgresServer s, String tableAndWhere) throws SQLException {
        try (Connection c = s.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM " + tableAndWhere)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** A port outside the ephemeral range: the controller is restarted on it after a kill. */
    private static int freePort() {
        return org.raidb.embedded.FreePort.pick();
    }
}
