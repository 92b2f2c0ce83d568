package org.raidb.controller.it.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.embedded.EmbeddedPostgresServer;

/**
 * The ApplicationName of a connection (property or setClientInfo) is the application_name of the
 * backend connections its statements run on, and leaves them when they go back to the pool.
 */
class ApplicationNameParityIT {
    @RegisterExtension
    static final PgjdbcParity parity = PgjdbcParity.withSchema("CREATE TABLE visits (id int PRIMARY KEY)");

    static String applicationName(Connection c) throws Exception {
        try (Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT application_name FROM pg_stat_activity WHERE pid = pg_backend_pid()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Backend connections on a server, other than ours, that carry this application name. */
    static int carrying(EmbeddedPostgresServer server, String name) throws Exception {
        try (Connection c = server.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT count(*) FROM pg_stat_activity WHERE application_name = '" + name + "'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    static String who(EmbeddedPostgresServer server) throws Exception {
        try (Connection c = server.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT pid, application_name, state, query FROM pg_stat_activity WHERE datname = 'shop'")) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getInt(1) + "/" + rs.getString(2) + "/" + rs.getString(3) + "/" + rs.getString(4));
            }
            return out.toString();
        }
    }

    static Object compare(String property, PgjdbcParity.JdbcCode<Object> code) throws Exception {
        Properties p = new Properties();
        if (property != null) {
            p.setProperty("ApplicationName", property);
        }
        Object expected;
        try (Connection c = parity.pgjdbc(p)) {
            expected = PgjdbcParity.Observed.of(() -> code.run(c));
        }
        try (Connection c = parity.raidbConnection(p)) {
            assertThat(PgjdbcParity.Observed.of(() -> code.run(c)))
                    .as("RAIDb against pgjdbc")
                    .isEqualTo(expected);
        }
        return expected;
    }

    @Test
    void theConnectionPropertyNamesTheBackendConnections() throws Exception {
        Object seen = compare("billing-batch", c -> applicationName(c) + " " + c.getClientInfo("ApplicationName"));
        assertThat(seen).isEqualTo("billing-batch billing-batch");
    }

    @Test
    void setClientInfoRenamesThem() throws Exception {
        Object seen = compare(null, c -> {
            List<String> out = new ArrayList<>();
            c.setClientInfo("ApplicationName", "reports");
            out.add(applicationName(c) + " " + c.getClientInfo("ApplicationName"));
            c.setAutoCommit(false);
            out.add(applicationName(c));
            c.commit();
            Properties all = new Properties();
            all.setProperty("ApplicationName", "reports-2");
            c.setClientInfo(all);
            out.add(applicationName(c) + " " + c.getClientInfo().getProperty("ApplicationName"));
            return out;
        });
        assertThat(seen.toString()).contains("reports reports").contains("reports-2 reports-2");
    }

    @Test
    void everyBackendOfATransactionCarriesTheNameAndNoPooledConnectionKeepsIt() throws Exception {
        Properties p = new Properties();
        p.setProperty("ApplicationName", "writer-42");
        try (Connection c = parity.raidbConnection(p);
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.executeUpdate("INSERT INTO visits VALUES (1)"); // a lane on each backend, held until commit
            for (EmbeddedPostgresServer s : parity.cluster().cluster().servers()) {
                assertThat(carrying(s, "writer-42"))
                        .as("connections named on %s", s.name())
                        .isEqualTo(1);
            }
            c.commit();
            // The client is answered when the backends committed; their connections go back to the pool just after.
            for (EmbeddedPostgresServer s : parity.cluster().cluster().servers()) {
                await().atMost(Duration.ofSeconds(30))
                        .untilAsserted(() -> assertThat(carrying(s, "writer-42"))
                                .as("pooled connections still named on %s: %s", s.name(), who(s))
                                .isZero());
            }
            c.setAutoCommit(true);
            assertThat(applicationName(c)).isEqualTo("writer-42"); // a read borrows a connection and names it again
            for (EmbeddedPostgresServer s : parity.cluster().cluster().servers()) {
                assertThat(carrying(s, "writer-42"))
                        .as("after an auto-commit read, on %s: %s", s.name(), who(s))
                        .isZero();
            }
        }
    }
}
