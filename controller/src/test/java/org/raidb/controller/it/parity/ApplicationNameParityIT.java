package org.raidb.controller.it.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.embedded.EmbeddedPostgresServer;

/**
 * The ApplicationName of a connection (property or setClientInfo) is the application_name of the
 * backend connections its statements run on; the next session to borrow one of them puts its own there.
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
    void everyBackendOfATransactionCarriesTheNameAndTheNextSessionItsOwn() throws Exception {
        Properties named = new Properties();
        named.setProperty("ApplicationName", "writer-42");
        try (Connection c = parity.raidbConnection(named);
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS names_seen (session text, name text)");
            c.setAutoCommit(false);
            st.executeUpdate("INSERT INTO visits VALUES (1)"); // a lane on each backend, held until commit
            for (EmbeddedPostgresServer s : parity.cluster().cluster().servers()) {
                assertThat(carrying(s, "writer-42"))
                        .as("connections named on %s", s.name())
                        .isEqualTo(1);
            }
            c.commit();
            c.setAutoCommit(true);
            assertThat(applicationName(c)).isEqualTo("writer-42");
        }
        // The name stays on the pooled connections (no round trip to unname them), so every next session must
        // put its own on whatever connection it borrows: none (the pool's own) or another.
        Properties other = new Properties();
        other.setProperty("ApplicationName", "reader-7");
        for (Properties p : List.of(new Properties(), other)) {
            String session = p.getProperty("ApplicationName", "unnamed");
            try (Connection c = parity.raidbConnection(p);
                    Statement st = c.createStatement()) {
                for (int i = 0; i < 5; i++) {
                    String seen = applicationName(c);
                    assertThat(seen).as("a read of the %s session", session).isNotEqualTo("writer-42");
                    if (p == other) {
                        assertThat(seen).isEqualTo("reader-7");
                    }
                    c.setAutoCommit(i % 2 == 1); // in a transaction every other time
                    st.executeUpdate("INSERT INTO names_seen VALUES ('" + session
                            + "', current_setting('application_name'))"); // runs on every backend
                    if (i % 2 == 0) {
                        c.commit();
                    }
                }
                c.setAutoCommit(true);
            }
        }
        for (EmbeddedPostgresServer s : parity.cluster().cluster().servers()) {
            try (Connection direct = s.connect("shop");
                    Statement st = direct.createStatement();
                    ResultSet rs = st.executeQuery("SELECT session, name FROM names_seen")) {
                int rows = 0;
                while (rs.next()) {
                    rows++;
                    assertThat(rs.getString(2)).as("on %s", s.name()).isNotEqualTo("writer-42");
                    if (rs.getString(1).equals("reader-7")) {
                        assertThat(rs.getString(2)).as("on %s", s.name()).isEqualTo("reader-7");
                    }
                }
                assertThat(rows).as("rows on %s", s.name()).isEqualTo(10);
            }
        }
    }
}
