package org.raidb.controller.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hawkular.agent.prometheus.types.Histogram;
import org.hawkular.agent.prometheus.types.MetricFamily;
import org.hawkular.agent.prometheus.types.MetricType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.config.ControllerSettings;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.test.PostgresClusterExtension;

/**
 * {@code /metrics} of a controller over two real PostgreSQL backends, read by a Prometheus text-format parser:
 * the request timers grow by what a client did, per kind; the backend gauges follow a backend disabled; the
 * pools, the scheduler and the recovery log publish; the admin port asks for an admin's credentials, and the
 * loopback listener exists only when configured.
 */
class MetricsIT {
    private static final String VDB = "shop";

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database(VDB);

    static ControllerFixture raidb;
    static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void startController() throws Exception {
        raidb = ControllerFixture.start(pg.controllerConfig(VDB).controllerAttribute("metricsPort", 0), VDB);
    }

    @AfterAll
    static void stopController() {
        if (raidb != null) {
            raidb.close();
        }
    }

    private static HttpResponse<String> get(int port, String authorization) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(30))
                .GET();
        if (authorization != null) {
            r.header("Authorization", authorization);
        }
        return http.send(r.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static PrometheusScrape scrape() throws Exception {
        HttpResponse<String> r = get(raidb.controller().adminPort(), basic("admin", "adminpw"));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain; version=0.0.4"));
        return PrometheusScrape.parse(r.body());
    }

    private static double backendState(PrometheusScrape s, String backend, String state) {
        return s.value("raidb_backend_state", "vdb", VDB, "backend", backend, "state", state);
    }

    private static double requests(PrometheusScrape s, String kind) {
        return s.value("raidb_requests_seconds", "vdb", VDB, "kind", kind, "outcome", "ok");
    }

    @Test
    void requestsBackendsPoolsSchedulerAndLogAreCountedAsTheClientWorks() throws Exception {
        try (Connection c = raidb.connect()) {
            PrometheusScrape before = scrape();
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE metered (id int PRIMARY KEY, v text)");
            }
            int writes = 7;
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO metered VALUES (?, ?)")) {
                for (int i = 0; i < writes; i++) {
                    insert.setInt(1, i);
                    insert.setString(2, "v" + i);
                    insert.executeUpdate();
                }
            }
            int reads = 5;
            for (int i = 0; i < reads; i++) {
                try (Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("SELECT count(*) FROM metered")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(writes);
                }
            }
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE metered SET v = 'changed' WHERE id = 1");
            }
            c.commit();

            PrometheusScrape after = scrape();
            c.setAutoCommit(true); // after the scrape: switching auto-commit on commits (JDBC), a second request
            assertThat(requests(after, "ddl") - requests(before, "ddl")).isEqualTo(1);
            assertThat(requests(after, "write") - requests(before, "write")).isEqualTo(writes + 1);
            assertThat(requests(after, "read") - requests(before, "read")).isEqualTo(reads);
            assertThat(requests(after, "transaction") - requests(before, "transaction"))
                    .isEqualTo(1);

            MetricFamily timers = after.family("raidb_requests_seconds");
            assertThat(timers.getType()).isEqualTo(MetricType.HISTOGRAM);
            Histogram writeTimer =
                    (Histogram) after.series("raidb_requests_seconds", "vdb", VDB, "kind", "write", "outcome", "ok")
                            .orElseThrow();
            assertThat(writeTimer.getBuckets()).hasSizeGreaterThan(10);
            Histogram.Bucket last =
                    writeTimer.getBuckets().get(writeTimer.getBuckets().size() - 1);
            assertThat(last.getUpperBound()).isInfinite();
            assertThat(last.getCumulativeCount()).isEqualTo(writeTimer.getSampleCount());
            assertThat(writeTimer.getSampleSum()).isPositive();

            for (String backend :
                    new String[] {pg.server(0).name(), pg.server(1).name()}) {
                assertThat(backendState(after, backend, "enabled"))
                        .as(backend + " enabled")
                        .isEqualTo(1);
                assertThat(backendState(after, backend, "disabled")).isZero();
                assertThat(after.value("raidb_backend_pending_requests", "vdb", VDB, "backend", backend))
                        .isZero();
            }
            assertThat(after.family("hikaricp_connections_active").getMetrics())
                    .anySatisfy(m -> assertThat(m.getLabels().get("pool"))
                            .startsWith("raidb-" + VDB + "-" + pg.server(0).name()));
            assertThat(after.value(
                            "hikaricp_connections",
                            "pool",
                            "raidb-" + VDB + "-" + pg.server(0).name() + "-"
                                    + pg.server(0).user()))
                    .isPositive();
            assertThat(after.value("raidb_recovery_log_entries_total", "vdb", VDB)
                            - before.value("raidb_recovery_log_entries_total", "vdb", VDB))
                    .isGreaterThanOrEqualTo(writes);
            // The embedded H2 store makes entries durable in its journal and commits them to the store later.
            assertThat(after.value("raidb_recovery_log_journal_writes_total", "vdb", VDB)
                            + after.value("raidb_recovery_log_store_commits_total", "vdb", VDB))
                    .isPositive();
            assertThat(after.families())
                    .containsKeys(
                            "raidb_scheduler_lock_waits_total",
                            "raidb_scheduler_deadlocks_total",
                            "raidb_scheduler_waiting_writes",
                            "raidb_writes_in_flight",
                            "raidb_recovery_replayed_entries_total",
                            "raidb_recovery_log_pending_entries");
            assertThat(after.value("raidb_scheduler_deadlocks_total", "vdb", VDB))
                    .isZero();
        }

        // A backend taken out shows in its state gauge at the next scrape.
        String second = pg.server(1).name();
        HttpResponse<String> disabled = http.send(
                HttpRequest.newBuilder(URI.create(
                                "http://127.0.0.1:" + raidb.controller().adminPort() + "/api/virtualdatabases/" + VDB
                                        + "/backends/" + second + "/disable"))
                        .header("Authorization", basic("admin", "adminpw"))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(disabled.statusCode()).as(disabled.body()).isBetween(200, 299);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            PrometheusScrape s = scrape();
            assertThat(backendState(s, second, "disabled")).isEqualTo(1);
            assertThat(backendState(s, second, "enabled")).isZero();
            assertThat(backendState(s, pg.server(0).name(), "enabled")).isEqualTo(1);
        });
    }

    /**
     * The sample Grafana dashboard and the admin guide's table name metrics that exist (those of a controller
     * group and of the result cache aside: this controller has neither; ResultCacheIT scrapes the cache's).
     */
    @Test
    void theDashboardAndTheAdminGuideNameMetricsThatExist() throws Exception {
        Path docs = Path.of(System.getProperty("basedir", "."))
                .toAbsolutePath()
                .resolve("../docs")
                .normalize();
        PrometheusScrape s = scrape();
        Pattern name = Pattern.compile("\\b(raidb_[a-z_]+|hikaricp_[a-z_]+)");
        for (String file : new String[] {"grafana-raidb.json", "admin.md"}) {
            String text = Files.readString(docs.resolve(file));
            if (file.endsWith(".md")) { // its Metrics section
                text = text.substring(text.indexOf("### Metrics"), text.indexOf("### The console"));
            }
            Matcher m = name.matcher(text);
            Set<String> named = new TreeSet<>();
            while (m.find()) {
                named.add(m.group(1));
            }
            assertThat(named).as(file).contains("raidb_requests_seconds_bucket", "raidb_backend_state");
            for (String n : named) {
                if (n.startsWith("raidb_group_") || n.startsWith("raidb_cache_") || n.endsWith("_")) {
                    continue;
                }
                String family = n.replaceFirst("_(bucket|count|sum)$", "");
                assertThat(s.families().containsKey(family) || s.families().containsKey(n))
                        .as(file + " names " + n)
                        .isTrue();
            }
        }
    }

    @Test
    void theAdminPortAnswersMetricsOnlyToAnAdmin() throws Exception {
        int admin = raidb.controller().adminPort();
        HttpResponse<String> none = get(admin, null);
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("Basic"));
        assertThat(none.body()).doesNotContain("raidb_requests");
        HttpResponse<String> wrong = get(admin, basic("admin", "not-the-password"));
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.body()).doesNotContain("raidb_requests");
        HttpResponse<String> user = get(admin, basic(ControllerFixture.USER, ControllerFixture.PASSWORD));
        assertThat(user.statusCode()).as("a virtual user is no admin").isEqualTo(401);
    }

    @Test
    void theLoopbackListenerServesMetricsWithoutCredentials() throws Exception {
        int port = raidb.controller().metricsPort();
        assertThat(port).isPositive().isNotEqualTo(raidb.controller().adminPort());
        HttpResponse<String> r = get(port, null);
        assertThat(r.statusCode()).isEqualTo(200);
        PrometheusScrape s = PrometheusScrape.parse(r.body());
        assertThat(backendState(s, pg.server(0).name(), "enabled")).isEqualTo(1);
        assertThat(s.families()).containsKey("raidb_requests_seconds");
        HttpResponse<String> api = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/virtualdatabases"))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(api.statusCode()).as("nothing but the metrics on this port").isEqualTo(404);
    }

    @Test
    void withoutMetricsPortThereIsNoUnauthenticatedListener() throws Exception {
        try (ControllerFixture plain =
                ControllerFixture.start(pg.controllerConfig(VDB), VDB, Files.createTempDirectory("raidb-metrics"))) {
            assertThat(plain.controller().metricsPort()).isEqualTo(ControllerSettings.NO_METRICS_PORT);
            HttpResponse<String> r = get(plain.controller().adminPort(), null);
            assertThat(r.statusCode()).isEqualTo(401);
            HttpResponse<String> ok = get(plain.controller().adminPort(), basic("admin", "adminpw"));
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(PrometheusScrape.parse(ok.body()).families()).containsKey("raidb_backend_state");
        }
    }
}
