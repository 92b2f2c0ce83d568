package org.raidb.controller.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/** Bad input from clients never costs data, never takes the controller down, and leaves sessions usable. */
class BadInputIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    static ControllerFixture raidb;

    @BeforeAll
    static void startController() throws Exception {
        // The virtual user "app" acts as a dedicated real login, so that its backend connections can be counted.
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            try (Connection c = s.connect();
                    Statement st = c.createStatement()) {
                st.execute("CREATE ROLE app_real LOGIN PASSWORD 'real'");
                st.execute("GRANT ALL ON SCHEMA public TO app_real");
                // Used only by the wrong-password test, so that no other test opens its pools first.
                st.execute("CREATE ROLE visitor_real LOGIN PASSWORD 'real'");
            }
        }
        // Two virtual databases over the same servers: shop (user app, acting as app_real) and hr (user clerk).
        StringBuilder xml = new StringBuilder("<raidb>\n  <controller port=\"0\" adminPort=\"0\" dataDir=\"DATA\"/>\n");
        xml.append(
                "  <virtualDatabase name=\"shop\">\n    <authentication>\n      <admin user=\"admin\" password=\"adminpw\"/>\n"
                        + "      <virtualUser name=\"app\" password=\"apppw\"/>\n      <virtualUser name=\"visitor\" password=\"visitorpw\"/>\n"
                        + "    </authentication>\n");
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            xml.append("    <backend name=\"")
                    .append(s.name())
                    .append("\" url=\"")
                    .append(s.jdbcUrl())
                    .append(
                            "\" user=\"postgres\" password=\"\">\n      <login virtualUser=\"app\" user=\"app_real\" password=\"real\"/>\n"
                                    + "      <login virtualUser=\"visitor\" user=\"visitor_real\" password=\"real\"/>\n    </backend>\n");
        }
        xml.append("    <raidb1 readPolicy=\"roundRobin\" completion=\"all\"/>\n  </virtualDatabase>\n");
        xml.append(
                "  <virtualDatabase name=\"hr\">\n    <authentication>\n      <admin user=\"hradmin\" password=\"adminpw\"/>\n"
                        + "      <virtualUser name=\"clerk\" password=\"clerkpw\"/>\n    </authentication>\n");
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            xml.append("    <backend name=\"")
                    .append(s.name())
                    .append("\" url=\"")
                    .append(s.jdbcUrl())
                    .append("\" user=\"postgres\" password=\"\"/>\n");
        }
        xml.append("    <raidb1/>\n  </virtualDatabase>\n</raidb>\n");
        raidb = ControllerFixture.startFromXml(xml.toString(), "shop");
    }

    @AfterAll
    static void stopController() {
        if (raidb != null) {
            raidb.close();
        }
    }

    private static void assertSessionWorks(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT 40 + 2")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(42);
        }
    }

    @Test
    void malformedSqlGetsTheBackendsSqlStateAndTheSessionGoesOn() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            assertThatThrownBy(() -> st.executeQuery("SELEC 1 FROMM nowhere"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42601"))
                    .hasMessageContaining("syntax error");
            assertSessionWorks(c);
            assertThatThrownBy(() -> st.executeQuery("SELECT * FROM no_such_table"))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42P01"));
            assertSessionWorks(c);
            // Inside a transaction the failure aborts it, as on PostgreSQL, and a rollback makes it usable again.
            c.setAutoCommit(false);
            assertThatThrownBy(() -> st.executeUpdate("INSERT INTO no_such_table VALUES (1)"))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42P01"));
            assertThatThrownBy(() -> st.executeQuery("SELECT 1"))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25P02"));
            c.rollback();
            assertSessionWorks(c);
        }
        assertThat(raidb.controller().virtualDatabase("shop").backends())
                .allSatisfy(b -> assertThat(b.isEnabled()).isTrue());
    }

    @Test
    void wrongPasswordIsRefusedBeforeAnyBackendConnection() throws Exception {
        // "visitor" acts as its own real login, visitor_real, which no other test uses: its backend
        // connections are this test's alone, whatever order the tests run in.
        assertThatThrownBy(() -> DriverManager.getConnection(raidb.url(), "visitor", "wrong"))
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("28P01"))
                .hasMessageContaining("password authentication failed for user \"visitor\"");
        assertThatThrownBy(() -> DriverManager.getConnection(raidb.url(), "nobody", "visitorpw"))
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("28P01"));
        assertThat(backendConnectionsOf("visitor_real"))
                .as("connections of visitor's real login after refused logins")
                .isZero();
        // The count does see them once the right password has been used and a statement ran.
        try (Connection c = DriverManager.getConnection(raidb.url(), "visitor", "visitorpw")) {
            assertSessionWorks(c);
            assertThat(backendConnectionsOf("visitor_real"))
                    .as("connections of visitor's real login in use")
                    .isPositive();
        }
    }

    private static int backendConnectionsOf(String realUser) throws SQLException {
        int total = 0;
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            try (Connection c = s.connect();
                    PreparedStatement ps =
                            c.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE usename = ?")) {
                ps.setString(1, realUser);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    total += rs.getInt(1);
                }
            }
        }
        return total;
    }

    /** Before login nobody learns which virtual databases this controller serves: only that this one is not. */
    @Test
    void unknownVirtualDatabaseIsNamedWithoutListingTheOthers() {
        String url = raidb.url().replace("/shop", "/warehouse");
        assertThatThrownBy(() -> DriverManager.getConnection(url, "app", "apppw"))
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("3D000"))
                .hasMessageContaining("\"warehouse\" does not exist")
                .hasMessageContaining("check the database name in the JDBC URL")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContainPattern("\\b(shop|hr)\\b"));
    }

    @Test
    void noControllerListeningGives08001() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        SQLException refused = connectFailure("jdbc:raidb://127.0.0.1:" + closedPort + "/shop", 2, 2);
        assertThat(refused.getSQLState()).isEqualTo("08001");
        assertThat(refused.getMessage()).contains(String.valueOf(closedPort));
    }

    /**
     * A peer that accepts TCP connections and never says a word (a hung controller, a firewall, some
     * other service): the handshake gives up after the connect timeout, or after the socket timeout
     * when no connect timeout is set.
     */
    @Test
    void aPeerThatAcceptsButNeverAnswersGives08001() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            List<Socket> accepted = new CopyOnWriteArrayList<>();
            Thread acceptor = new Thread(
                    () -> {
                        try {
                            while (true) {
                                accepted.add(silent.accept()); // kept open, never read nor written
                            }
                        } catch (IOException closed) {
                            // the test is over
                        }
                    },
                    "silent-peer");
            acceptor.setDaemon(true);
            acceptor.start();
            String url = "jdbc:raidb://127.0.0.1:" + silent.getLocalPort() + "/shop";
            try {
                SQLException byConnectTimeout = connectFailure(url, 1, 1);
                assertThat(byConnectTimeout.getSQLState()).isEqualTo("08001");
                assertThat(byConnectTimeout.getMessage()).contains("no answer within connectTimeout=1s");
                SQLException bySocketTimeout = connectFailure(url, 0, 1);
                assertThat(bySocketTimeout.getSQLState()).isEqualTo("08001");
                assertThat(bySocketTimeout.getMessage()).contains("no answer within socketTimeout=1s");
                assertThat(accepted).as("connections the silent peer accepted").hasSize(2);
            } finally {
                for (Socket s : accepted) {
                    s.close();
                }
            }
        }
    }

    /**
     * The failure of a connection attempt. The preemptive timeout only guards the build against a
     * driver that hangs; it is far above the timeouts under test and asserts nothing about speed.
     */
    private static SQLException connectFailure(String url, int connectTimeout, int socketTimeout) {
        Properties p = new Properties();
        p.setProperty("user", "app");
        p.setProperty("password", "apppw");
        p.setProperty("connectTimeout", String.valueOf(connectTimeout));
        p.setProperty("socketTimeout", String.valueOf(socketTimeout));
        return assertTimeoutPreemptively(Duration.ofMinutes(2), () -> {
            try (Connection c = DriverManager.getConnection(url, p)) {
                throw new AssertionError("connected to " + url + " although nothing answers there: " + c);
            } catch (SQLException e) {
                return e;
            }
        });
    }

    @Test
    void randomBytesAndOversizedFramesCloseOnlyThatConnection() throws Exception {
        try (Connection survivor = raidb.connect()) {
            byte[] junk = new byte[4096];
            new Random(42).nextBytes(junk);
            assertConnectionClosedAfter(junk);
            assertConnectionClosedAfter("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            // An announced frame of 1 GiB: refused from its length alone, nothing of it is read.
            java.io.ByteArrayOutputStream frame = new java.io.ByteArrayOutputStream();
            new DataOutputStream(frame).writeInt(1 << 30);
            frame.write('H');
            assertConnectionClosedAfter(frame.toByteArray());
            assertSessionWorks(survivor);
        }
        try (Connection fresh = raidb.connect()) {
            assertSessionWorks(fresh);
        }
    }

    private static void assertConnectionClosedAfter(byte[] bytes) throws Exception {
        try (Socket s = new Socket("127.0.0.1", raidb.controller().port())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(bytes);
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            // The controller may answer with one ERROR frame; then it must close the connection.
            byte[] buf = new byte[65536];
            long total = 0;
            int n;
            while ((n = in.read(buf)) >= 0) {
                total += n;
                assertThat(total).as("bytes the controller answered junk with").isLessThan(4096);
            }
            assertThat(n).isEqualTo(-1);
        }
    }

    @Test
    void aUserOfOneVirtualDatabaseCannotOpenAnother() throws Exception {
        String hrUrl = raidb.url().replace("/shop", "/hr");
        try (Connection c = DriverManager.getConnection(hrUrl, "clerk", "clerkpw")) {
            assertSessionWorks(c);
        }
        assertThatThrownBy(() -> DriverManager.getConnection(hrUrl, "app", "apppw"))
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("28P01"));
        assertThatThrownBy(() -> DriverManager.getConnection(raidb.url(), "clerk", "clerkpw"))
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("28P01"));
        // "admin" administers shop; it is not one of its virtual users.
        assertThatThrownBy(() -> DriverManager.getConnection(raidb.url(), "admin", "adminpw"))
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("28P01"));
    }
}
