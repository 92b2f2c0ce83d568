package org.raidb.controller.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.test.PostgresClusterExtension;

/**
 * SQL text with a NUL character in it. pgjdbc sends such text in a message shorter than it announces,
 * PostgreSQL drops the connection, and the controller used to take that for a failed backend, on
 * every backend in turn: one statement disabled them all. The controller now refuses the text with
 * 22021 before any backend sees it, whichever way it arrives.
 */
class NulInSqlIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    static ControllerFixture raidb;

    @BeforeAll
    static void startController() throws Exception {
        raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE notes (id int PRIMARY KEY, body text)");
        }
    }

    @AfterAll
    static void stopController() {
        if (raidb != null) {
            raidb.close();
        }
    }

    private static void assertRefusedWith22021(ThrowingCallable call) {
        assertThatThrownBy(call)
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22021"))
                .hasMessageContaining("NUL character (U+0000)")
                .hasMessageContaining("remove it");
    }

    @Test
    void nulInAnySqlTextIs22021AndNoBackendIsDisabled() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            assertRefusedWith22021(() -> st.executeQuery("SELECT 'a\u0000b'"));
            assertRefusedWith22021(() -> st.executeUpdate("INSERT INTO notes VALUES (1, 'a\u0000b')"));
            assertRefusedWith22021(
                    () -> st.executeUpdate("INSERT INTO notes VALUES (2, 'k')", new String[] {"i\u0000d"}));
            st.addBatch("INSERT INTO notes VALUES (3, 'fine')");
            st.addBatch("INSERT INTO notes VALUES (4, 'a\u0000b')");
            assertRefusedWith22021(st::executeBatch);
            assertThat(st.executeBatch())
                    .as("the batch is cleared whatever the outcome")
                    .isEmpty();
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO notes VALUES (?, 'x\u0000')")) {
                ps.setInt(1, 5);
                assertRefusedWith22021(ps::executeUpdate);
                ps.setInt(1, 6);
                ps.addBatch();
                assertRefusedWith22021(ps::executeBatch);
            }
            // The backend's driver writes these arguments into the SQL it sends.
            assertRefusedWith22021(() -> c.getMetaData().getTables(null, "public", "no\u0000tes", null));
            assertRefusedWith22021(() -> c.getMetaData().getTables(null, null, "%", new String[] {"TA\u0000BLE"}));

            assertSessionWorks(st);
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM notes")) {
                rs.next();
                assertThat(rs.getInt(1))
                        .as("rows written by refused statements")
                        .isZero();
            }
        }
        raidb.assertEveryBackendEnabled();
    }

    /** In a bound value the NUL travels length-prefixed: PostgreSQL itself refuses it, with the same state. */
    @Test
    void nulInABoundParameterIsRefusedByPostgresqlWith22021() throws Exception {
        try (Connection c = raidb.connect();
                PreparedStatement ps = c.prepareStatement("INSERT INTO notes VALUES (?, ?)")) {
            ps.setInt(1, 10);
            ps.setString(2, "a\u0000b");
            assertThatThrownBy(ps::executeUpdate)
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22021"));
            try (Statement st = c.createStatement()) {
                assertSessionWorks(st);
            }
        }
        raidb.assertEveryBackendEnabled();
    }

    private static void assertSessionWorks(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT 40 + 2")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(42);
        }
    }
}
