package org.raidb.controller.it.replication;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.test.PostgresClusterExtension;

/**
 * The controller keeps backend prepared statements, and the description of their last result, open
 * per backend connection and reuses them for whichever session comes next. Nothing of one use may
 * show in the next: not a row limit, not a stale column description after DDL or under another
 * session's search_path.
 */
class ReusedStatementsIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(1).database("shop");

    static ControllerFixture raidb;

    @BeforeAll
    static void start() throws Exception {
        // One pooled connection: every session's statements run on it, one after the other, so that
        // whatever one of them leaves behind on it, the next one meets.
        String xml = pg.controllerConfig("shop")
                .dataDir(Path.of("DATA"))
                .toXml(Path.of("raidb.xml"))
                .replaceAll("(<backend [^>]*?)/>", "$1 poolSize=\"1\"/>");
        raidb = ControllerFixture.startFromXml(xml, "shop");
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE items (id int PRIMARY KEY, name text, price numeric(8,2))");
            st.executeUpdate("INSERT INTO items SELECT g, 'item ' || g, g FROM generate_series(1, 20) g");
            st.execute("CREATE SCHEMA other");
            st.execute("CREATE TABLE other.items (id int PRIMARY KEY, label text)");
            st.executeUpdate("INSERT INTO other.items VALUES (1, 'elsewhere')");
        }
    }

    @AfterAll
    static void stop() {
        if (raidb != null) {
            raidb.close();
        }
    }

    /** Labels and scales of the columns of {@code sql} run with parameter 1, as the client sees them. */
    private static List<String> describe(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setInt(1, 1);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                ResultSetMetaData md = rs.getMetaData();
                List<String> columns = new ArrayList<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    columns.add(md.getColumnLabel(i) + ":" + md.getColumnTypeName(i) + "(" + md.getScale(i) + ")");
                }
                return columns;
            }
        }
    }

    @Test
    void aRowLimitOfOneExecutionDoesNotStayWithTheStatement() throws Exception {
        // A write with RETURNING: writes run with the client's limit as it is (reads probe one batch anyway).
        String sql = "UPDATE items SET price = price WHERE id <= ? RETURNING id";
        try (Connection c = raidb.connect()) {
            for (int round = 0; round < 3; round++) {
                try (PreparedStatement limited = c.prepareStatement(sql)) {
                    limited.setMaxRows(2);
                    limited.setInt(1, 10);
                    assertThat(ids(limited)).hasSize(2);
                }
                try (PreparedStatement unlimited = c.prepareStatement(sql)) {
                    unlimited.setInt(1, 10);
                    assertThat(ids(unlimited)).as("round %d", round).hasSize(10);
                }
            }
        }
    }

    // Each SQL text below runs at most four times per backend connection: pgjdbc server-prepares a
    // text from its fifth use, and a server-prepared SELECT * whose columns change is then refused by
    // PostgreSQL ("cached plan must not change result type"), which is pgjdbc's behaviour, not ours.

    @Test
    void aColumnDescriptionFollowsDdl() throws Exception {
        String sql = "SELECT * FROM ddl_items WHERE id = ?";
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE ddl_items (id int PRIMARY KEY, name text, price numeric(8,2))");
            st.executeUpdate("INSERT INTO ddl_items VALUES (1, 'one', 1)");
            assertThat(describe(c, sql)).containsExactly("id:int4(0)", "name:text(0)", "price:numeric(2)");
            assertThat(describe(c, sql)).containsExactly("id:int4(0)", "name:text(0)", "price:numeric(2)");
            st.execute("ALTER TABLE ddl_items RENAME COLUMN name TO title");
            assertThat(describe(c, sql)).containsExactly("id:int4(0)", "title:text(0)", "price:numeric(2)");
            st.execute("ALTER TABLE ddl_items ALTER COLUMN price TYPE numeric(12,3)");
            assertThat(describe(c, sql)).containsExactly("id:int4(0)", "title:text(0)", "price:numeric(3)");
        }
    }

    @Test
    void aSessionWithItsOwnSearchPathGetsItsOwnTable() throws Exception {
        String sql = "SELECT * FROM items WHERE id = ?";
        try (Connection plain = raidb.connect();
                Connection elsewhere = raidb.connect();
                Statement st = elsewhere.createStatement()) {
            st.execute("SET search_path TO other");
            for (int i = 0; i < 2; i++) {
                assertThat(describe(elsewhere, sql)).as("other.items").containsExactly("id:int4(0)", "label:text(0)");
                assertThat(describe(plain, sql))
                        .as("public.items")
                        .containsExactly("id:int4(0)", "name:text(0)", "price:numeric(2)");
            }
        }
    }

    @Test
    void aSetOfOneSessionDoesNotStayOnThePooledConnection() throws Exception {
        try (Connection elsewhere = raidb.connect();
                Statement st = elsewhere.createStatement()) {
            st.execute("SET search_path TO other");
            // Nothing else on this session: its next statement would reset the connection on the way back.
        }
        try (Connection plain = raidb.connect();
                Statement st = plain.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM items")) {
            rs.next();
            assertThat(rs.getInt(1))
                    .as("public.items, on the connection the SET ran on")
                    .isEqualTo(20);
        }
    }

    private static List<Integer> ids(PreparedStatement ps) throws SQLException {
        List<Integer> ids = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
        }
        return ids;
    }
}
