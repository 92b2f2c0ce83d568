package org.raidb.controller.it.determinism;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * Functions that write, called through CallableStatement: the driver translates the call escape into
 * a SELECT, and flags it as a call so that every backend runs it, in the write order.
 */
class CallableStatementIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    static ControllerFixture raidb;

    @BeforeAll
    static void startController() throws Exception {
        raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE orders (id serial PRIMARY KEY, item text NOT NULL, qty int NOT NULL)");
            st.execute("CREATE FUNCTION add_order(p_item text, p_qty int) RETURNS int LANGUAGE plpgsql AS $$\n"
                    + "DECLARE new_id int;\n"
                    + "BEGIN\n"
                    + "  INSERT INTO orders (item, qty) VALUES (p_item, p_qty) RETURNING id INTO new_id;\n"
                    + "  RETURN new_id;\n"
                    + "END $$");
            st.execute("CREATE FUNCTION place_order(p_item text, p_qty int, OUT order_id int, OUT ordered int) "
                    + "LANGUAGE plpgsql AS $$\n"
                    + "BEGIN\n"
                    + "  INSERT INTO orders (item, qty) VALUES (p_item, p_qty) RETURNING id INTO order_id;\n"
                    + "  SELECT sum(qty) INTO ordered FROM orders WHERE item = p_item;\n"
                    + "END $$");
            st.execute("CREATE PROCEDURE cancel_orders(p_item text) LANGUAGE plpgsql AS $$\n"
                    + "BEGIN\n"
                    + "  DELETE FROM orders WHERE item = p_item;\n"
                    + "END $$");
        }
    }

    @AfterAll
    static void stopController() {
        if (raidb != null) {
            raidb.close();
        }
    }

    private static List<String> ordersOn(EmbeddedPostgresServer s) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = s.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id, item, qty FROM orders ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getInt(1) + ":" + rs.getString(2) + ":" + rs.getInt(3));
            }
        }
        return rows;
    }

    private static void assertReplicasIdentical() throws SQLException {
        Map<String, Map<String, String>> sums =
                ControllerFixture.checksums(pg.cluster().servers());
        assertThat(sums.get("pg1")).containsKey("orders");
        assertThat(sums.values()).allSatisfy(s -> assertThat(s).isEqualTo(sums.get("pg1")));
        assertThat(raidb.controller().virtualDatabase("shop").backends())
                .allSatisfy(b -> assertThat(b.isEnabled()).isTrue());
    }

    @Test
    void aWritingFunctionCalledThroughPrepareCallRunsOnEveryBackend() throws Exception {
        int first;
        int second;
        try (Connection c = raidb.connect()) {
            try (CallableStatement cs = c.prepareCall("{? = call add_order(?, ?)}")) {
                cs.registerOutParameter(1, Types.INTEGER);
                cs.setString(2, "book");
                cs.setInt(3, 2);
                cs.execute();
                first = cs.getInt(1);
                assertThat(cs.wasNull()).isFalse();
            }
            try (CallableStatement cs = c.prepareCall("{call place_order(?, ?, ?, ?)}")) {
                cs.setString(1, "book");
                cs.setInt(2, 3);
                cs.registerOutParameter(3, Types.INTEGER);
                cs.registerOutParameter(4, Types.INTEGER);
                cs.execute();
                second = cs.getInt(3);
                assertThat(cs.getInt(4))
                        .as("books ordered so far, as the function counted them")
                        .isEqualTo(5);
            }
        }
        assertThat(second).isEqualTo(first + 1);
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            assertThat(ordersOn(s)).as("orders on %s", s.name()).contains(first + ":book:2", second + ":book:3");
        }
        assertReplicasIdentical();
    }

    @Test
    void callsInsideATransactionCommitOrRollBackOnEveryBackend() throws Exception {
        try (Connection c = raidb.connect();
                CallableStatement cs = c.prepareCall("{? = call add_order(?, 1)}")) {
            c.setAutoCommit(false);
            cs.registerOutParameter(1, Types.INTEGER);
            cs.setString(2, "kept");
            cs.execute();
            int kept = cs.getInt(1);
            c.commit();
            cs.setString(2, "dropped");
            cs.execute();
            c.rollback();
            for (EmbeddedPostgresServer s : pg.cluster().servers()) {
                assertThat(ordersOn(s))
                        .as("orders on %s", s.name())
                        .contains(kept + ":kept:1")
                        .noneMatch(row -> row.endsWith(":dropped:1"));
            }
        }
        assertReplicasIdentical();
    }

    @Test
    void sqlCallOfAProcedureRunsOnEveryBackend() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO orders (item, qty) VALUES ('pen', 1), ('pen', 4)");
            st.execute("CALL cancel_orders('pen')");
        }
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            assertThat(ordersOn(s)).as("orders on %s", s.name()).noneMatch(row -> row.contains(":pen:"));
        }
        assertReplicasIdentical();
    }
}
