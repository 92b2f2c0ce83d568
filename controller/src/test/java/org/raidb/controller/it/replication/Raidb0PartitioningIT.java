package org.raidb.controller.it.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.analysis.SchemaChange;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * RAIDb-0 over two PostgreSQL servers, four tables placed statically (customer and orders on pg1,
 * author and item on pg2): each backend holds exactly its tables, statements run where their tables
 * are, a join across backends is refused with 0A000, and a transaction writing both backends
 * commits on both or on neither (two-phase commit).
 */
class Raidb0PartitioningIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    static ControllerFixture raidb;

    @BeforeAll
    static void startControllerAndCreateTables() throws Exception {
        raidb = ControllerFixture.start(
                pg.controllerConfig("shop")
                        .replication("<raidb0/>")
                        .tables("pg1", List.of("customer", "orders"))
                        .tables("pg2", List.of("author", "item")),
                "shop");
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE customer (c_id int PRIMARY KEY, c_name text NOT NULL)");
            st.execute(
                    "CREATE TABLE orders (o_id int PRIMARY KEY, o_c_id int NOT NULL REFERENCES customer, o_total numeric)");
            st.execute("CREATE TABLE author (a_id int PRIMARY KEY, a_name text)");
            st.execute("CREATE TABLE item (i_id int PRIMARY KEY, i_a_id int REFERENCES author, i_title text)");
            st.execute("INSERT INTO customer VALUES (1, 'ada'), (2, 'bob')");
            st.execute("INSERT INTO orders VALUES (10, 1, 12.50), (11, 1, 3.00), (12, 2, 7.25)");
            st.execute("INSERT INTO author VALUES (1, 'knuth')");
            st.execute("INSERT INTO item VALUES (100, 1, 'taocp')");
        }
    }

    @AfterAll
    static void stopController() {
        if (raidb != null) {
            raidb.close();
        }
    }

    /**
     * A read the parser cannot read is run on every backend as a write that may touch anything; the partitions
     * answer it differently by design (here: which of the placed tables each holds), and none is disabled for it.
     */
    @Test
    void anUnparsableReadAnsweredDifferentlyByThePartitionsDisablesNoBackend() throws Exception {
        String sql = "SELECT c.relname FROM pg_class c, unnest(ARRAY[1, 2]) WITH ORDINALITY k(v, n)"
                + " WHERE c.relname IN ('customer', 'orders') AND k.n = 1"; // 2 rows on pg1, none on pg2
        assertThat(raidb.controller()
                        .virtualDatabase("shop")
                        .analyzer()
                        .analyze(sql)
                        .touchesEverything())
                .as("JSqlParser cannot read it")
                .isTrue();
        try (Connection c = raidb.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next(); // one partition's answer: which one is not defined
        }
        raidb.assertEveryBackendEnabled();
        try (Connection c = raidb.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM orders")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(3);
        }
    }

    @Test
    void eachBackendHoldsExactlyItsTables() throws Exception {
        assertThat(tablesOn(pg.server(0))).containsExactly("customer", "orders");
        assertThat(tablesOn(pg.server(1))).containsExactly("author", "item");
        assertThat(count(pg.server(0), "orders")).isEqualTo(3);
        assertThat(count(pg.server(1), "item")).isEqualTo(1);
        VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
        assertThat(vdb.backend("pg1").tables().served())
                .contains("customer", "orders")
                .doesNotContain("item");
    }

    @Test
    void aJoinWithinOneBackendRunsThere() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT c.c_name, sum(o.o_total) FROM customer c JOIN orders o ON o.o_c_id = c.c_id"
                                + " WHERE c.c_id = 1 GROUP BY c.c_name")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("ada");
            assertThat(rs.getBigDecimal(2)).isEqualByComparingTo("15.50");
        }
    }

    @Test
    void aJoinAcrossBackendsIsRefusedNamingTablesAndBackends() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            assertThatThrownBy(() -> st.executeQuery("SELECT * FROM orders o JOIN item i ON i.i_id = o.o_id"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("0A000");
                        assertThat(e.getMessage())
                                .contains("item on pg2", "orders on pg1", "distributed joins are not supported");
                    });
            try (ResultSet rs = st.executeQuery("SELECT i_title FROM item")) {
                assertThat(rs.next()).as("the session still works").isTrue();
            }
        }
    }

    @Test
    void aTransactionWritingOneBackendCommits() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("INSERT INTO customer VALUES (3, 'cy')");
            st.execute("INSERT INTO orders VALUES (13, 3, 1.00)");
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM item")) { // a read on the other backend is fine
                rs.next();
            }
            c.commit();
        }
        assertThat(count(pg.server(0), "orders WHERE o_c_id = 3")).isEqualTo(1);
    }

    @Test
    void aTransactionWritingBothBackendsCommitsOnBoth() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("INSERT INTO customer VALUES (4, 'dee')");
            st.execute("INSERT INTO author VALUES (4, 'dee')");
            c.commit();
        }
        assertThat(count(pg.server(0), "customer WHERE c_id = 4")).isEqualTo(1);
        assertThat(count(pg.server(1), "author WHERE a_id = 4")).isEqualTo(1);
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            assertThat(count(s, "pg_prepared_xacts"))
                    .as("transactions left prepared on %s", s.name())
                    .isZero();
        }
    }

    @Test
    void aBackendRefusingToPrepareRollsTheTransactionBackOnBoth() throws Exception {
        try (Connection direct = pg.server(1).connect();
                Statement st = direct.createStatement()) {
            // A deferred unique constraint is checked at PREPARE: pg2 will refuse to prepare duplicates.
            st.execute(
                    "CREATE TABLE IF NOT EXISTS tags (tag text, CONSTRAINT one_tag UNIQUE (tag) DEFERRABLE INITIALLY DEFERRED)");
        }
        raidb.controller().virtualDatabase("shop").backend("pg2").tables().apply(SchemaChange.create("tags"));
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("INSERT INTO customer VALUES (6, 'fay')");
            st.execute("INSERT INTO tags VALUES ('x'), ('x')");
            assertThatThrownBy(c::commit).isInstanceOfSatisfying(SQLException.class, e -> {
                assertThat(e.getSQLState()).isEqualTo("23505");
                assertThat(e.getMessage()).contains("rolled back on every backend", "pg2 could not prepare it");
            });
            c.setAutoCommit(true);
            st.execute("INSERT INTO customer VALUES (7, 'gus')"); // the session goes on
        }
        try {
            assertThat(count(pg.server(0), "customer WHERE c_id = 6"))
                    .as("pg1's part")
                    .isZero();
            assertThat(count(pg.server(1), "tags")).isZero();
            assertThat(count(pg.server(0), "customer WHERE c_id = 7")).isEqualTo(1);
            for (EmbeddedPostgresServer s : pg.cluster().servers()) {
                assertThat(count(s, "pg_prepared_xacts"))
                        .as("transactions left prepared on %s", s.name())
                        .isZero();
            }
        } finally {
            // The other tests see exactly the four tables placed at the start.
            try (Connection direct = pg.server(1).connect();
                    Statement st = direct.createStatement()) {
                st.execute("DROP TABLE tags");
            }
            raidb.controller().virtualDatabase("shop").backend("pg2").tables().apply(SchemaChange.drop("tags", false));
        }
    }

    @Test
    void aTableNoBackendHoldsIs42P01AndTheSessionGoesOn() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            assertThatThrownBy(() -> st.executeQuery("SELECT * FROM invoices"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("42P01");
                        assertThat(e.getMessage()).contains("no enabled backend holds table invoices");
                    });
            assertThatThrownBy(() -> st.executeUpdate("UPDATE invoices SET x = 1"))
                    .isInstanceOfSatisfying(
                            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42P01"));
            st.execute("DROP TABLE IF EXISTS invoices"); // nothing to drop, no error: as on one database
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM customer")) {
                assertThat(rs.next()).isTrue();
            }
        }
    }

    @Test
    void aNewTableGoesToOneBackend() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE notes (n_id int PRIMARY KEY, body text)");
            st.execute("INSERT INTO notes VALUES (1, 'hello')");
            try (ResultSet rs = st.executeQuery("SELECT body FROM notes")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("hello");
            }
        }
        long copies = pg.cluster().servers().stream()
                .filter(s -> tablesOn(s).contains("notes"))
                .count();
        assertThat(copies).isEqualTo(1);
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("DROP TABLE notes");
        }
        assertThat(pg.cluster().servers()).noneMatch(s -> tablesOn(s).contains("notes"));
        VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
        assertThat(vdb.backends()).noneMatch(b -> b.tables().served().contains("notes"));
    }

    static Set<String> tablesOn(EmbeddedPostgresServer s) {
        return PostgresClusterExtension.publicTables(s);
    }

    static long count(EmbeddedPostgresServer s, String tableAndWhere) throws SQLException {
        try (Connection c = s.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM " + tableAndWhere)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
