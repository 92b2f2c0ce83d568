package org.raidb.controller.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.admin.client.AdminCallException;
import org.raidb.controller.admin.client.AdminClient;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.MariaDbBackends;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.controller.verify.TableVerdict;
import org.raidb.controller.verify.VerifyReport;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.MariaDbServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * {@code verify}: finds a row changed directly on one backend and names table and backend, raises no false alarm
 * while clients write, {@code --repair} makes the copies identical, and bad input gets clear errors.
 */
class VerifyIT {
    /** Runs of the check under writes; the bench run of docs/admin.md sets 1,000. */
    private static final int RUNS_UNDER_WRITES = Integer.getInteger("raidb.verify.runs", 100);
    /** The loop stops after this many seconds even if the runs are not all done. */
    private static final int SECONDS_UNDER_WRITES = Integer.getInteger("raidb.verify.seconds", 60);

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    @BeforeEach
    void freshDatabases() {
        pg.cluster().ensureAllRunning();
        pg.cluster().recreateDatabases();
    }

    private static ControllerFixture threeBackends() throws Exception {
        return ControllerFixture.start(pg.controllerConfig("shop"), "shop");
    }

    private static AdminClient admin(ControllerFixture raidb) {
        return new AdminClient(
                URI.create("http://127.0.0.1:" + raidb.controller().adminPort()), "admin", "adminpw");
    }

    /** Starts a verify through the admin API, waits for its operation, returns the report the API then gives. */
    private static JsonNode verifyThroughApi(AdminClient admin, boolean repair) throws AdminCallException {
        JsonNode started =
                admin.post("/api/virtualdatabases/shop/verify", repair ? Map.of("repair", "true") : Map.of());
        long id = started.path("operation").path("id").asLong();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> !"running"
                        .equals(admin.get("/api/operations/" + id).path("state").asText()));
        JsonNode op = admin.get("/api/operations/" + id);
        assertThat(op.path("state").asText()).as(op.toString()).isEqualTo("succeeded");
        return admin.get("/api/virtualdatabases/shop/verify");
    }

    private static JsonNode table(JsonNode report, String name) {
        for (JsonNode t : report.path("tables")) {
            if (t.path("table").asText().equals(name)) {
                return t;
            }
        }
        throw new AssertionError("no table " + name + " in " + report);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    void findsARowChangedOnOneBackendNamesItAndRepairsIt() throws Exception {
        try (ControllerFixture raidb = threeBackends()) {
            AcknowledgedWrites.createSchema(raidb.url());
            execute(raidb, "INSERT INTO events VALUES (1, 1, 'one', 1.50), (2, 1, 'two', 2.00)");
            AdminClient admin = admin(raidb);
            assertThat(verifyThroughApi(admin, false).path("tablesDiffering").asInt())
                    .isZero();

            onServer(pg.server(1), "UPDATE events SET note = 'changed behind the controller' WHERE id = 2");
            JsonNode found = verifyThroughApi(admin, false);

            JsonNode events = table(found, "events");
            assertThat(events.path("state").asText()).isEqualTo("differing");
            assertThat(texts(events.path("differing"))).containsExactly("pg2");
            assertThat(events.path("reference").asText()).isIn("pg1", "pg3");
            assertThat(table(found, "counters").path("state").asText()).isEqualTo("identical");
            assertThat(found.path("tablesDiffering").asInt()).isEqualTo(1);

            JsonNode repaired = verifyThroughApi(admin, true);
            assertThat(texts(table(repaired, "events").path("repaired"))).containsExactly("pg2");
            Map<String, String> pg1 =
                    ControllerFixture.checksums(List.of(pg.server(0))).get("pg1");
            assertThat(ControllerFixture.checksums(pg.cluster().servers()).values())
                    .as("every backend's tables after the repair")
                    .allMatch(pg1::equals);
            assertThat(verifyThroughApi(admin, false).path("tablesDiffering").asInt())
                    .isZero();
            raidb.assertEveryBackendEnabled();
        }
    }

    @Test
    // The loop bounds itself (raidb.verify.seconds); the bench run of 1,000 takes about 10 minutes on a shared machine.
    @Timeout(value = 40, unit = TimeUnit.MINUTES)
    void noFalseAlarmWhileClientsWrite() throws Exception {
        try (ControllerFixture raidb = threeBackends()) {
            AcknowledgedWrites.createSchema(raidb.url());
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            List<VerifyReport> differing = new ArrayList<>();
            long runs = 0;
            long heldMax = 0;
            long heldTotal = 0;
            long writesDuring;
            try (SteadyWrites writes = SteadyWrites.start(raidb.url(), 6)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> writes.done.get() >= 200);
                long before = writes.done.get();
                long deadline = System.nanoTime()
                        + Duration.ofSeconds(SECONDS_UNDER_WRITES).toNanos();
                while (runs < RUNS_UNDER_WRITES && System.nanoTime() < deadline) {
                    VerifyReport r = vdb.verifier().verify(false).run(Progress.NONE);
                    runs++;
                    heldMax = Math.max(heldMax, r.writesHeldMillis());
                    heldTotal += r.writesHeldMillis();
                    if (!r.identical()) {
                        differing.add(r);
                    }
                }
                writesDuring = writes.done.get() - before;
                writes.close();
                assertThat(writes.errors).as("errors clients saw").isEmpty();
            }
            System.out.printf(
                    "verify under writes: %d runs, %d writes acknowledged meanwhile, writes held %.1f ms on average,"
                            + " %d ms at most%n",
                    runs, writesDuring, (double) heldTotal / runs, heldMax);
            assertThat(differing).as("verifies that found a difference").isEmpty();
            assertThat(runs).as("runs done").isGreaterThanOrEqualTo(Math.min(RUNS_UNDER_WRITES, 20));
            assertThat(writesDuring).as("writes acknowledged while verifying").isPositive();
            raidb.assertEveryBackendEnabled();
        }
    }

    @Test
    void raidb2ComparesEachTableAmongItsHoldersAndRepairsPerTable() throws Exception {
        ControllerConfigXml config = pg.controllerConfig("shop")
                .replication("<raidb2/>")
                .tables("pg1", List.of("a", "b", "c"))
                .tables("pg2", List.of("a", "b"))
                .tables("pg3", List.of("a", "c"));
        try (ControllerFixture raidb = ControllerFixture.start(config, "shop")) {
            execute(
                    raidb,
                    "CREATE TABLE a (id int PRIMARY KEY, v int)",
                    "CREATE TABLE b (id int PRIMARY KEY, v int)",
                    "CREATE TABLE c (id int PRIMARY KEY, v int)",
                    "INSERT INTO a VALUES (1, 1), (2, 2)",
                    "INSERT INTO b VALUES (1, 1)",
                    "INSERT INTO c VALUES (1, 1)");
            onServer(pg.server(2), "DELETE FROM a WHERE id = 2");
            onServer(pg.server(1), "UPDATE b SET v = 7");
            AdminClient admin = admin(raidb);

            JsonNode report = verifyThroughApi(admin, true);

            JsonNode a = table(report, "a");
            assertThat(texts(a.path("holders"))).containsExactlyInAnyOrder("pg1", "pg2", "pg3");
            assertThat(texts(a.path("differing"))).containsExactly("pg3");
            assertThat(texts(a.path("repaired"))).containsExactly("pg3");
            JsonNode b = table(report, "b");
            assertThat(texts(b.path("holders"))).containsExactlyInAnyOrder("pg1", "pg2");
            assertThat(b.path("state").asText()).isEqualTo("differing");
            assertThat(texts(b.path("differing"))).containsExactlyInAnyOrder("pg1", "pg2");
            assertThat(texts(b.path("repaired"))).isEmpty();
            assertThat(b.path("note").asText()).contains("more than half");
            JsonNode c = table(report, "c");
            assertThat(texts(c.path("holders"))).containsExactlyInAnyOrder("pg1", "pg3");
            assertThat(c.path("state").asText()).isEqualTo("identical");

            JsonNode after = verifyThroughApi(admin, false);
            assertThat(table(after, "a").path("state").asText()).isEqualTo("identical");
            assertThat(table(after, "b").path("state").asText()).isEqualTo("differing");
        }
    }

    @Test
    void aScheduledVerifyPutsItsResultInTheAdminApi() throws Exception {
        try (ControllerFixture raidb =
                ControllerFixture.start(pg.controllerConfig("shop").extraXml("<verify every=\"1s\"/>"), "shop")) {
            AcknowledgedWrites.createSchema(raidb.url());
            AdminClient admin = admin(raidb);
            // Until the first scheduled run, the API answers 404 ("has not been verified"): wait past it.
            await().atMost(Duration.ofSeconds(60))
                    .ignoreExceptionsInstanceOf(org.raidb.controller.admin.client.AdminCallException.class)
                    .untilAsserted(() -> assertThat(admin.get("/api/virtualdatabases/shop/verify")
                                    .path("tablesIdentical")
                                    .asInt())
                            .isEqualTo(2));
            assertThat(raidb.controller().virtualDatabase("shop").verifier().lastReport())
                    .hasValueSatisfying(r -> assertThat(r.backends()).containsExactly("pg1", "pg2", "pg3"));
        }
    }

    @Test
    void anUnknownVirtualDatabaseIsA404AndTheControllerServesOn() throws Exception {
        try (ControllerFixture raidb = threeBackends()) {
            AdminClient admin = admin(raidb);
            assertThatThrownBy(() -> admin.post("/api/virtualdatabases/nope/verify", Map.of()))
                    .isInstanceOfSatisfying(AdminCallException.class, e -> {
                        assertThat(e.status()).isEqualTo(404);
                        assertThat(e.getMessage()).contains("unknown virtual database 'nope'");
                    });
            assertThatThrownBy(() -> admin.post("/api/virtualdatabases/shop/verify", Map.of("repair", "maybe")))
                    .isInstanceOfSatisfying(
                            AdminCallException.class,
                            e -> assertThat(e.status()).isEqualTo(400));
            assertThatThrownBy(() -> admin.get("/api/virtualdatabases/shop/verify"))
                    .isInstanceOfSatisfying(AdminCallException.class, e -> {
                        assertThat(e.status()).isEqualTo(404);
                        assertThat(e.getMessage()).contains("has not been verified");
                    });
            AcknowledgedWrites.createSchema(raidb.url());
            assertThat(verifyThroughApi(admin, false).path("tablesIdentical").asInt())
                    .isEqualTo(2);
        }
    }

    @Test
    void aBackendDisabledMidVerifyIsLeftOutWithANote() throws Exception {
        try (ControllerFixture raidb = threeBackends()) {
            AcknowledgedWrites.createSchema(raidb.url());
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            VerifyReport r = vdb.verifier()
                    .verify(
                            false,
                            () -> vdb.disableBackend(vdb.backends().get(2), "test: disabled mid-verify")
                                    .join())
                    .run(Progress.NONE);

            assertThat(r.backends()).containsExactly("pg1", "pg2");
            assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("backend pg3 was disabled during the verify"));
            assertThat(r.tables()).allSatisfy(t -> assertThat(t.holders()).containsExactly("pg1", "pg2"));
            assertThat(r.identical()).isTrue();
            execute(raidb, "INSERT INTO events VALUES (9, 1, 'after', 1)");
            assertThat(vdb.verifier().verify(false).run(Progress.NONE).backends())
                    .containsExactly("pg1", "pg2");
        }
    }

    @Test
    void aTableDroppedMidVerifyIsSkippedWithANote() throws Exception {
        try (ControllerFixture raidb = threeBackends()) {
            AcknowledgedWrites.createSchema(raidb.url());
            execute(raidb, "CREATE TABLE doomed (id int PRIMARY KEY)", "INSERT INTO doomed VALUES (1)");
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            VerifyReport r = vdb.verifier()
                    .verify(false, () -> {
                        try {
                            execute(raidb, "DROP TABLE doomed");
                        } catch (SQLException e) {
                            throw new IllegalStateException(e);
                        }
                    })
                    .run(Progress.NONE);

            TableVerdict doomed = r.tables().stream()
                    .filter(t -> t.table().equals("doomed"))
                    .findFirst()
                    .orElseThrow();
            assertThat(doomed.state()).isEqualTo(TableVerdict.SKIPPED);
            assertThat(doomed.note()).contains("dropped during the verify");
            assertThat(r.tablesIdentical()).isEqualTo(2);
            assertThat(r.identical()).isTrue();
            raidb.assertEveryBackendEnabled();
        }
    }

    @Test
    void aMariaDbBackendIsComparedWithThePortableChecksum() throws Exception {
        List<String> databases = List.of("raidb_verify_it");
        MariaDbBackends.recreate(databases); // skipped, saying why, without a MariaDB
        try {
            StringBuilder backends = new StringBuilder();
            for (EmbeddedPostgresServer s : pg.cluster().servers().subList(0, 2)) {
                backends.append("<backend name=\"%s\" url=\"%s\" user=\"%s\" password=\"%s\"/>\n"
                        .formatted(s.name(), s.jdbcUrl(), s.user(), s.password()));
            }
            backends.append("<backend name=\"maria\" url=\"%s\" user=\"%s\" password=\"%s\"/>\n"
                    .formatted(MariaDbServer.jdbcUrl(databases.get(0)), MariaDbServer.USER, MariaDbServer.PASSWORD));
            try (ControllerFixture raidb = ControllerFixture.startFromXml("""
                    <raidb>
                      <controller port="0" adminPort="0" dataDir="DATA"/>
                      <virtualDatabase name="shop">
                        <authentication><admin user="admin" password="adminpw"/><virtualUser name="app" password="apppw"/></authentication>
                    %s    <raidb1 readPolicy="roundRobin" completion="all"/>
                      </virtualDatabase>
                    </raidb>
                    """.formatted(backends), "shop")) {
                AcknowledgedWrites.createSchema(raidb.url());
                execute(raidb, "INSERT INTO events VALUES (1, 1, 'one', 1.50), (2, 1, 'two', 20)");
                AdminClient admin = admin(raidb);
                JsonNode same = verifyThroughApi(admin, false);
                assertThat(table(same, "events").path("method").asText()).isEqualTo("portable");
                assertThat(same.path("tablesDiffering").asInt()).isZero();

                try (Connection c = MariaDbServer.connect(databases.get(0));
                        Statement s = c.createStatement()) {
                    s.executeUpdate("UPDATE events SET amount = 21 WHERE id = 2");
                }
                JsonNode found = verifyThroughApi(admin, false);
                assertThat(texts(table(found, "events").path("differing"))).containsExactly("maria");
            }
        } finally {
            MariaDbBackends.drop(databases);
        }
    }

    /**
     * Clients that keep the tables the same size, so that a thousand verifies cost the same: each inserts a row and
     * deletes its own row of 50 writes before (auto-commit), and in a transaction moves an amount between two
     * counters and inserts a row, rolling back one transaction in ten.
     */
    private static final class SteadyWrites implements AutoCloseable {
        final java.util.concurrent.atomic.AtomicLong done = new java.util.concurrent.atomic.AtomicLong();
        final java.util.Queue<String> errors = new java.util.concurrent.ConcurrentLinkedQueue<>();
        private final java.util.concurrent.atomic.AtomicBoolean running =
                new java.util.concurrent.atomic.AtomicBoolean(true);
        private final List<Thread> threads = new ArrayList<>();

        static SteadyWrites start(String url, int clients) {
            SteadyWrites w = new SteadyWrites();
            for (int i = 0; i < clients; i++) {
                int writer = i;
                Thread t = new Thread(() -> w.write(url, writer), "steady-writes-" + i);
                t.setDaemon(true);
                w.threads.add(t);
                t.start();
            }
            return w;
        }

        private void write(String url, int writer) {
            try (Connection c = java.sql.DriverManager.getConnection(
                            url, ControllerFixture.USER, ControllerFixture.PASSWORD);
                    java.sql.PreparedStatement insert =
                            c.prepareStatement("INSERT INTO events (id, writer, note, amount) VALUES (?, ?, ?, ?)");
                    java.sql.PreparedStatement delete = c.prepareStatement("DELETE FROM events WHERE id = ?");
                    java.sql.PreparedStatement move =
                            c.prepareStatement("UPDATE counters SET n = n + ? WHERE writer = ?")) {
                for (long seq = 0; running.get(); seq++) {
                    long id = writer * 100_000_000L + seq;
                    try {
                        insert.setLong(1, id);
                        insert.setInt(2, writer);
                        insert.setString(3, "row " + id);
                        insert.setBigDecimal(4, java.math.BigDecimal.valueOf(id % 10_000, 2));
                        insert.executeUpdate();
                        delete.setLong(1, id - 50);
                        delete.executeUpdate();
                        c.setAutoCommit(false);
                        move.setInt(1, -1);
                        move.setInt(2, writer);
                        move.executeUpdate();
                        move.setInt(1, 1);
                        move.setInt(2, (writer + 1) % 64);
                        move.executeUpdate();
                        if (seq % 10 == 9) {
                            c.rollback();
                        } else {
                            c.commit();
                        }
                        done.incrementAndGet();
                    } catch (SQLException e) {
                        errors.add(e.getSQLState() + ": " + e.getMessage());
                        c.rollback();
                    } finally {
                        c.setAutoCommit(true);
                    }
                }
            } catch (SQLException e) {
                errors.add("connection: " + e.getSQLState() + ": " + e.getMessage());
            }
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            for (Thread t : threads) {
                t.join(60_000);
            }
        }
    }

    private static void execute(ControllerFixture raidb, String... statements) throws SQLException {
        try (Connection c = raidb.connect();
                Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    private static void onServer(EmbeddedPostgresServer server, String sql) throws SQLException {
        try (Connection c = server.connect();
                Statement s = c.createStatement()) {
            assertThat(s.executeUpdate(sql)).as(sql).isPositive();
        }
    }
}
