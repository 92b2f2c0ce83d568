package org.raidb.controller.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.admin.client.AdminClient;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ForkedController;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * A controller process stopped with SIGTERM, as a service manager stops it: it stops in order
 * (clients, sessions, background operations, writes in flight, final checkpoint, pools, and the
 * recovery log last), so that the restarted controller finds nothing in doubt and every backend
 * where it was, and a replay cut short leaves its backend at a checkpoint a later enable goes on from.
 */
class CleanStopIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static final String SHOP = "/api/virtualdatabases/shop";

    @BeforeEach
    void freshDatabases() {
        pg.cluster().ensureAllRunning();
        pg.cluster().recreateDatabases();
    }

    @Test
    void sigtermWhenIdleRecordsTheFinalCheckpointAndTheRestartFindsEveryBackendEnabled() throws Exception {
        ForkedController controller = ForkedController.start(pg.controllerConfig("shop"), "shop", "256m");
        int status;
        try (Connection c = controller.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE items (id INT PRIMARY KEY, name TEXT)");
            st.execute("INSERT INTO items VALUES (1, 'one')");
        } finally {
            status = controller.terminate();
        }
        String output = controller.log();
        assertThat(status)
                .as("exit status after SIGTERM; output:%n%s", output)
                .isEqualTo(ForkedController.SIGTERM_EXIT_STATUS);
        assertThat(warningsAndErrors(output))
                .as("warnings and errors of the stopped controller")
                .isEmpty();
        assertThat(output).contains("shutdown: recovery logs closed");

        ForkedController restarted = controller.restart();
        try {
            AdminClient admin = restarted.admin();
            String finalCheckpoint = lastCheckpoint(admin);
            assertThat(finalCheckpoint).startsWith("controller-stopped-");
            assertThat(restarted.log())
                    .contains("stopped cleanly at checkpoint " + finalCheckpoint)
                    .doesNotContain("were running");
            assertThat(backendStates(admin))
                    .containsExactlyInAnyOrderEntriesOf(Map.of("pg1", "enabled", "pg2", "enabled", "pg3", "enabled"));
        } finally {
            restarted.terminate();
        }
    }

    @Test
    void sigtermUnderWriteLoadKeepsEveryAcknowledgedWriteAndLeavesNothingInDoubt() throws Exception {
        ForkedController controller = ForkedController.start(pg.controllerConfig("shop"), "shop", "256m");
        AcknowledgedWrites writes = null;
        int status;
        try {
            AcknowledgedWrites.createSchema(controller.url());
            writes = AcknowledgedWrites.start(controller.url(), 8);
            writes.awaitMore(500);
            assertThat(writes.errors).as("errors before the stop").isEmpty();
        } finally {
            status = controller.terminate();
        }
        String output = controller.log();
        assertThat(status)
                .as("exit status after SIGTERM; output:%n%s", output)
                .isEqualTo(ForkedController.SIGTERM_EXIT_STATUS);
        writes.stop();
        assertThat(warningsAndErrors(output))
                .as("warnings and errors of the stopped controller")
                .isEmpty();

        ForkedController restarted = controller.restart();
        try {
            AdminClient admin = restarted.admin();
            assertThat(restarted.log())
                    .contains("stopped cleanly at checkpoint " + lastCheckpoint(admin))
                    .doesNotContain("were running");
            assertThat(backendStates(admin))
                    .containsExactlyInAnyOrderEntriesOf(Map.of("pg1", "enabled", "pg2", "enabled", "pg3", "enabled"));
        } finally {
            restarted.terminate();
        }
        assertThat(writes.acknowledged).hasSizeGreaterThanOrEqualTo(500);
        BackendRecoveryIT.assertIdenticalAndComplete(writes, pg.cluster().servers());
    }

    @Test
    void sigtermDuringEnableLeavesTheBackendDisabledAtACheckpointALaterEnableGoesOnFrom() throws Exception {
        EmbeddedPostgresServer pg3 = pg.server(2);
        int rows = 4_000;
        ForkedController controller = ForkedController.start(pg.controllerConfig("shop"), "shop", "256m");
        String disabledAt;
        int status;
        try {
            AdminClient admin = controller.admin();
            try (Connection c = controller.connect();
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE events (id BIGINT PRIMARY KEY, note TEXT)");
            }
            disabledAt = admin.post(SHOP + "/backends/pg3/disable")
                    .get("backend")
                    .get("lastCheckpoint")
                    .asText();
            insertConcurrently(controller, 4, rows);
            slowDownInserts(pg3); // the replay into pg3 lasts long enough to be stopped half-way
            long operation = admin.post(SHOP + "/backends/pg3/enable")
                    .get("operation")
                    .get("id")
                    .asLong();
            await().atMost(Duration.ofSeconds(120))
                    .until(() -> admin.get("/api/operations/" + operation)
                                    .get("done")
                                    .asLong()
                            > 0);
        } finally {
            status = controller.terminate();
        }
        String output = controller.log();
        assertThat(status)
                .as("exit status after SIGTERM; output:%n%s", output)
                .isEqualTo(ForkedController.SIGTERM_EXIT_STATUS);
        long replayed = count(pg3, "events");
        assertThat(replayed)
                .as("rows the replay applied to pg3 before the stop")
                .isBetween(1L, rows - 1L);
        assertThat(output).contains("replay into pg3 stopped");

        ForkedController restarted = controller.restart();
        try {
            AdminClient admin = restarted.admin();
            JsonNode b3 = backend(admin, "pg3");
            assertThat(b3.get("state").asText()).isEqualTo("disabled");
            assertThat(b3.get("disabledReason").asText()).doesNotContain("no usable checkpoint");
            assertThat(b3.get("lastCheckpoint").asText())
                    .as("pg3 holds more than at its old checkpoint")
                    .isNotEqualTo(disabledAt)
                    .startsWith("pg3-");

            restoreInsertSpeed(pg3);
            long operation = admin.post(SHOP + "/backends/pg3/enable")
                    .get("operation")
                    .get("id")
                    .asLong();
            JsonNode ended = await().atMost(Duration.ofSeconds(120))
                    .until(
                            () -> admin.get("/api/operations/" + operation),
                            op -> !op.get("state").asText().equals("running"));
            assertThat(ended.get("state").asText())
                    .as("the second enable: %s", ended.get("message"))
                    .isEqualTo("succeeded");
            assertThat(backend(admin, "pg3").get("state").asText()).isEqualTo("enabled");
        } finally {
            restarted.terminate();
        }
        Map<String, Map<String, String>> sums =
                ControllerFixture.checksums(pg.cluster().servers());
        assertThat(sums.values())
                .as("per-table checksums of %s", sums.keySet())
                .allMatch(s -> s.equals(sums.get("pg1")));
        assertThat(count(pg3, "events")).isEqualTo(rows);
    }

    @Test
    void sigtermWithAWriteHungOnABackendStopsAtTheLimitAndTheRestartComparesTheBackends() throws Exception {
        EmbeddedPostgresServer pg3 = pg.server(2);
        ForkedController controller =
                ForkedController.start(pg.controllerConfig("shop").shutdownTimeout(2_000), "shop", "256m");
        int status;
        try (Connection c = controller.connect();
                Statement st = c.createStatement();
                Connection locker = pg3.connect();
                Statement lock = locker.createStatement()) {
            st.execute("CREATE TABLE events (id BIGINT PRIMARY KEY, note TEXT)");
            locker.setAutoCommit(false);
            lock.execute("LOCK TABLE events IN ACCESS EXCLUSIVE MODE"); // pg3 hangs on the next write to events
            CompletableFuture<Void> hung = CompletableFuture.runAsync(() -> {
                try (Connection writer = controller.connect();
                        Statement insert = writer.createStatement()) {
                    insert.executeUpdate("INSERT INTO events VALUES (1, 'hung on pg3')");
                } catch (SQLException e) {
                    // the controller stopped under it: expected
                }
            });
            await().atMost(Duration.ofSeconds(60)).until(() -> waitingForALock(pg3));
            try {
                status = controller.terminate();
            } finally {
                locker.rollback();
            }
            hung.join();
        }
        String output = controller.log();
        assertThat(status)
                .as("exit status after SIGTERM; output:%n%s", output)
                .isEqualTo(ForkedController.SIGTERM_EXIT_STATUS);
        assertThat(output)
                .contains("writes still running at the limit, left in doubt")
                .contains("shutdown: recovery logs closed");

        ForkedController restarted = controller.restart();
        Map<String, String> states;
        try {
            String restartLog = restarted.log();
            states = backendStates(restarted.admin());
            assertThat(states).containsEntry("pg1", "enabled").containsEntry("pg2", "enabled");
            if (!restartLog.contains("were running")) {
                // Closing the pools at the limit broke pg3's hung connection, and the write was resolved (pg3 failed
                // it) before the log closed: nothing was in doubt at the restart. Seen once in a full build under
                // load; then pg3 must not be enabled without the write.
                assertThat(restartLog).as("restart log").contains("stopped cleanly");
                assertThat(states.get("pg3").equals("enabled") ? count(pg3, "events") : 1L)
                        .as("pg3 enabled only with the write (%s)", states)
                        .isEqualTo(1L);
            }
        } finally {
            restarted.terminate();
        }
        List<EmbeddedPostgresServer> enabled = pg.cluster().servers().stream()
                .filter(s -> states.get(s.name()).equals("enabled"))
                .toList();
        Map<String, Map<String, String>> sums = ControllerFixture.checksums(enabled);
        assertThat(sums.values())
                .as("per-table checksums of %s", sums.keySet())
                .allMatch(s -> s.equals(sums.get("pg1")));
    }

    private static boolean waitingForALock(EmbeddedPostgresServer server) throws SQLException {
        try (Connection c = server.connect();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")) {
            rs.next();
            return rs.getLong(1) > 0;
        }
    }

    /** Lines the controller logged at WARN or ERROR (logback's pattern puts the level after the time). */
    private static List<String> warningsAndErrors(String output) {
        return output.lines().filter(l -> l.matches("^\\S+ (WARN|ERROR) .*")).toList();
    }

    private static String lastCheckpoint(AdminClient admin) throws Exception {
        JsonNode all = admin.get(SHOP + "/checkpoints").get("checkpoints");
        assertThat(all.size()).as("checkpoints recorded").isPositive();
        return all.get(all.size() - 1).get("name").asText();
    }

    private static Map<String, String> backendStates(AdminClient admin) throws Exception {
        Map<String, String> states = new java.util.LinkedHashMap<>();
        admin.get(SHOP + "/backends")
                .get("backends")
                .forEach(b -> states.put(b.get("name").asText(), b.get("state").asText()));
        return states;
    }

    private static JsonNode backend(AdminClient admin, String name) throws Exception {
        for (JsonNode b : admin.get(SHOP + "/backends").get("backends")) {
            if (b.get("name").asText().equals(name)) {
                return b;
            }
        }
        throw new AssertionError("no backend " + name);
    }

    /** {@code rows} auto-commit inserts by {@code clients} clients: one log item each. */
    private static void insertConcurrently(ForkedController controller, int clients, int rows) {
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (int w = 0; w < clients; w++) {
            int writer = w;
            all.add(CompletableFuture.runAsync(() -> {
                try (Connection c = controller.connect();
                        PreparedStatement ps = c.prepareStatement("INSERT INTO events (id, note) VALUES (?, ?)")) {
                    for (int id = writer; id < rows; id += clients) {
                        ps.setLong(1, id);
                        ps.setString(2, "event " + id);
                        ps.executeUpdate();
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
    }

    /** Each row inserted into pg3's events table takes a few milliseconds more; the data stays the same. */
    private static void slowDownInserts(EmbeddedPostgresServer server) throws SQLException {
        try (Connection c = server.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE FUNCTION slow_insert() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN PERFORM pg_sleep(0.004); RETURN NEW; END $$");
            st.execute(
                    "CREATE TRIGGER slow_insert BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION slow_insert()");
        }
    }

    private static void restoreInsertSpeed(EmbeddedPostgresServer server) throws SQLException {
        try (Connection c = server.connect();
                Statement st = c.createStatement()) {
            st.execute("DROP TRIGGER slow_insert ON events");
            st.execute("DROP FUNCTION slow_insert()");
        }
    }

    private static long count(EmbeddedPostgresServer server, String table) throws SQLException {
        try (Connection c = server.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
