package org.raidb.tools.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.Controller;
import org.raidb.controller.admin.client.AdminCallException;
import org.raidb.controller.admin.client.AdminClient;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.config.ConfigLoader;
import org.raidb.controller.recovery.RecoveryManager;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.test.PostgresClusterExtension;
import org.slf4j.LoggerFactory;

/**
 * Issue 11: a backend disabled because its data diverged is not brought back by {@code enable}, which
 * would replay the log into data that differs and let it rejoin: the admin API answers 409 and the
 * console exits 1, naming the divergence and what to do, also after a controller restart. A restore
 * clears the mark; {@code --force} overrides it, logged with the administrator's name.
 */
class DivergedBackendIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private Path configFile;
    private Controller controller;

    @BeforeEach
    void start() throws Exception {
        pg.cluster().recreateDatabases();
        Path dir = Files.createTempDirectory("raidb-diverged-it");
        configFile = pg.controllerConfig("shop").dataDir(dir.resolve("data")).writeTo(dir.resolve("raidb.xml"));
        controller = Controller.start(ConfigLoader.load(configFile));
    }

    @AfterEach
    void stop() {
        controller.close();
    }

    private void restart() throws Exception {
        controller.close();
        controller = Controller.start(ConfigLoader.load(configFile));
    }

    private Connection shop() throws SQLException {
        return DriverManager.getConnection("jdbc:raidb://127.0.0.1:" + controller.port() + "/shop", "app", "apppw");
    }

    private AdminClient api() {
        return new AdminClient(URI.create("http://127.0.0.1:" + controller.adminPort()), "admin", "adminpw");
    }

    private ConsoleRun console(String command) {
        return ConsoleRun.console(
                "--port",
                String.valueOf(controller.adminPort()),
                "--user",
                "admin",
                "--password",
                "adminpw",
                "-c",
                command);
    }

    private DatabaseBackend pg2() throws SQLException {
        return controller.virtualDatabase("shop").backend("pg2");
    }

    /** As DivergenceIT: pg2 loses a row behind the controller's back, and an UPDATE of it counts 0 there, 1 elsewhere. */
    private void divergePg2() throws Exception {
        try (Connection c = shop();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE items (id INT PRIMARY KEY, qty INT NOT NULL)");
            st.executeUpdate("INSERT INTO items SELECT g, 10 FROM generate_series(1, 20) g");
            try (Connection direct = pg.server(1).connect();
                    Statement ds = direct.createStatement()) {
                ds.executeUpdate("DELETE FROM items WHERE id = 5");
            }
            assertThat(st.executeUpdate("UPDATE items SET qty = qty - 1 WHERE id = 5"))
                    .isEqualTo(1);
        }
        DatabaseBackend pg2 = pg2();
        await().atMost(Duration.ofSeconds(30)).until(() -> !pg2.isEnabled() && pg2.lastCheckpoint() != null);
        assertThat(pg2.disabledReason()).startsWith("diverged on [UPDATE items SET qty = qty - 1 WHERE id = 5]");
    }

    private JsonNode backendPg2() throws AdminCallException {
        for (JsonNode b : api().get("/api/virtualdatabases/shop/backends").path("backends")) {
            if (b.path("name").asText().equals("pg2")) {
                return b;
            }
        }
        throw new AssertionError("no pg2 in the admin API's backends");
    }

    private void assertEnableRefused() throws Exception {
        AdminCallException refused = catchThrowableOfType(
                () -> api().post("/api/virtualdatabases/shop/backends/pg2/enable"), AdminCallException.class);
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.getMessage())
                .startsWith("backend pg2 stays disabled: it was disabled because its data diverged")
                .contains("diverged on [UPDATE items SET qty = qty - 1 WHERE id = 5]")
                .contains("update count 0")
                .contains("restore pg2 from DUMP")
                .contains("add backend")
                .contains("enable pg2 --force");

        ConsoleRun run = console("enable pg2 in shop");
        assertThat(run.exit()).isEqualTo(ConsoleExit.COMMAND_FAILED);
        assertThat(run.err())
                .startsWith("error: backend pg2 stays disabled: it was disabled because its data diverged");
        assertThat(run.out()).isEmpty();
        assertThat(pg2().isEnabled()).isFalse();
    }

    @Test
    void enableOfADivergedBackendIsRefusedAlsoAfterARestartUntilForcedByNamedAdministrator() throws Exception {
        divergePg2();
        assertThat(backendPg2().path("disabledCause").asText()).isEqualTo("divergence");
        assertEnableRefused();

        restart();
        assertThat(pg2().isEnabled()).isFalse();
        assertThat(backendPg2().path("disabledCause").asText()).isEqualTo("divergence");
        assertEnableRefused();

        // The operator repairs pg2 by hand, knows better than the controller, and forces it back.
        try (Connection direct = pg.server(1).connect();
                Statement ds = direct.createStatement()) {
            ds.executeUpdate("INSERT INTO items VALUES (5, 9)");
        }
        Logger recovery = (Logger) LoggerFactory.getLogger(RecoveryManager.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        recovery.addAppender(logged);
        try {
            ConsoleRun forced = console("enable pg2 --force in shop");
            assertThat(forced.exit()).as(forced.err()).isZero();
            assertThat(forced.out()).contains("succeeded: backend pg2 enabled at checkpoint");
        } finally {
            recovery.detachAppender(logged);
        }
        assertThat(logged.list)
                .filteredOn(e -> e.getLevel() == Level.WARN)
                .extracting(ILoggingEvent::getFormattedMessage)
                .anySatisfy(m -> assertThat(m)
                        .contains("backend pg2")
                        .contains("administrator admin forces enable")
                        .contains("diverged on [UPDATE items"));
        assertThat(pg2().isEnabled()).isTrue();
        assertThat(backendPg2().path("disabledCause").isNull()).isTrue();
        assertIdentical();
    }

    @Test
    void aRestoreFromAGoodBackendsDumpClearsTheDivergenceSoEnableReplays() throws Exception {
        divergePg2();
        ConsoleRun dumpOfDiverged = console("backup pg2 as tainted in shop");
        assertThat(dumpOfDiverged.exit()).isEqualTo(ConsoleExit.COMMAND_FAILED);
        assertThat(dumpOfDiverged.err()).contains("its data diverged").contains("back up an enabled backend");

        ConsoleRun backup = console("backup pg1 as good in shop");
        assertThat(backup.exit()).as(backup.err()).isZero();
        try (Connection c = shop();
                Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE items SET qty = 0 WHERE id = 7"); // after the dump: replayed into pg2
        }
        ConsoleRun restore = console("restore pg2 from good in shop");
        assertThat(restore.exit()).as(restore.err()).isZero();
        assertThat(backendPg2().path("disabledCause").asText()).isEqualTo("administrator");

        ConsoleRun enable = console("enable pg2 in shop");
        assertThat(enable.exit()).as(enable.err()).isZero();
        assertThat(pg2().isEnabled()).isTrue();
        assertIdentical();
    }

    private void assertIdentical() throws SQLException {
        Map<String, String> pg1;
        Map<String, String> pg2;
        try (Connection c = pg.server(0).connect()) {
            pg1 = TableChecksum.checksums(c);
        }
        try (Connection c = pg.server(1).connect()) {
            pg2 = TableChecksum.checksums(c);
        }
        assertThat(pg2).isEqualTo(pg1);
    }
}
