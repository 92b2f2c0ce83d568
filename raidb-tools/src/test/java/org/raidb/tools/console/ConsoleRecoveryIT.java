package org.raidb.tools.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.Controller;
import org.raidb.controller.admin.AdminTestController;
import org.raidb.controller.admin.client.AdminClient;
import org.raidb.controller.backend.BackendState;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * The console's recovery commands against a controller with the recovery endpoints: {@code raidb console -c ...} as
 * a script runs it. Each test leaves shop's pg1 and pg2 enabled.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleRecoveryIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    private static final AtomicInteger ROW = new AtomicInteger();
    private static Controller controller;

    @BeforeAll
    static void startController() throws Exception {
        controller = AdminTestController.start(pg);
        try (Connection c = shop();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE console_recovery (id INT PRIMARY KEY, v VARCHAR(20))");
        }
    }

    @AfterAll
    static void stopController() {
        controller.close();
    }

    private static Connection shop() throws SQLException {
        return DriverManager.getConnection("jdbc:raidb://127.0.0.1:" + controller.port() + "/shop", "app", "apppw");
    }

    private static void insertRows(int n) throws SQLException {
        try (Connection c = shop();
                Statement s = c.createStatement()) {
            for (int i = 0; i < n; i++) {
                int id = ROW.incrementAndGet();
                s.executeUpdate("INSERT INTO console_recovery VALUES (" + id + ", 'row " + id + "')");
            }
        }
    }

    private static long rowsOn(EmbeddedPostgresServer server) throws SQLException {
        try (Connection c = server.connect();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM console_recovery")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static ConsoleRun console(String command) {
        return ConsoleRun.asShopAdmin(controller.adminPort(), command);
    }

    private static ConsoleRun succeeds(String command) {
        ConsoleRun run = console(command);
        assertThat(run.exit()).as(command + ": " + run.err()).isZero();
        assertThat(run.err()).isEmpty();
        return run;
    }

    private static BackendState stateOf(int backend) {
        return controller.virtualDatabase("shop").backends().get(backend).state();
    }

    /** First: once a dump exists, the log before a new checkpoint is still needed and purge is refused. */
    @Test
    @Order(1)
    void checkpointIsListedAndPurgeSaysWhatItDeleted() throws Exception {
        insertRows(5);
        assertThat(succeeds("checkpoint console-cp in shop").out())
                .startsWith("checkpoint console-cp recorded in shop at write position ");
        assertThat(succeeds("show checkpoints").out())
                .startsWith("VDB   CHECKPOINT")
                .contains("shop  console-cp");
        assertThat(succeeds("purge log before console-cp").out())
                .contains("log entries before checkpoint console-cp " + "deleted");
    }

    @Test
    void enableReplaysWhatTheBackendMissedWhileDisabled() throws Exception {
        insertRows(10);
        assertThat(succeeds("disable pg2 in shop").out())
                .contains("backend pg2 disabled")
                .contains("last checkpoint ");
        insertRows(200);

        ConsoleRun enable = succeeds("enable pg2 in shop");
        assertThat(enable.out())
                .startsWith("replay of pg2 started: watch operation ")
                .contains("replay shop/pg2 ")
                .contains(" entries (100%)")
                .contains("succeeded: backend pg2 enabled at checkpoint");
        assertThat(stateOf(1)).isEqualTo(BackendState.ENABLED);
        assertThat(rowsOn(pg.server(1))).isEqualTo(rowsOn(pg.server(0)));
    }

    /**
     * As a script runs it, output to a file: plain lines, and the last one counts what was replayed, not the log rows
     * (a transaction's BEGIN and COMMIT are rows of the log but nothing to replay).
     */
    @Test
    void withoutATerminalEnablePrintsPlainLinesEndingWithTheExactCounts() throws Exception {
        succeeds("disable pg2 in shop");
        int writes = writeInTransactionsOf(5, 60);

        ConsoleRun enable = succeeds("enable pg2 in shop");
        assertThat(enable.out()).doesNotContain("\r").doesNotContain("\u001b");
        List<String> lines = enable.out().lines().toList();
        assertThat(lines.get(0)).startsWith("replay of pg2 started: watch operation ");
        assertThat(lines.get(lines.size() - 1))
                .containsPattern("^#\\d+ replay shop/pg2 " + writes + " of " + writes
                        + " entries \\(100%\\), .*succeeded: " + "backend pg2 enabled at checkpoint ");

        succeeds("disable pg2 in shop");
        writes = writeInTransactionsOf(4, 20);
        ConsoleRun quiet = ConsoleRun.asShopAdmin(controller.adminPort(), "enable pg2 in shop", "--quiet");
        assertThat(quiet.exit()).as(quiet.err()).isZero();
        assertThat(quiet.out().lines())
                .hasSize(2)
                .last(InstanceOfAssertFactories.STRING)
                .contains(" " + writes + " of " + writes + " entries (100%)")
                .contains("succeeded");
        assertThat(rowsOn(pg.server(1))).isEqualTo(rowsOn(pg.server(0)));
    }

    /** Inserts {@code rows} rows in transactions of {@code perTransaction}; returns how many writes that logged. */
    private static int writeInTransactionsOf(int perTransaction, int rows) throws SQLException {
        try (Connection c = shop();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            for (int i = 0; i < rows; i++) {
                int id = ROW.incrementAndGet();
                s.executeUpdate("INSERT INTO console_recovery VALUES (" + id + ", 'tx row " + id + "')");
                if ((i + 1) % perTransaction == 0) {
                    c.commit();
                }
            }
            c.commit();
        }
        return rows;
    }

    @Test
    void aSecondEnableOfTheSameBackendGetsTheApisBusyMessageAndExits1() throws Exception {
        succeeds("disable pg2 in shop");
        insertRows(20);
        CompletableFuture<ConsoleRun> first;
        // An open write transaction keeps the replay from joining, so the first enable is still running.
        try (Connection open = shop();
                Statement s = open.createStatement()) {
            open.setAutoCommit(false);
            s.executeUpdate("INSERT INTO console_recovery VALUES (" + ROW.incrementAndGet() + ", 'open')");
            first = CompletableFuture.supplyAsync(() -> console("enable pg2 in shop"));
            awaitRunningReplayOfPg2();

            ConsoleRun second = console("enable pg2 in shop");
            assertThat(second.exit()).isEqualTo(ConsoleExit.COMMAND_FAILED);
            assertThat(second.err())
                    .startsWith("error: backend pg2 is busy: an operation (enable) on it is already running");
            assertThat(second.out()).isEmpty();
            open.commit();
        }
        ConsoleRun done = first.get(2, TimeUnit.MINUTES);
        assertThat(done.exit()).as(done.err()).isZero();
        assertThat(stateOf(1)).isEqualTo(BackendState.ENABLED);
    }

    private static void awaitRunningReplayOfPg2() throws Exception {
        AdminClient client = new AdminClient(
                URI.create("http://127.0.0.1:" + controller.adminPort()),
                AdminTestController.SHOP_ADMIN,
                AdminTestController.SHOP_ADMIN_PASSWORD);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (JsonNode op : client.get("/api/operations").path("operations")) {
                if ("replay".equals(op.path("kind").asText())
                        && "pg2".equals(op.path("target").asText())
                        && "running".equals(op.path("state").asText())) {
                    return;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no running replay of pg2 within 30 s");
    }

    @Test
    void backupListsTheDumpWithItsBackendAndRestoreBringsTheBackendBack() throws Exception {
        insertRows(50);
        ConsoleRun backup = succeeds("backup pg2 as console-nightly in shop");
        assertThat(backup.out())
                .startsWith("backup of pg2 started: watch operation ")
                .contains("succeeded: dump console-nightly of pg2 taken at checkpoint");
        assertThat(succeeds("show dumps shop").out())
                .startsWith("VDB   DUMP             BACKEND  CHECKPOINT")
                .contains("shop  console-nightly  pg2      ");
        assertThat(stateOf(1)).isEqualTo(BackendState.ENABLED);

        ConsoleRun whileEnabled = console("restore pg2 from console-nightly in shop");
        assertThat(whileEnabled.exit()).isEqualTo(ConsoleExit.COMMAND_FAILED);
        assertThat(whileEnabled.err()).startsWith("error: backend pg2 is enabled");

        succeeds("disable pg2 in shop");
        insertRows(30);
        assertThat(succeeds("restore pg2 from console-nightly in shop").out())
                .contains("succeeded: backend pg2 restored from dump console-nightly");
        assertThat(succeeds("enable pg2").out()).contains("succeeded: backend pg2 enabled at checkpoint");
        assertThat(rowsOn(pg.server(1))).isEqualTo(rowsOn(pg.server(0)));
    }

    @Test
    void addBackendCopiesAnEnabledBackendIntoANewOne() throws Exception {
        EmbeddedPostgresServer server = pg.server(0);
        try (Connection c = server.connect();
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE console_pg3");
        }
        insertRows(40);
        ConsoleRun add = succeeds("add backend pg3 url=" + server.jdbcUrl("console_pg3") + " user=" + server.user()
                + " from=pg1 in shop");
        assertThat(add.out())
                .startsWith("add backend of pg3 started: watch operation ")
                .contains("succeeded: backend pg3 added and enabled");
        assertThat(succeeds("show backends shop").out()).containsPattern("shop +pg3 +enabled");
        try (Connection c = server.connect("console_pg3");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM console_recovery")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(rowsOn(server));
        }
    }

    @Test
    void refusalsExit1WithTheControllersMessage() {
        ConsoleRun enabled = console("enable pg1 in shop");
        assertThat(enabled.exit()).isEqualTo(ConsoleExit.COMMAND_FAILED);
        assertThat(enabled.err()).isEqualTo("error: backend pg1 is already enabled\n");
        ConsoleRun noDump = console("restore pg2 from no-such-dump in shop");
        assertThat(noDump.exit()).isEqualTo(ConsoleExit.COMMAND_FAILED);
        assertThat(noDump.err()).startsWith("error: no dump no-such-dump in virtual database shop");
        ConsoleRun noCheckpoint = console("purge log before no-such-checkpoint in shop");
        assertThat(noCheckpoint.exit()).isEqualTo(ConsoleExit.COMMAND_FAILED);
        assertThat(noCheckpoint.err())
                .startsWith("error: no checkpoint no-such-checkpoint in the recovery log of shop");
    }
}
