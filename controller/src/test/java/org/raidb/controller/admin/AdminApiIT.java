package org.raidb.controller.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.Controller;
import org.raidb.controller.backend.BackendState;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.test.PostgresClusterExtension;

/** The admin HTTP API against an in-process controller over two real PostgreSQL servers. */
class AdminApiIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    private static final ObjectMapper JSON = new ObjectMapper();
    private Controller controller;

    @BeforeEach
    void startController() throws Exception {
        controller = AdminTestController.start(pg);
    }

    @AfterEach
    void stopController() {
        controller.close();
    }

    private HttpResponse<String> call(String method, String path, String user, String password) throws Exception {
        return new AdminHttp(controller).call(method, path, user, password);
    }

    private HttpResponse<String> asShopAdmin(String method, String path) throws Exception {
        return call(method, path, AdminTestController.SHOP_ADMIN, AdminTestController.SHOP_ADMIN_PASSWORD);
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return JSON.readTree(response.body());
    }

    @Test
    void missingOrWrongCredentialsGet401WithABasicChallenge() throws Exception {
        for (HttpResponse<String> refused : new HttpResponse[] {
            call("GET", "/api/virtualdatabases", null, null),
            call("GET", "/api/virtualdatabases", "admin", "wrong"),
            call("GET", "/api/virtualdatabases", "app", "apppw"), // a virtual user is not an admin
            call("POST", "/api/shutdown", "nobody", "adminpw")
        }) {
            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(refused.headers().firstValue("WWW-Authenticate")).contains("Basic realm=\"raidb\"");
            assertThat(json(refused).get("status").asInt()).isEqualTo(401);
            assertThat(json(refused).get("error").asText()).contains("authentication required");
        }
        assertThat(controller.virtualDatabase("shop").backends()).allMatch(DatabaseBackend::isEnabled);
    }

    @Test
    void anAdminSeesAndActsOnlyOnItsOwnVirtualDatabases() throws Exception {
        JsonNode listed = json(asShopAdmin("GET", "/api/virtualdatabases")).get("virtualDatabases");
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).get("name").asText()).isEqualTo("shop");

        HttpResponse<String> other = asShopAdmin("GET", "/api/virtualdatabases/books/backends");
        assertThat(other.statusCode()).isEqualTo(403);
        assertThat(json(other).get("error").asText()).contains("'admin' is not the admin of virtual database 'books'");

        HttpResponse<String> disableOther = asShopAdmin("POST", "/api/virtualdatabases/books/backends/pg1/disable");
        assertThat(disableOther.statusCode()).isEqualTo(403);
        assertThat(controller.virtualDatabase("books").backends().get(0).isEnabled())
                .isTrue();

        HttpResponse<String> shutdown = asShopAdmin("POST", "/api/shutdown");
        assertThat(shutdown.statusCode()).as("shutdown stops books too").isEqualTo(403);
        assertThat(call("GET", "/api/virtualdatabases/books", "booksadmin", "bookspw")
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void virtualDatabasesAndBackendsShowTheirStateAndCounters() throws Exception {
        JsonNode shop = json(asShopAdmin("GET", "/api/virtualdatabases"))
                .get("virtualDatabases")
                .get(0);
        assertThat(shop.get("level").asText()).isEqualTo("raidb1");
        assertThat(shop.get("scheduler").asText()).isEqualTo("optimisticTransaction");
        assertThat(shop.get("completion").asText()).isEqualTo("all");
        assertThat(shop.get("readPolicy").asText()).isEqualTo("roundRobin");
        assertThat(shop.get("backendsEnabled").asInt()).isEqualTo(2);
        assertThat(shop.get("backendsTotal").asInt()).isEqualTo(2);
        assertThat(shop.get("waitingWrites").asInt()).isZero();

        try (Connection c = DriverManager.getConnection(
                        "jdbc:raidb://127.0.0.1:" + controller.port() + "/shop", "app", "apppw");
                Statement st = c.createStatement()) {
            st.execute("SELECT 1");
        }
        HttpResponse<String> response = asShopAdmin("GET", "/api/virtualdatabases/shop/backends");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).contains("json"));
        JsonNode backends = json(response).get("backends");
        assertThat(backends).hasSize(2);
        JsonNode pg1 = backends.get(0);
        assertThat(pg1.get("name").asText()).isEqualTo("pg1");
        assertThat(pg1.get("url").asText()).isEqualTo(pg.server(0).jdbcUrl());
        assertThat(pg1.get("state").asText()).isEqualTo("enabled");
        assertThat(pg1.get("disabledReason").isNull()).isTrue();
        assertThat(pg1.get("pendingRequests").asInt()).isZero();
        assertThat(pg1.get("weight").asInt()).isEqualTo(1);
        assertThat(pg1.has("lastCheckpoint")).isTrue();
        assertThat(pg1.get("lastCheckpoint").isNull()).isTrue();
        assertThat(pg1.get("tables").isArray())
                .as("the tables read from its schema")
                .isTrue();
        assertThat(pg1.get("disabledTables")).isEmpty();
        long served = 0;
        for (JsonNode b : backends) {
            served += b.get("requestsServed").asLong();
        }
        assertThat(served).as("the SELECT went to one of them").isPositive();

        assertThat(json(asShopAdmin("GET", "/api/virtualdatabases/shop/checkpoints"))
                        .get("checkpoints"))
                .isEmpty();
        assertThat(json(asShopAdmin("GET", "/api/virtualdatabases/shop/dumps")).get("dumps"))
                .isEmpty();
        assertThat(json(asShopAdmin("GET", "/api/operations")).get("operations"))
                .isEmpty();
    }

    /**
     * Issue 14: concurrent writers share the recovery log's store commits, and the admin API says how many
     * entries each carried.
     */
    @Test
    void sixteenConcurrentWritersShareDurableWrites() throws Exception {
        String url = "jdbc:raidb://127.0.0.1:" + controller.port() + "/shop";
        try (Connection c = DriverManager.getConnection(url, "app", "apppw");
                Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS grouped");
            st.execute("CREATE TABLE grouped (id int PRIMARY KEY)");
        }
        JsonNode before = json(asShopAdmin("GET", "/api/virtualdatabases/shop")).get("recoveryLog");
        int writers = 16;
        int perWriter = 50;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(writers);
        try {
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(writers);
            List<java.util.concurrent.Future<Integer>> done = new java.util.ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                done.add(pool.submit(() -> {
                    try (Connection c = DriverManager.getConnection(url, "app", "apppw");
                            java.sql.PreparedStatement insert = c.prepareStatement("INSERT INTO grouped VALUES (?)")) {
                        start.await();
                        int inserted = 0;
                        for (int i = 0; i < perWriter; i++) {
                            insert.setInt(1, writer * perWriter + i);
                            inserted += insert.executeUpdate();
                        }
                        return inserted;
                    }
                }));
            }
            for (java.util.concurrent.Future<Integer> f : done) {
                assertThat(f.get(2, java.util.concurrent.TimeUnit.MINUTES)).isEqualTo(perWriter);
            }
        } finally {
            pool.shutdownNow();
        }
        JsonNode after = json(asShopAdmin("GET", "/api/virtualdatabases/shop")).get("recoveryLog");
        long entries = after.get("entriesWritten").asLong()
                - before.get("entriesWritten").asLong();
        // The default store is an embedded H2 file: a batch is durable once in the log's journal, and the
        // store takes the journal's operations thousands at a time.
        long durableWrites = after.get("journalWrites").asLong()
                - before.get("journalWrites").asLong();
        long commits =
                after.get("storeCommits").asLong() - before.get("storeCommits").asLong();
        System.out.printf(
                "group commit: %d writers, %d entries in %d journal writes (%.1f per write), %d store commits%n",
                writers, entries, durableWrites, entries / (double) durableWrites, commits);
        assertThat(entries).as("every acknowledged insert is a log entry").isGreaterThanOrEqualTo(writers * perWriter);
        assertThat(durableWrites)
                .as("journal writes for %d entries", entries)
                .isPositive()
                .isLessThan(entries);
        assertThat(commits).as("store commits").isLessThan(durableWrites);
        // The default H2 file store: its file's bytes over the entries it holds.
        System.out.printf(
                "recovery log: %.1f bytes per entry%n",
                after.get("bytesPerEntry").asDouble());
        assertThat(after.get("bytesPerEntry").isNumber()).isTrue();
        // What the log records: at least each insert's SQL text and its one parameter.
        long recorded = after.get("recordedBytes").asLong()
                - before.get("recordedBytes").asLong();
        assertThat(recorded)
                .isGreaterThanOrEqualTo((long) writers * perWriter * "INSERT INTO grouped VALUES (?)".length());
        assertThat(after.get("storeBytes").asLong()).isPositive();
        assertThat(after.get("bytesPerEntry").asDouble()).isPositive();
    }

    @Test
    void disablingABackendLeavesClientsServedByTheOther() throws Exception {
        String url = "jdbc:raidb://127.0.0.1:" + controller.port() + "/shop";
        try (Connection c = DriverManager.getConnection(url, "app", "apppw");
                Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS admin_t");
            st.execute("CREATE TABLE admin_t (id int PRIMARY KEY)");
            HttpResponse<String> response = asShopAdmin("POST", "/api/virtualdatabases/shop/backends/pg2/disable");
            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode answer = json(response);
            assertThat(answer.get("backend").get("state").asText()).isEqualTo("disabled");
            assertThat(answer.get("backend").get("disabledReason").asText())
                    .isEqualTo("disabled by administrator admin");
            assertThat(answer.get("backendsEnabled").asInt()).isEqualTo(1);
            assertThat(answer.get("refusesWork").asBoolean()).isFalse();

            DatabaseBackend pg2 = controller.virtualDatabase("shop").backends().get(1);
            assertThat(pg2.state()).isEqualTo(BackendState.DISABLED);
            long servedByPg2 = pg2.requestsServed();
            assertThat(st.executeUpdate("INSERT INTO admin_t VALUES (1), (2)")).isEqualTo(2);
            for (int i = 0; i < 4; i++) {
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM admin_t")) {
                    rs.next();
                    assertThat(rs.getInt(1)).isEqualTo(2);
                }
            }
            assertThat(pg2.requestsServed()).isEqualTo(servedByPg2);
        }
        JsonNode last = json(asShopAdmin("POST", "/api/virtualdatabases/shop/backends/pg1/disable"));
        assertThat(last.get("refusesWork").asBoolean()).isTrue();
        assertThat(last.get("message").asText()).contains("refuses work");
    }

    @Test
    void unknownNamesPathsAndMethodsGetJsonErrors() throws Exception {
        HttpResponse<String> vdb = asShopAdmin("GET", "/api/virtualdatabases/nosuchdb/backends");
        assertThat(vdb.statusCode()).isEqualTo(404);
        assertThat(json(vdb).get("error").asText()).contains("unknown virtual database 'nosuchdb'");
        assertThat(json(vdb).get("status").asInt()).isEqualTo(404);

        HttpResponse<String> backend = asShopAdmin("POST", "/api/virtualdatabases/shop/backends/pg9/disable");
        assertThat(backend.statusCode()).isEqualTo(404);
        assertThat(json(backend).get("error").asText())
                .contains("unknown backend 'pg9'")
                .contains("[pg1, pg2]");

        assertThat(asShopAdmin("GET", "/api/operations/42").statusCode()).isEqualTo(404);
        HttpResponse<String> path = asShopAdmin("GET", "/api/frobnicate");
        assertThat(path.statusCode()).isEqualTo(404);
        assertThat(json(path).get("error").asText()).contains("no such endpoint: /api/frobnicate");

        HttpResponse<String> method = asShopAdmin("GET", "/api/virtualdatabases/shop/backends/pg1/disable");
        assertThat(method.statusCode()).isEqualTo(405);
        assertThat(method.headers().firstValue("Allow")).contains("POST");
        assertThat(controller.virtualDatabase("shop").backends().get(0).isEnabled())
                .isTrue();
    }
}
