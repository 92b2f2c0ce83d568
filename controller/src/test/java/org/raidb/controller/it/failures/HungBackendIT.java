package org.raidb.controller.it.failures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.recovery.DisableCause;
import org.raidb.test.AnswerLosingProxy;
import org.raidb.test.FrozenServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * Issue 11: a backend that hangs (its server stopped with SIGSTOP, or a network partition that drops
 * packets without a reset) no longer stops every client. After {@code backendTimeout} it is disabled,
 * its connections aborted, and clients go on with the others; {@code enable} brings it back by replay
 * once it answers again. A statement that is long on every backend disables nobody.
 */
class HungBackendIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static final int BACKEND_TIMEOUT_MS = 3_000;
    private static final String HANG = "did not answer within backendTimeout (3 s) while others did";
    /**
     * How long the server stays stopped in the main scenario with completion all: 20 s, as in the issue,
     * where every write waited for every backend and all clients stopped as long as the server did.
     * With majority and first it stays stopped until it is disabled and 100 more commits went through:
     * what their assertions look at; another 20 s of the same would add nothing to them.
     */
    private static Duration stopped(String completion) {
        return completion.equals("all") ? Duration.ofSeconds(20) : Duration.ZERO;
    }

    /** The bound is backendTimeout; this much more absorbs a machine shared with other builds. */
    private static final Duration SLACK = Duration.ofSeconds(15);

    private static ControllerFixture start(String completion, int probeIntervalMillis) throws Exception {
        return start(pg.controllerConfig("shop"), completion, probeIntervalMillis);
    }

    private static ControllerFixture start(
            org.raidb.test.ControllerConfigXml config, String completion, int probeIntervalMillis) throws Exception {
        return ControllerFixture.start(
                config.extraXml("<health backendTimeout=\"" + BACKEND_TIMEOUT_MS + "\" probeInterval=\""
                                + probeIntervalMillis + "\"/>")
                        .replication("<raidb1 readPolicy=\"roundRobin\" completion=\"" + completion + "\"/>"),
                "shop");
    }

    private static double perSecond(long count, long fromNanos, long toNanos) {
        return count * 1e9 / Math.max(1, toNanos - fromNanos);
    }

    @ParameterizedTest(name = "completion {0}")
    @ValueSource(strings = {"all", "majority", "first"})
    void aStoppedBackendIsDisabledAfterBackendTimeoutWhileClientsGoOnAndEnableBringsItBack(String completion)
            throws Exception {
        pg.cluster().recreateDatabases();
        EmbeddedPostgresServer victim = pg.server(2);
        try (ControllerFixture raidb = start(completion, 1_000)) {
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            DatabaseBackend pg3 = vdb.backend(victim.name());
            OrderWorkload.createTables(raidb.url());
            OrderWorkload load = OrderWorkload.start(raidb.url(), 6, 2);
            try (load) {
                await().atMost(Duration.ofSeconds(60)).until(() -> load.commits() >= 300);
                long warmStart = System.nanoTime();
                long commitsWarm = load.commits();
                await().atMost(Duration.ofSeconds(60)).until(() -> load.commits() >= commitsWarm + 300);
                long commitsAtFreeze = load.commits();
                double before = perSecond(commitsAtFreeze - commitsWarm, warmStart, System.nanoTime());
                long frozenAt;
                long disabledAt;
                long continuedAt;
                long commitsAtDisable;
                long commitsAtContinue;
                try (FrozenServer frozen = FrozenServer.freeze(victim)) {
                    frozenAt = System.nanoTime();
                    await().atMost(Duration.ofMillis(BACKEND_TIMEOUT_MS).plus(SLACK))
                            .until(() -> !pg3.isEnabled());
                    disabledAt = System.nanoTime();
                    commitsAtDisable = load.commits();
                    // Clients keep committing on pg1 and pg2 while pg3's server is still stopped.
                    Duration stopped = stopped(completion);
                    await().atMost(stopped.plus(SLACK))
                            .until(() -> System.nanoTime() - frozenAt >= stopped.toNanos()
                                    && load.commits() >= commitsAtDisable + 100);
                    commitsAtContinue = load.commits();
                    continuedAt = System.nanoTime();
                    assertThat(frozen.processes())
                            .as("postmaster and its children stopped")
                            .isGreaterThan(1);
                }
                String reason = pg3.disabledReason();
                assertThat(reason).startsWith(HANG);
                assertThat(pg3.disableCause().kind()).isEqualTo(DisableCause.Kind.FAILURE);
                System.out.printf(
                        "hung backend, completion %s: %.0f commits/s before the stop; pg3 disabled %d ms after"
                                + " SIGSTOP (%.0f commits/s meanwhile); %.0f commits/s on pg1+pg2 while pg3 stayed stopped (%d commits"
                                + " in %d ms); reason: %s%n",
                        completion,
                        before,
                        (disabledAt - frozenAt) / 1_000_000,
                        perSecond(commitsAtDisable - commitsAtFreeze, frozenAt, disabledAt),
                        perSecond(commitsAtContinue - commitsAtDisable, disabledAt, continuedAt),
                        commitsAtContinue - commitsAtDisable,
                        (continuedAt - disabledAt) / 1_000_000,
                        reason);
                assertThat(vdb.backend("pg1").isEnabled()).isTrue();
                assertThat(vdb.backend("pg2").isEnabled()).isTrue();

                // Its checkpoint is recorded once what it was running is settled (aborted: in doubt there).
                await().atMost(Duration.ofSeconds(60)).until(() -> pg3.lastCheckpoint() != null);
                long beforeEnable = load.commits();
                await().atMost(Duration.ofSeconds(30)).until(() -> load.commits() >= beforeEnable + 50);
                String joinedAt = vdb.recovery().enable(pg3).run(Progress.NONE); // while the clients write
                assertThat(joinedAt).contains("-enabled");
                long afterEnable = load.commits();
                await().atMost(Duration.ofSeconds(30)).until(() -> load.commits() >= afterEnable + 50);
            }
            assertThat(load.errorSamples)
                    .as("errors clients saw with completion %s", completion)
                    .isEmpty();
            assertThat(pg3.isEnabled()).isTrue();
            List<EmbeddedPostgresServer> all = pg.cluster().servers();
            // With first or majority the last backend may still be finishing the last commits.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Map<String, Map<String, String>> sums = ControllerFixture.checksums(all);
                assertThat(sums.get("pg2")).isEqualTo(sums.get("pg1"));
                assertThat(sums.get("pg3")).isEqualTo(sums.get("pg1"));
            });
            for (EmbeddedPostgresServer s : all) {
                assertThat(OrderWorkload.orders(s)).as("orders on %s", s.name()).isEqualTo(load.commits());
            }
        }
    }

    @Test
    void aStatementLongerThanBackendTimeoutOnEveryBackendDisablesNobody() throws Exception {
        pg.cluster().recreateDatabases();
        try (ControllerFixture raidb = start("all", 1_000);
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE slow (id INT PRIMARY KEY, n INT NOT NULL)");
            st.execute("INSERT INTO slow VALUES (1, 0)");
            // Twice backendTimeout on every backend: the others answer no sooner than the slow one.
            assertThat(st.executeUpdate(
                            "UPDATE slow SET n = n + 1 FROM (SELECT pg_sleep(6)) AS pause WHERE slow.id = 1"))
                    .isEqualTo(1);
            // A read runs on one backend: its health probe answers, so it is only long.
            try (ResultSet rs = st.executeQuery("SELECT n FROM slow, (SELECT pg_sleep(6)) AS pause WHERE id = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(1);
            }
            assertThat(raidb.controller().virtualDatabase("shop").backends())
                    .allSatisfy(b -> assertThat(b.isEnabled())
                            .as("%s: %s", b.name(), b.disabledReason())
                            .isTrue());
        }
    }

    @Test
    void anIdleStoppedBackendIsDisabledByTheHealthProbe() throws Exception {
        pg.cluster().recreateDatabases();
        EmbeddedPostgresServer victim = pg.server(2);
        try (ControllerFixture raidb = start("all", 1_000)) {
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            DatabaseBackend pg3 = vdb.backend(victim.name());
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE notes (id INT PRIMARY KEY)");
            }
            try (FrozenServer frozen = FrozenServer.freeze(victim)) {
                // No client touches it: only the probe can tell, within probeInterval + backendTimeout.
                await().atMost(Duration.ofMillis(1_000 + BACKEND_TIMEOUT_MS).plus(SLACK))
                        .until(() -> !pg3.isEnabled());
                assertThat(pg3.disabledReason()).startsWith(HANG).contains("health probe");
                try (Connection c = raidb.connect();
                        Statement st = c.createStatement()) {
                    assertThat(st.executeUpdate("INSERT INTO notes VALUES (1)")).isEqualTo(1);
                }
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> pg3.lastCheckpoint() != null);
            vdb.recovery().enable(pg3).run(Progress.NONE);
            Map<String, Map<String, String>> sums =
                    ControllerFixture.checksums(pg.cluster().servers());
            assertThat(sums.get("pg3")).isEqualTo(sums.get("pg1"));
        }
    }

    /** No writes to judge by and no periodic probe: the read's own watch finds the backend hung. */
    @Test
    void readsRoutedToAStoppedBackendFailOverWithinTheTimeout() throws Exception {
        pg.cluster().recreateDatabases();
        EmbeddedPostgresServer victim = pg.server(2);
        try (ControllerFixture raidb = start("all", 0);
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            DatabaseBackend pg3 = raidb.controller().virtualDatabase("shop").backend(victim.name());
            st.execute("CREATE TABLE items (id INT PRIMARY KEY)");
            st.execute("INSERT INTO items SELECT generate_series(1, 10)");
            long slowest = 0;
            try (FrozenServer frozen = FrozenServer.freeze(victim)) {
                // Round robin over three backends: among six reads, some go to pg3.
                for (int i = 0; i < 6; i++) {
                    long start = System.nanoTime();
                    try (ResultSet rs = st.executeQuery("SELECT count(*) FROM items")) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getInt(1)).isEqualTo(10);
                    }
                    slowest = Math.max(slowest, System.nanoTime() - start);
                }
                assertThat(pg3.isEnabled()).isFalse();
                // Found by the read's watch, or by the pool when the read waited for a connection there.
                assertThat(pg3.disabledReason()).startsWith(HANG);
            }
            assertThat(Duration.ofNanos(slowest))
                    .as("the read that met pg3 went elsewhere within backendTimeout")
                    .isLessThan(Duration.ofMillis(BACKEND_TIMEOUT_MS).plus(SLACK));
            System.out.printf(
                    "hung backend, reads only: the slowest read took %d ms (backendTimeout %d ms)%n",
                    slowest / 1_000_000, BACKEND_TIMEOUT_MS);
        }
    }

    /** A partition that drops packets without a reset looks like a stopped server: writes go on without pg3. */
    @Test
    void aPartitionWithoutResetIsAHangAndHealsByEnable() throws Exception {
        pg.cluster().recreateDatabases();
        EmbeddedPostgresServer behind = pg.server(2);
        try (AnswerLosingProxy proxy = new AnswerLosingProxy(behind.port());
                ControllerFixture raidb = start(
                        pg.controllerConfig("shop").throughPort(behind.name(), proxy.port()), "majority", 1_000)) {
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            DatabaseBackend pg3 = vdb.backend(behind.name());
            OrderWorkload.createTables(raidb.url());
            OrderWorkload load = OrderWorkload.start(raidb.url(), 4, 1);
            try (load) {
                await().atMost(Duration.ofSeconds(60)).until(() -> load.commits() >= 200);
                proxy.partition();
                try {
                    await().atMost(Duration.ofMillis(BACKEND_TIMEOUT_MS).plus(SLACK))
                            .until(() -> !pg3.isEnabled());
                    long atDisable = load.commits();
                    await().atMost(SLACK).until(() -> load.commits() >= atDisable + 100);
                } finally {
                    proxy.heal();
                }
                assertThat(pg3.disabledReason()).startsWith(HANG);
                await().atMost(Duration.ofSeconds(60)).until(() -> pg3.lastCheckpoint() != null);
                vdb.recovery().enable(pg3).run(Progress.NONE);
            }
            assertThat(load.errorSamples).isEmpty();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Map<String, Map<String, String>> sums =
                        ControllerFixture.checksums(pg.cluster().servers());
                assertThat(sums.get("pg3")).isEqualTo(sums.get("pg1"));
                assertThat(sums.get("pg2")).isEqualTo(sums.get("pg1"));
            });
        }
    }
}
