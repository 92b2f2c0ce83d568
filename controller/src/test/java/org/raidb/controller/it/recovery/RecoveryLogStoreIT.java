package org.raidb.controller.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;

/**
 * A virtual database whose recovery log store cannot be reached does not start (it could not log
 * its writes); the controller says why and serves its other virtual databases. The log may also
 * live in a PostgreSQL database.
 */
class RecoveryLogStoreIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    @Test
    void anUnreachableLogStoreKeepsOnlyItsVirtualDatabaseDown() throws Exception {
        String xml = "<raidb>\n  <controller host=\"127.0.0.1\" port=\"0\" adminPort=\"0\" dataDir=\"DATA\"/>\n"
                + vdb("broken", "<recoveryLog url=\"jdbc:postgresql://127.0.0.1:1/raidb_log\" user=\"x\"/>")
                + vdb("shop", "") + "</raidb>\n";
        try (ControllerFixture raidb = ControllerFixture.startFromXml(xml, "shop")) {
            try (Connection c = raidb.connect()) {
                c.createStatement().execute("CREATE TABLE served (id INT)");
            }
            String brokenUrl = raidb.url().replace("/shop", "/broken");
            assertThatThrownBy(() ->
                            DriverManager.getConnection(brokenUrl, ControllerFixture.USER, ControllerFixture.PASSWORD))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("virtual database \"broken\" is configured but not served")
                    .hasMessageContaining(
                            "Cannot reach the recovery log store at jdbc:postgresql://127.0.0.1:1/raidb_log")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"));
        }
    }

    @Test
    void theLogCanLiveInAPostgresqlDatabase() throws Exception {
        pg.cluster().recreateDatabases();
        EmbeddedPostgresServer store = pg.server(1);
        try (Connection c = store.connect()) {
            c.createStatement().execute("DROP DATABASE IF EXISTS raidb_log");
            c.createStatement().execute("CREATE DATABASE raidb_log");
        }
        String logXml = "<recoveryLog url=\"" + ControllerConfigXml.escape(store.jdbcUrl("raidb_log")) + "\" user=\""
                + ControllerConfigXml.escape(store.user()) + "\" password=\""
                + ControllerConfigXml.escape(store.password())
                + "\" tablePrefix=\"shoplog_\"/>";
        try (ControllerFixture raidb = ControllerFixture.start(
                pg.controllerConfig("shop")
                        .backends(java.util.List.of(pg.server(0)))
                        .extraXml(logXml),
                "shop")) {
            try (Connection c = raidb.connect()) {
                c.createStatement().execute("CREATE TABLE t (id INT PRIMARY KEY)");
                c.createStatement().execute("INSERT INTO t VALUES (1), (2)");
            }
        }
        try (Connection c = store.connect("raidb_log")) {
            // Each virtual database has its entry table, named by its id in <prefix>vdb.
            long id;
            try (var rs = c.createStatement().executeQuery("SELECT vdb_id FROM shoplog_vdb WHERE name = 'shop'")) {
                assertThat(rs.next()).isTrue();
                id = rs.getLong(1);
            }
            try (var rs = c.createStatement().executeQuery("SELECT count(*) FROM shoplog_log_" + id)) {
                rs.next();
                assertThat(rs.getLong(1))
                        .as("entries in the PostgreSQL log store")
                        .isEqualTo(2);
            }
        }
    }

    private static String vdb(String name, String extra) {
        EmbeddedPostgresServer s = pg.server(0);
        return "  <virtualDatabase name=\"" + name + "\">\n    <authentication><admin user=\"admin\" password=\"a\"/>"
                + "<virtualUser name=\"app\" password=\"apppw\"/></authentication>\n"
                + "    <backend name=\"pg1\" url=\"" + ControllerConfigXml.escape(s.jdbcUrl()) + "\" user=\""
                + ControllerConfigXml.escape(s.user()) + "\" password=\"" + ControllerConfigXml.escape(s.password())
                + "\"/>\n"
                + "    " + extra + "\n    <raidb1/>\n  </virtualDatabase>\n";
    }
}
