package org.raidb.controller.it.determinism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.raidb.controller.it.support.ReplicaChecks.results;
import static org.raidb.controller.it.support.ReplicaChecks.rows;
import static org.raidb.controller.it.support.ReplicaChecks.served;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.MariaDbServer;

/**
 * The same rules over MariaDB (two databases of the local server as RAIDb-1 backends): a routine not
 * declared NO SQL or READS SQL DATA may write, so a SELECT calling it runs on both; a function body
 * {@code BEGIN … END} holds semicolons yet is one statement; a text of several statements reaches both.
 */
class WritingFunctionsMariaDbIT {
    private static final List<String> DATABASES = List.of("raidb_fn1", "raidb_fn2");

    static ControllerFixture raidb;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(MariaDbServer.mariaDbAvailable(), "no MariaDB on 127.0.0.1:3306 (root, empty password)");
        StringBuilder xml = new StringBuilder("<raidb>\n  <controller port=\"0\" adminPort=\"0\" dataDir=\"DATA\"/>\n"
                + "  <virtualDatabase name=\"shop\">\n    <authentication>\n      <admin user=\"admin\" password=\"adminpw\"/>\n"
                + "      <virtualUser name=\"app\" password=\"apppw\"/>\n    </authentication>\n");
        for (String db : DATABASES) {
            MariaDbServer.recreateDatabase(db);
            xml.append("    <backend name=\"")
                    .append(db)
                    .append("\" url=\"")
                    .append(ControllerConfigXml.escape(MariaDbServer.jdbcUrl(db) + "?allowMultiQueries=true"))
                    .append("\" user=\"")
                    .append(MariaDbServer.USER)
                    .append("\" password=\"\"/>\n");
        }
        xml.append("    <raidb1/>\n  </virtualDatabase>\n</raidb>\n");
        raidb = ControllerFixture.startFromXml(xml.toString(), "shop");
    }

    @AfterAll
    static void stop() throws SQLException {
        if (raidb != null) {
            raidb.close();
        }
        if (MariaDbServer.mariaDbAvailable()) {
            for (String db : DATABASES) {
                MariaDbServer.dropDatabase(db);
            }
        }
    }

    private static long backendsRunning(Statement st, String sql) throws SQLException {
        long before = served(raidb, "shop");
        st.execute(sql);
        return served(raidb, "shop") - before;
    }

    private static void assertOnBothDatabases(String query, String... expected) throws SQLException {
        for (String db : DATABASES) {
            try (Connection c = MariaDbServer.connect(db);
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(query)) {
                assertThat(rows(rs)).as("%s on %s", query, db).containsExactly(expected);
            }
        }
    }

    @Test
    void routinesThatMayWriteRunOnEveryBackend() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE calls_log (id INT AUTO_INCREMENT PRIMARY KEY, who VARCHAR(20) NOT NULL)");
            st.execute("CREATE FUNCTION declared_writer() RETURNS INT MODIFIES SQL DATA"
                    + " BEGIN INSERT INTO calls_log (who) VALUES ('declared'); RETURN 1; END");
            st.execute("CREATE FUNCTION default_writer() RETURNS INT"
                    + " BEGIN INSERT INTO calls_log (who) VALUES ('default'); RETURN 2; END");
            st.execute("CREATE FUNCTION reader() RETURNS INT READS SQL DATA RETURN (SELECT count(*) FROM calls_log)");

            assertThat(backendsRunning(st, "SELECT declared_writer()")).isEqualTo(2);
            assertThat(backendsRunning(st, "SELECT default_writer()"))
                    .as("CONTAINS SQL, MariaDB's default")
                    .isEqualTo(2);
            assertThat(backendsRunning(st, "SELECT reader(), CONCAT('a', 'b'), IFNULL(NULL, 1)"))
                    .isEqualTo(1);
            assertThat(results(st, "SELECT reader()")).containsExactly("rows [2|]");
        }
        assertOnBothDatabases("SELECT id, who FROM calls_log ORDER BY id", "1|declared|", "2|default|");
    }

    @Test
    void aTextOfSeveralStatementsReachesEveryBackend() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE multi (id INT PRIMARY KEY, note VARCHAR(40))");
            assertThat(results(
                            st, "SELECT 1; INSERT INTO multi VALUES (1, 'a;b -- c # d'); # ;\n SELECT note FROM multi"))
                    .containsExactly("rows [1|]", "count 1", "rows [a;b -- c # d|]");
        }
        assertOnBothDatabases("SELECT id, note FROM multi", "1|a;b -- c # d|");
    }
}
