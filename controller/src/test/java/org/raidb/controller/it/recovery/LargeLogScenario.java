package org.raidb.controller.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.admin.client.AdminCallException;
import org.raidb.controller.admin.client.AdminClient;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.recovery.LogEntry;
import org.raidb.recovery.Outcome;
import org.raidb.recovery.PendingAppend;
import org.raidb.recovery.RecoveryLog;
import org.raidb.recovery.RecoveryLogConfig;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;

/**
 * A controller whose recovery log holds more than a million entries (issue 15), run once per kind of
 * log store by the subclasses. The log is built fast: entries appended through the controller's own log
 * in batches of 1,000 (as {@code bench recovery-log --entries} does), and their effect applied to the
 * backends that were enabled meanwhile in bulk SQL, so that the replicas are really identical after a
 * replay. One entry in ten is {@code v = (v * 31 + n) % p} on one of 100 accounts: the accounts' final
 * values, computed here, are only reached by a replay in log order.
 *
 * <p>Then, on the same controller: pg3, disabled before the last entries (all or part of them) were
 * built, is enabled through the admin API and replays them (time to the first applied batch and the
 * rate are printed); a purge of more than a million entries runs while clients write and an
 * administrator polls the API (answers and the slowest printed, failures asserted absent), after pg2
 * was disabled and pg3 dumped at later checkpoints: a purge past those is refused naming them, and
 * after the purge pg2 enabled from its checkpoint and pg3 restored from the dump and enabled end
 * identical, every acknowledged write on every backend; the controller
 * restarts on the log (time printed); and a store whose schema version is newer keeps the virtual
 * database from being served, saying why. Times are printed, never asserted.
 */
abstract class LargeLogScenario {

    /**
     * Clients writing during the purge. Four, not the sixteen of the benchmark (`bench recovery-log`): a purge
     * paces itself while clients write, and everything they write meanwhile is replayed to two backends
     * afterwards; with sixteen the class took four of its five minutes on an idle machine.
     */
    static final int WRITERS = 4;

    /**
     * Each writer's pace during the purge: 100 writes a second, a few hundred log entries a second in all. At
     * full speed the writes made while the purge ran (39,000 in 38 s on an idle machine) were then replayed to
     * two backends while the writers went on, and a slower machine (CI) took more than five minutes.
     */
    static final int WRITES_PER_SECOND = 100;

    static final String VDB = "shop";
    private static final String API = "/api/virtualdatabases/" + VDB;
    private static final int ENTRIES = 1_000_000;
    private static final int BATCH = 1_000;
    private static final int ACCOUNTS = 100;
    private static final long MODULUS = 1_000_000_007L;
    private static final String INSERT = "INSERT INTO hist (id, acc, amount) VALUES (?, ?, ?)";
    private static final String UPDATE = "UPDATE acc SET v = (v * 31 + ?) % " + MODULUS + " WHERE id = ?";
    private static final String DUMP = "large-log-nightly";

    /** Each account's value after the entries built so far, in log order. */
    private final long[] accounts = new long[ACCOUNTS];

    private final StringBuilder figures = new StringBuilder();
    private List<EmbeddedPostgresServer> servers;

    /** The controller's configuration file and data directory (the default log store among them). */
    @TempDir
    Path dir;

    private ControllerConfigXml config;
    private ControllerFixture raidb;
    private AdminClient admin;
    private RecoveryLog log;

    private final PostgresClusterExtension pg;
    private final String store;
    private final int replayed;

    /**
     * @param pg the cluster: its first three servers are the backends pg1, pg2, pg3
     * @param store the store's name in the printed figures
     * @param replayed entries at the end of the log that pg3 misses and its enable replays (the log holds
     *     a million anyway)
     */
    LargeLogScenario(PostgresClusterExtension pg, String store, int replayed) {
        this.pg = pg;
        this.store = store;
        this.replayed = replayed;
    }

    /** The {@code <recoveryLog>} element of the store; none for the default H2 file under the data directory. */
    String recoveryLogXml() throws Exception {
        return "";
    }

    @Test
    void enablePurgeAndRestartOnAMillionEntryLog() throws Exception {
        run();
    }

    private void run() throws Exception {
        servers = pg.cluster().servers().subList(0, 3);
        config = pg.controllerConfig(VDB)
                .backends(servers)
                .extraXml(recoveryLogXml())
                .dataDir(dir.resolve("data"));
        try {
            start();
            createTables();
            String old = buildWithPg3DisabledBefore(replayed);
            enableFromTheOldCheckpoint();
            String pg2At = purgeUnderWriteLoad(old);
            restart(pg2At, old);
            newerSchemaVersion();
        } finally {
            if (raidb != null) {
                raidb.close();
            }
            System.out.printf("large recovery log, %s store:%n%s", store, figures);
        }
    }

    private void start() throws Exception {
        raidb = ControllerFixture.start(config, VDB, dir);
        admin = new AdminClient(
                URI.create("http://127.0.0.1:" + raidb.controller().adminPort()), "admin", "adminpw");
        log = raidb.controller().virtualDatabase(VDB).writeLog().log();
    }

    private void createTables() throws SQLException {
        AcknowledgedWrites.createSchema(raidb.url());
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE acc (id INT PRIMARY KEY, v BIGINT NOT NULL)");
            st.execute("CREATE TABLE hist (id BIGINT PRIMARY KEY, acc INT NOT NULL, amount INT NOT NULL)");
            st.execute("INSERT INTO acc (id, v) SELECT g, g FROM generate_series(0, " + (ACCOUNTS - 1) + ") g");
        }
        for (int a = 0; a < ACCOUNTS; a++) {
            accounts[a] = a;
        }
    }

    /** A log of a million entries, pg3 disabled (through the API) before the last {@code missed} of them. */
    private String buildWithPg3DisabledBefore(int missed) throws Exception {
        int first = ENTRIES - missed;
        double seconds = build(0, first, servers);
        String old = disable("pg3");
        assertThat(log.checkpointPosition(old))
                .as("pg3's checkpoint is where the log ended when it was disabled")
                .hasValue(log.lastPosition());
        seconds += build(first, ENTRIES, servers.subList(0, 2));
        report(
                "built %,d entries through the controller's log in %.1f s (%,.0f entries/s), %s bytes per entry",
                ENTRIES,
                seconds,
                ENTRIES / seconds,
                log.bytesPerEntry().isPresent()
                        ? String.format(Locale.ROOT, "%.0f", log.bytesPerEntry().getAsDouble())
                        : "unknown");
        assertThat(log.entriesBetween(0, log.lastPosition())).isGreaterThanOrEqualTo(ENTRIES);
        return old;
    }

    /**
     * Appends entries {@code from} to {@code to} to the log in batches of 1,000 and applies them to {@code
     * enabled} in bulk; returns the seconds the log took (the backends' bulk SQL excluded).
     */
    private double build(int from, int to, List<EmbeddedPostgresServer> enabled) throws Exception {
        long t0 = System.nanoTime();
        PendingAppend last = null;
        List<LogEntry> batch = new ArrayList<>(BATCH);
        for (int i = from; i < to; i += BATCH) {
            batch.clear();
            for (long n = i; n < Math.min(to, i + BATCH); n++) {
                batch.add(entry(n).withOutcome(Outcome.SUCCESS));
            }
            List<PendingAppend> appended = log.appendAllAsync(batch);
            last = appended.get(appended.size() - 1);
        }
        if (last != null) {
            last.await();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        List<CompletableFuture<Void>> bulk = new ArrayList<>();
        for (EmbeddedPostgresServer s : enabled) {
            bulk.add(CompletableFuture.runAsync(() -> applyInBulk(s, from, to)));
        }
        CompletableFuture.allOf(bulk.toArray(CompletableFuture[]::new)).join();
        return seconds;
    }

    /**
     * Entry {@code n}: one in ten an update of an account, whose value then depends on the order. An
     * account gets three updates in a row (10 entries apart), then the next account: a replay that
     * reorders entries even within a window of 30, not only whole batches, ends with other values.
     */
    private LogEntry entry(long n) {
        if (n % 10 == 9) {
            int account = (int) ((n / 30) % ACCOUNTS);
            accounts[account] = (accounts[account] * 31 + n) % MODULUS;
            return LogEntry.autoCommitWrite(ControllerFixture.USER, UPDATE, List.of(n, account), List.of("acc"));
        }
        return LogEntry.autoCommitWrite(
                ControllerFixture.USER, INSERT, List.of(n, (int) (n % ACCOUNTS), (int) (n % 7)), List.of("hist"));
    }

    /** What entries {@code from} to {@code to} did, straight on one backend: the rows, then the accounts' values. */
    private void applyInBulk(EmbeddedPostgresServer s, int from, int to) {
        try (Connection c = s.connect();
                Statement st = c.createStatement();
                PreparedStatement set = c.prepareStatement("UPDATE acc SET v = ? WHERE id = ?")) {
            st.executeUpdate("INSERT INTO hist (id, acc, amount) SELECT g, g % " + ACCOUNTS + ", g % 7"
                    + " FROM generate_series(" + from + ", " + (to - 1) + ") g WHERE g % 10 <> 9");
            for (int a = 0; a < ACCOUNTS; a++) {
                set.setLong(1, accounts[a]);
                set.setInt(2, a);
                set.addBatch();
            }
            set.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException(s.name() + ": bulk apply of entries " + from + " to " + to, e);
        }
    }

    private void enableFromTheOldCheckpoint() throws Exception {
        enable("pg3", replayed);
        assertAccountsOnEveryBackend();
        try (Connection c = servers.get(2).connect()) {
            assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM hist"))
                    .as("history rows on pg3 after the replay")
                    .isEqualTo(ENTRIES - ENTRIES / 10);
        }
        ReplicaChecks.assertIdentical(servers);
    }

    /**
     * Purges more than a million entries while {@link #WRITERS} clients write, pg2 disabled at a later checkpoint and a
     * dump of pg3 taken at a later one still; then pg2 is enabled from its checkpoint and pg3 restored from
     * the dump and enabled, and every backend holds every acknowledged write. Returns pg2's checkpoint.
     */
    private String purgeUnderWriteLoad(String old) throws Exception {
        long cut = checkpoint("large-log-cut");
        long toDelete = log.entriesBetween(0, cut);
        assertThat(toDelete).as("entries before the cut").isGreaterThanOrEqualTo(ENTRIES);
        String pg2At;
        AcknowledgedWrites writes = AcknowledgedWrites.start(raidb.url(), WRITERS, WRITES_PER_SECOND);
        try (writes) {
            writes.awaitMore(200);
            pg2At = disable("pg2");
            writes.awaitMore(200);
            String dumpAt = backup("pg3");
            writes.awaitMore(200);
            checkpoint("too-late");
            HttpResponse<String> refused = post(API + "/purge?before=too-late");
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
            assertThat(json(refused).get("error").asText())
                    .startsWith("Cannot purge the recovery log of shop before too-late: still needed by")
                    .contains("backend pg2 (")
                    .contains(" at checkpoint " + pg2At + ")")
                    .contains("dump " + DUMP + " (checkpoint " + dumpAt + ")");

            long durable = log.lastDurablePosition();
            long kept = log.entriesBetween(cut, durable);
            AdminPolling polling = AdminPolling.start(admin, List.of(API + "/backends", API + "/checkpoints"));
            long t0 = System.nanoTime();
            HttpResponse<String> purge;
            long answers;
            try (polling) {
                purge = post(API + "/purge?before=large-log-cut");
            } finally {
                answers = polling.stop();
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            int acknowledged = writes.acknowledged.size();
            report(
                    "purged %,d entries in %.1f s while %d clients wrote (%,d writes acknowledged by its end);"
                            + " the admin API answered %,d requests meanwhile (%s)",
                    toDelete, seconds, WRITERS, acknowledged, answers, polling.describe());
            assertThat(purge.statusCode()).as(purge.body()).isEqualTo(200);
            assertThat(json(purge).get("entriesDeleted").asLong()).isEqualTo(toDelete);
            assertThat(polling.failures)
                    .as("admin requests that failed during the purge")
                    .isEmpty();
            assertThat(answers).as("admin requests answered during the purge").isPositive();
            assertThat(log.entriesBetween(0, cut))
                    .as("entries left before the cut")
                    .isZero();
            assertThat(log.entriesBetween(cut, durable))
                    .as("entries after the cut, which pg2 and the dump need")
                    .isEqualTo(kept);
            assertThatThrownBy(() -> log.replayFrom(old)).hasMessageContaining("No checkpoint " + old);

            writes.awaitMore(200);
            enable("pg2", -1);
            disable("pg3");
            long r0 = System.nanoTime();
            operation("restore pg3", admin.post(API + "/backends/pg3/restore?dump=" + DUMP));
            report("restore of pg3 from %s: %.1f s", DUMP, (System.nanoTime() - r0) / 1e9);
            enable("pg3", -1);
            writes.awaitMore(200);
            writes.stop();
            assertThat(writes.errors).as("errors clients saw").isEmpty();
        }
        BackendRecoveryIT.assertIdenticalAndComplete(writes, servers);
        assertAccountsOnEveryBackend();
        return pg2At;
    }

    private void restart(String pg2At, String old) throws Exception {
        long lastBeforeStop = log.lastPosition();
        raidb.close();
        raidb = null;
        long t0 = System.nanoTime();
        start();
        report("restart on the log: %.2f s", (System.nanoTime() - t0) / 1e9);
        List<String> checkpoints = new ArrayList<>();
        admin.get(API + "/checkpoints")
                .get("checkpoints")
                .forEach(c -> checkpoints.add(c.get("name").asText()));
        assertThat(checkpoints).contains("large-log-cut", pg2At, "too-late").doesNotContain(old);
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            assertThat(st.executeUpdate("INSERT INTO hist (id, acc, amount) VALUES (-1, 0, 0)"))
                    .isEqualTo(1);
        }
        for (EmbeddedPostgresServer s : servers) {
            try (Connection c = s.connect()) {
                assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM hist WHERE id = -1"))
                        .as("the write after the restart on %s", s.name())
                        .isEqualTo(1);
            }
        }
        assertThat(log.lastPosition()).isGreaterThan(lastBeforeStop);
    }

    /**
     * The store's schema version made newer than this controller's: the virtual database is not
     * served and says why, another one of the same controller is.
     */
    private void newerSchemaVersion() throws Exception {
        RecoveryLogConfig logStore = log.config();
        raidb.close();
        raidb = null;
        try (Connection c = DriverManager.getConnection(logStore.jdbcUrl(), logStore.user(), logStore.password());
                Statement st = c.createStatement()) {
            assertThat(st.executeUpdate("UPDATE " + logStore.tablePrefix()
                            + "meta SET meta_value = '99' WHERE meta_key = 'schema_version'"))
                    .isEqualTo(1);
        }
        Path file = dir.resolve("with-other.xml");
        String xml = config.toXml(file).replace("</raidb>", otherVirtualDatabase(servers.get(0)) + "</raidb>");
        raidb = ControllerFixture.startFromFile(Files.writeString(file, xml), "other");
        try (Connection c = raidb.connect()) {
            assertThat(ReplicaChecks.count(c, "SELECT 1"))
                    .as("the other virtual database")
                    .isEqualTo(1);
        }
        String shop = raidb.url().replace("/other", "/" + VDB);
        assertThatThrownBy(() -> DriverManager.getConnection(shop, ControllerFixture.USER, ControllerFixture.PASSWORD))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("virtual database \"shop\" is configured but not served")
                .hasMessageContaining("has schema version 99; this controller reads version")
                .hasMessageContaining("it was written by a newer RAIDb")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"));
        assertThat(raidb.controller().virtualDatabase(VDB)).isNull();
    }

    /** A second virtual database on pg1's database, with a log of its own (the default store). */
    private static String otherVirtualDatabase(EmbeddedPostgresServer s) {
        return "  <virtualDatabase name=\"other\">\n    <authentication><admin user=\"admin\" password=\"adminpw\"/>"
                + "<virtualUser name=\"app\" password=\"apppw\"/></authentication>\n"
                + "    <backend name=\"pg1\" url=\"" + ControllerConfigXml.escape(s.jdbcUrl()) + "\" user=\""
                + ControllerConfigXml.escape(s.user()) + "\" password=\"" + ControllerConfigXml.escape(s.password())
                + "\"/>\n    <raidb1/>\n  </virtualDatabase>\n";
    }

    // ---- steps through the admin API ----------------------------------------------------------------

    private String disable(String backend) throws AdminCallException {
        return admin.post(API + "/backends/" + backend + "/disable")
                .get("backend")
                .get("lastCheckpoint")
                .asText();
    }

    private long checkpoint(String name) throws AdminCallException {
        return admin.post(API + "/checkpoints?name=" + name)
                .get("checkpoint")
                .get("writePosition")
                .asLong();
    }

    /** Takes a dump of the backend through the API (while clients write); returns its checkpoint. */
    private String backup(String backend) throws Exception {
        long t0 = System.nanoTime();
        operation("backup of " + backend, admin.post(API + "/backends/" + backend + "/backup?as=" + DUMP));
        report("backup of %s (%s): %.1f s", backend, DUMP, (System.nanoTime() - t0) / 1e9);
        for (JsonNode d : admin.get(API + "/dumps").get("dumps")) {
            if (d.get("name").asText().equals(DUMP)) {
                return d.get("checkpoint").asText();
            }
        }
        throw new AssertionError("dump " + DUMP + " not listed");
    }

    /**
     * Enables the backend through the API and waits for the replay to end; prints the time from the
     * request to the first applied batch and the rate. {@code entries}: what it must replay, -1 for
     * whatever it missed.
     */
    private void enable(String backend, long entries) throws Exception {
        long t0 = System.nanoTime();
        JsonNode start = admin.post(API + "/backends/" + backend + "/enable");
        String path = "/api/operations/" + start.get("operation").get("id").asLong();
        JsonNode started = await().pollInterval(Duration.ofMillis(10))
                .atMost(Duration.ofMinutes(4))
                .until(
                        () -> admin.get(path),
                        op -> op.get("done").asLong() > 0
                                || !op.get("state").asText().equals("running"));
        double firstSeconds = (System.nanoTime() - t0) / 1e9;
        JsonNode ended = operation("enable " + backend, start);
        double seconds = (System.nanoTime() - t0) / 1e9;
        long done = ended.get("done").asLong();
        // Once succeeded, an operation's total is its done; while it runs, it is what the replay counted.
        long counted = started.get("total").asLong();
        if (entries >= 0) {
            assertThat(done).as("entries replayed into %s", backend).isEqualTo(entries);
            assertThat(counted).as("the replay's total, read while it ran").isEqualTo(entries);
        }
        report(
                "enable %s: first batch applied %.2f s after the request (%,d of %,d entries by then), %,d entries"
                        + " replayed in %.1f s: %,.0f entries/s",
                backend, firstSeconds, started.get("done").asLong(), counted, done, seconds, done / seconds);
    }

    /** Waits for the operation an admin request started to end, which must be a success; returns it. */
    private JsonNode operation(String what, JsonNode start) {
        String path = "/api/operations/" + start.get("operation").get("id").asLong();
        JsonNode ended = await().pollInterval(Duration.ofMillis(50))
                .atMost(Duration.ofMinutes(4))
                .until(() -> admin.get(path), op -> !op.get("state").asText().equals("running"));
        assertThat(ended.get("state").asText())
                .as("%s: %s", what, ended.get("message"))
                .isEqualTo("succeeded");
        return ended;
    }

    /** A POST whose answer may take longer than the admin client waits (a purge): status and body. */
    private HttpResponse<String> post(String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + raidb.controller().adminPort() + path))
                .header(
                        "Authorization",
                        "Basic " + Base64.getEncoder().encodeToString("admin:adminpw".getBytes(StandardCharsets.UTF_8)))
                .timeout(Duration.ofMinutes(10))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(response.body());
    }

    /** Every backend holds each account's value as computed in log order. */
    private void assertAccountsOnEveryBackend() throws SQLException {
        List<String> expected = new ArrayList<>();
        for (int a = 0; a < ACCOUNTS; a++) {
            expected.add(a + "|" + accounts[a] + "|");
        }
        for (EmbeddedPostgresServer s : servers) {
            assertThat(ReplicaChecks.rowsOn(s, "SELECT id, v FROM acc ORDER BY id"))
                    .as("accounts on %s", s.name())
                    .isEqualTo(expected);
        }
    }

    private void report(String format, Object... args) {
        String line = String.format(Locale.ROOT, format, args);
        System.out.println("[" + store + "] " + line);
        figures.append("  ").append(line).append('\n');
    }
}
