package org.raidb.controller.it.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.admin.client.AdminClient;
import org.raidb.controller.cache.CacheFigures;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * The query result cache over two real PostgreSQL backends (RAIDb-1). That a read came from the cache
 * is proved by changing both backends directly, behind the controller's back: only the cache still
 * holds the old value. Each test starts its own controller with the cache it needs, on its own table.
 */
class ResultCacheIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    private ControllerFixture raidb;

    @AfterEach
    void stopController() {
        if (raidb != null) {
            raidb.close();
            raidb = null;
        }
    }

    private ControllerFixture start(String resultCache) throws Exception {
        raidb = ControllerFixture.start(pg.controllerConfig("shop").extraXml(resultCache), "shop");
        return raidb;
    }

    private CacheFigures figures() {
        return raidb.controller().virtualDatabase("shop").resultCache().figures();
    }

    /** Runs {@code sql} on every backend directly, as no client of a RAIDb controller may. */
    private static void behindTheBack(String sql) throws SQLException {
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            try (Connection c = s.connect();
                    Statement st = c.createStatement()) {
                st.execute(sql);
            }
        }
    }

    private static void run(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static String text(Connection c, String sql, Object... parameters) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                ps.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /**
     * Writes that change tables they do not name (a foreign key's ON DELETE CASCADE, a trigger) and reads of a
     * view, whose rows change with tables the read does not name: no cached result outlives the write.
     */
    @Test
    void writesThroughForeignKeysAndTriggersAndReadsOfViewsLeaveNoStaleResult() throws Exception {
        start("<resultCache/>");
        try (Connection c = raidb.connect()) {
            run(c, "CREATE TABLE fk_parent (id int PRIMARY KEY)");
            run(c, "CREATE TABLE fk_child (id int PRIMARY KEY, parent int REFERENCES fk_parent ON DELETE CASCADE)");
            run(c, "INSERT INTO fk_parent VALUES (1), (2)");
            run(c, "INSERT INTO fk_child VALUES (10, 1), (20, 2)");
            assertServedTwice(c, "SELECT count(*) FROM fk_child", "2", true);
            run(c, "DELETE FROM fk_parent WHERE id = 1"); // cascades to fk_child
            assertThat(text(c, "SELECT count(*) FROM fk_child")).isEqualTo("1");

            run(c, "CREATE TABLE audited (id int PRIMARY KEY)");
            run(c, "CREATE TABLE audit_log (id int)");
            run(
                    c,
                    "CREATE FUNCTION log_it() RETURNS trigger LANGUAGE plpgsql"
                            + " AS $$ BEGIN INSERT INTO audit_log VALUES (NEW.id); RETURN NEW; END $$");
            run(c, "CREATE TRIGGER audit AFTER INSERT ON audited FOR EACH ROW EXECUTE FUNCTION log_it()");
            assertServedTwice(c, "SELECT count(*) FROM audit_log", "0", true);
            run(c, "INSERT INTO audited VALUES (5)"); // the trigger writes audit_log
            assertThat(text(c, "SELECT count(*) FROM audit_log")).isEqualTo("1");

            run(c, "CREATE TABLE stock (id int PRIMARY KEY, qty int)");
            run(c, "CREATE VIEW low_stock AS SELECT id FROM stock WHERE qty < 5");
            run(c, "INSERT INTO stock VALUES (1, 10)");
            assertServedTwice(c, "SELECT count(*) FROM low_stock", "0", false);
            run(c, "UPDATE stock SET qty = 1 WHERE id = 1");
            assertThat(text(c, "SELECT count(*) FROM low_stock")).isEqualTo("1");
        }
    }

    /** Reads {@code sql} twice, expecting {@code value}; the second time from the cache or not, as {@code cached}. */
    private void assertServedTwice(Connection c, String sql, String value, boolean cached) throws SQLException {
        assertThat(text(c, sql)).isEqualTo(value);
        long hits = figures().hits();
        assertThat(text(c, sql)).isEqualTo(value);
        assertThat(figures().hits()).as("%s served from the cache", sql).isEqualTo(hits + (cached ? 1 : 0));
    }

    @Test
    void aRepeatedReadIsServedFromTheCache() throws Exception {
        start("<resultCache/>");
        try (Connection c = raidb.connect()) {
            run(c, "CREATE TABLE items (id int PRIMARY KEY, name text, stock int)");
            run(c, "INSERT INTO items VALUES (1, 'pen', 10), (2, 'ink', 5)");
            assertThat(text(c, "SELECT name FROM items WHERE id = ?", 1)).isEqualTo("pen");
            long hitsBefore = figures().hits();

            behindTheBack("UPDATE items SET name = 'changed behind' WHERE id = 1");

            assertThat(text(c, "SELECT name FROM items WHERE id = ?", 1)).isEqualTo("pen");
            assertThat(figures().hits()).isEqualTo(hitsBefore + 1);
            // Other parameters are another read.
            assertThat(text(c, "SELECT name FROM items WHERE id = ?", 2)).isEqualTo("ink");
        }
        try (Connection other = raidb.connect()) {
            assertThat(text(other, "SELECT name FROM items WHERE id = ?", 1))
                    .as("another session shares the cached result")
                    .isEqualTo("pen");
            run(other, "SET search_path TO public");
            assertThat(text(other, "SELECT name FROM items WHERE id = ?", 1))
                    .as("a session setting that may change results makes it another read")
                    .isEqualTo("changed behind");
        }
    }

    @Test
    void aWriteThroughTheSameSessionDropsTheCachedRead() throws Exception {
        start("<resultCache/>");
        try (Connection c = raidb.connect()) {
            run(c, "CREATE TABLE notes (id int PRIMARY KEY, body text)");
            run(c, "INSERT INTO notes VALUES (1, 'first')");
            assertThat(text(c, "SELECT body FROM notes WHERE id = 1")).isEqualTo("first");
            assertThat(text(c, "SELECT body FROM notes WHERE id = 1")).isEqualTo("first");

            run(c, "UPDATE notes SET body = 'second' WHERE id = 1");
            assertThat(text(c, "SELECT body FROM notes WHERE id = 1")).isEqualTo("second");

            run(c, "DELETE FROM notes WHERE id = 1");
            assertThat(text(c, "SELECT body FROM notes WHERE id = 1")).isNull();

            run(c, "INSERT INTO notes VALUES (1, 'third')");
            assertThat(text(c, "SELECT body FROM notes WHERE id = 1")).isEqualTo("third");
            run(c, "TRUNCATE notes");
            assertThat(text(c, "SELECT count(*) FROM notes")).isEqualTo("0");
            assertThat(figures().invalidations()).isPositive();
        }
    }

    @Test
    void aWriteThroughAnotherSessionAndACommitDropTheCachedRead() throws Exception {
        start("<resultCache/>");
        try (Connection reader = raidb.connect();
                Connection writer = raidb.connect()) {
            run(reader, "CREATE TABLE prices (id int PRIMARY KEY, amount int)");
            run(reader, "INSERT INTO prices VALUES (1, 100)");
            assertThat(text(reader, "SELECT amount FROM prices WHERE id = 1")).isEqualTo("100");

            run(writer, "UPDATE prices SET amount = 110 WHERE id = 1");
            assertThat(text(reader, "SELECT amount FROM prices WHERE id = 1")).isEqualTo("110");

            writer.setAutoCommit(false);
            run(writer, "UPDATE prices SET amount = 120 WHERE id = 1");
            assertThat(text(reader, "SELECT amount FROM prices WHERE id = 1"))
                    .as("not committed yet")
                    .isEqualTo("110");
            assertThat(text(reader, "SELECT amount FROM prices WHERE id = 1")).isEqualTo("110");
            writer.commit();
            assertThat(text(reader, "SELECT amount FROM prices WHERE id = 1"))
                    .as("the commit drops what was cached while the transaction was open")
                    .isEqualTo("120");

            run(writer, "UPDATE prices SET amount = 130 WHERE id = 1");
            writer.rollback();
            assertThat(text(reader, "SELECT amount FROM prices WHERE id = 1")).isEqualTo("120");
        }
    }

    @Test
    void atColumnGranularityAnUnrelatedUpdateKeepsTheReadAndAUsedColumnDropsIt() throws Exception {
        start("<resultCache granularity=\"column\"/>");
        try (Connection c = raidb.connect()) {
            run(c, "CREATE TABLE books (id int PRIMARY KEY, title text, stock int)");
            run(c, "INSERT INTO books VALUES (1, 'Dune', 3)");
            assertThat(text(c, "SELECT title FROM books WHERE id = 1")).isEqualTo("Dune");
            behindTheBack("UPDATE books SET title = 'behind' WHERE id = 1");

            run(c, "UPDATE books SET stock = stock - 1 WHERE id = 1");
            assertThat(text(c, "SELECT title FROM books WHERE id = 1"))
                    .as("stock is not a column the read uses: still cached")
                    .isEqualTo("Dune");
            assertThat(text(c, "SELECT stock FROM books WHERE id = 1")).isEqualTo("2");

            run(c, "UPDATE books SET title = 'Dune Messiah' WHERE id = 1");
            assertThat(text(c, "SELECT title FROM books WHERE id = 1")).isEqualTo("Dune Messiah");

            assertThat(text(c, "SELECT title FROM books WHERE id = 1")).isEqualTo("Dune Messiah");
            run(c, "INSERT INTO books VALUES (2, 'Emma', 1)");
            behindTheBack("UPDATE books SET title = 'after insert' WHERE id = 1");
            assertThat(text(c, "SELECT title FROM books WHERE id = 1"))
                    .as("an INSERT drops every read of its table")
                    .isEqualTo("after insert");
        }
    }

    @Test
    void relaxedStalenessServesAStaleResultOnlyWithinItsBound() throws Exception {
        long bound = 3000;
        start("<resultCache relaxedStalenessMillis=\"" + bound + "\"/>");
        try (Connection c = raidb.connect()) {
            run(c, "CREATE TABLE scores (id int PRIMARY KEY, points int)");
            run(c, "INSERT INTO scores VALUES (1, 1)");
            assertThat(text(c, "SELECT points FROM scores WHERE id = 1")).isEqualTo("1");

            long before = System.nanoTime();
            run(c, "UPDATE scores SET points = 2 WHERE id = 1");
            String soon = text(c, "SELECT points FROM scores WHERE id = 1");
            if (System.nanoTime() - before < TimeUnit.MILLISECONDS.toNanos(bound)) {
                // Read within the bound (by this clock, which started before the write): the stale value.
                assertThat(soon).isEqualTo("1");
                assertThat(figures().staleHits()).isPositive();
            }
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> "2".equals(text(c, "SELECT points FROM scores WHERE id = 1")));
            assertThat(text(c, "SELECT points FROM scores WHERE id = 1"))
                    .as("past its bound a stale result is never served again")
                    .isEqualTo("2");
        }
    }

    @Test
    void aRelaxedRuleLetsOnlyTheReadsItMatchesLag() throws Exception {
        long bound = 3000;
        start("<resultCache><relaxed pattern=\"(?i)sum\\(points\\)\" stalenessMillis=\"" + bound
                + "\"/></resultCache>");
        try (Connection c = raidb.connect()) {
            run(c, "CREATE TABLE tallies (id int PRIMARY KEY, points int)");
            run(c, "INSERT INTO tallies VALUES (1, 1)");
            String total = "SELECT sum(points) FROM tallies";
            String one = "SELECT points FROM tallies WHERE id = 1";
            assertThat(text(c, total)).isEqualTo("1");
            assertThat(text(c, one)).isEqualTo("1");

            long before = System.nanoTime();
            run(c, "UPDATE tallies SET points = 2 WHERE id = 1");
            assertThat(text(c, one)).as("a read no rule matches stays strict").isEqualTo("2");
            String soon = text(c, total);
            if (System.nanoTime() - before < TimeUnit.MILLISECONDS.toNanos(bound)) {
                assertThat(soon).as("the rule's read within its bound").isEqualTo("1");
                assertThat(figures().staleHits()).isEqualTo(1);
            }
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> "2".equals(text(c, total)));
            assertThat(text(c, total)).as("past its bound").isEqualTo("2");
        }
    }

    @Test
    void readsInATransactionThatWroteBypassTheCache() throws Exception {
        start("<resultCache/>");
        try (Connection c = raidb.connect()) {
            run(c, "CREATE TABLE carts (id int PRIMARY KEY, items int)");
            run(c, "INSERT INTO carts VALUES (1, 0)");
            assertThat(text(c, "SELECT items FROM carts WHERE id = 1")).isEqualTo("0");
            c.setAutoCommit(false);
            assertThat(text(c, "SELECT items FROM carts WHERE id = 1")).isEqualTo("0");
            run(c, "UPDATE carts SET items = 1 WHERE id = 1");
            long bypassed = figures().bypassed();
            assertThat(text(c, "SELECT items FROM carts WHERE id = 1"))
                    .as("the transaction sees its own write")
                    .isEqualTo("1");
            assertThat(figures().bypassed()).isEqualTo(bypassed + 1);
            c.rollback();
            c.setAutoCommit(true);
            assertThat(text(c, "SELECT items FROM carts WHERE id = 1")).isEqualTo("0");
        }
    }

    @Test
    void nonDeterministicReadsAndLockingReadsAreNotCached() throws Exception {
        start("<resultCache/>");
        try (Connection c = raidb.connect()) {
            run(c, "CREATE TABLE ticks (id int PRIMARY KEY, label text)");
            run(c, "INSERT INTO ticks VALUES (1, 'a')");
            String sql = "SELECT label || random()::text FROM ticks WHERE id = 1";
            long hits = figures().hits();
            String first = text(c, sql);
            String second = text(c, sql);
            assertThat(second).isNotEqualTo(first);
            assertThat(text(c, "SELECT label || clock_timestamp()::text FROM ticks WHERE id = 1"))
                    .startsWith("a");
            assertThat(figures().hits()).isEqualTo(hits);
            assertThat(figures().bypassed()).isGreaterThanOrEqualTo(3);

            assertThat(text(c, "SELECT label FROM ticks WHERE id = 1")).isEqualTo("a");
            behindTheBack("UPDATE ticks SET label = 'b' WHERE id = 1");
            c.setAutoCommit(false);
            assertThat(text(c, "SELECT label FROM ticks WHERE id = 1 FOR UPDATE"))
                    .as("a locking read is a write: it reads the backend")
                    .isEqualTo("b");
            c.commit();
        }
    }

    @Test
    void theAdminApiAndTheMetricsShowTheCounts() throws Exception {
        start("<resultCache maxEntries=\"100\" maxBytes=\"1000000\"/>");
        try (Connection c = raidb.connect()) {
            run(c, "CREATE TABLE tags (id int PRIMARY KEY, name text)");
            run(c, "INSERT INTO tags VALUES (1, 'x')");
            for (int i = 0; i < 4; i++) {
                assertThat(text(c, "SELECT name FROM tags WHERE id = 1")).isEqualTo("x");
            }
        }
        AdminClient admin = new AdminClient(
                URI.create("http://127.0.0.1:" + raidb.controller().adminPort()), "admin", "adminpw");
        JsonNode cache = admin.get("/api/virtualdatabases/shop/cache");
        assertThat(cache.path("enabled").asBoolean()).isTrue();
        assertThat(cache.path("granularity").asText()).isEqualTo("table");
        assertThat(cache.path("hits").asLong()).isEqualTo(3);
        assertThat(cache.path("misses").asLong()).isEqualTo(1);
        assertThat(cache.path("hitRatio").asDouble()).isEqualTo(0.75);
        assertThat(cache.path("entries").asLong()).isEqualTo(1);
        assertThat(cache.has("evictions")).isTrue();
        assertThat(cache.has("invalidations")).isTrue();

        HttpResponse<String> metrics = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(
                                        "http://127.0.0.1:" + raidb.controller().adminPort() + "/metrics"))
                                .header(
                                        "Authorization",
                                        "Basic "
                                                + Base64.getEncoder()
                                                        .encodeToString(
                                                                "admin:adminpw".getBytes(StandardCharsets.UTF_8)))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body())
                .contains("raidb_cache_hits_total{vdb=\"shop\"} 3.0")
                .contains("raidb_cache_misses_total{vdb=\"shop\"} 1.0")
                .contains("raidb_cache_hit_ratio{vdb=\"shop\"} 0.75")
                .contains("raidb_cache_evictions_total{vdb=\"shop\"}")
                .contains("raidb_cache_invalidations_total{vdb=\"shop\"}")
                .contains("raidb_cache_bypassed_total{vdb=\"shop\"}")
                .contains("raidb_cache_entries{vdb=\"shop\"} 1.0")
                .contains("raidb_cache_weight_bytes{vdb=\"shop\"}");
    }

    @Test
    void aResultOverMaxBytesIsServedButNotCached() throws Exception {
        start("<resultCache maxBytes=\"2000\"/>");
        try (Connection c = raidb.connect()) {
            run(c, "CREATE TABLE big (id int PRIMARY KEY, body text)");
            run(c, "INSERT INTO big SELECT g, repeat('x', 100) FROM generate_series(1, 200) g");
            for (int i = 0; i < 2; i++) {
                try (Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("SELECT id, body FROM big ORDER BY id")) {
                    int rows = 0;
                    while (rs.next()) {
                        rows++;
                        assertThat(rs.getInt(1)).isEqualTo(rows);
                    }
                    assertThat(rows).isEqualTo(200);
                }
            }
            assertThat(figures().hits()).isZero();
            assertThat(figures().entries()).isZero();
        }
    }
}
