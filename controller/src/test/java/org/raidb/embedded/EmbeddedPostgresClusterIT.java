package org.raidb.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.test.PostgresClusterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EmbeddedPostgresClusterIT {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresClusterIT.class);

    @RegisterExtension
    static PostgresClusterExtension pg = PostgresClusterExtension.servers(3).database("shop");

    @Test
    @Order(1)
    void startsThreeServersOnTheirOwnPortsAndDirectories() throws SQLException {
        log.info(
                "3 servers started in {} ms with {}",
                pg.cluster().startupTime().toMillis(),
                pg.cluster().launcherDescription());
        List<EmbeddedPostgresServer> servers = pg.cluster().servers();
        assertThat(servers).extracting(EmbeddedPostgresServer::name).containsExactly("pg1", "pg2", "pg3");
        assertThat(servers)
                .extracting(EmbeddedPostgresServer::port)
                .doesNotHaveDuplicates()
                .doesNotContain(5432);
        assertThat(servers).extracting(EmbeddedPostgresServer::dataDirectory).doesNotHaveDuplicates();
        for (EmbeddedPostgresServer s : servers) {
            assertThat(s.jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:" + s.port() + "/shop");
            assertThat(s.user()).isEqualTo("postgres");
            assertThat(s.password()).isEmpty();
            assertThat(s.isRunning()).isTrue();
            try (Connection c = s.connect();
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT current_database(), current_setting('data_directory')")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("shop");
                assertThat(Path.of(rs.getString(2))).isEqualTo(s.dataDirectory());
            }
        }
    }

    @Test
    @Order(2)
    void serversAreIndependent() throws SQLException {
        execute(pg.server(0), "CREATE TABLE only_on_pg1 (id int PRIMARY KEY)");
        assertThat(tableExists(pg.server(0), "only_on_pg1")).isTrue();
        assertThat(tableExists(pg.server(1), "only_on_pg1")).isFalse();
        assertThat(tableExists(pg.server(2), "only_on_pg1")).isFalse();
        execute(pg.server(0), "DROP TABLE only_on_pg1");
    }

    @Test
    @Order(3)
    void runsWithTheSettingsTestsRelyOn() throws SQLException {
        try (Connection c = pg.server(1).connect();
                Statement s = c.createStatement()) {
            Map<String, String> expected = Map.of(
                    "fsync",
                    "on",
                    "synchronous_commit",
                    "on",
                    "max_connections",
                    "200",
                    "max_prepared_transactions",
                    "20",
                    "shared_buffers",
                    "32MB",
                    "server_version_num",
                    "");
            for (Map.Entry<String, String> e : expected.entrySet()) {
                try (ResultSet rs = s.executeQuery("SHOW " + e.getKey())) {
                    rs.next();
                    if (e.getValue().isEmpty()) {
                        log.info("server_version_num {}", rs.getString(1));
                    } else {
                        assertThat(rs.getString(1)).as(e.getKey()).isEqualTo(e.getValue());
                    }
                }
            }
            // Two-phase commit works (RAIDb-0 will need it).
            s.execute("CREATE TABLE two_phase (id int)");
            c.setAutoCommit(false);
            s.execute("INSERT INTO two_phase VALUES (1)");
            s.execute("PREPARE TRANSACTION 'raidb-harness-1'");
            c.setAutoCommit(true);
            s.execute("COMMIT PREPARED 'raidb-harness-1'");
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM two_phase")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(1);
            }
            s.execute("DROP TABLE two_phase");
        }
    }

    @Test
    @Order(4)
    void killedServerRefusesConnectionsAndKeepsCommittedDataAfterRestart() throws Exception {
        EmbeddedPostgresServer victim = pg.server(1);
        int port = victim.port();
        execute(victim, "CREATE TABLE survivors (id int PRIMARY KEY, note text)");
        execute(victim, "INSERT INTO survivors SELECT g, 'committed ' || g FROM generate_series(1, 1000) g");
        Connection held = victim.connect();
        Connection inFlight = victim.connect();
        inFlight.setAutoCommit(false);
        try (Statement s = inFlight.createStatement()) {
            s.execute("INSERT INTO survivors VALUES (5000, 'never committed')");
        }

        victim.kill();

        assertThat(victim.isRunning()).isFalse();
        assertThatThrownBy(victim::connect)
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("08"));
        assertThatThrownBy(() -> {
                    try (Statement s = held.createStatement()) {
                        s.executeQuery("SELECT 1");
                    }
                })
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("08"));
        held.close();
        inFlight.close();
        for (EmbeddedPostgresServer other : List.of(pg.server(0), pg.server(2))) {
            assertThat(other.isRunning()).isTrue();
            assertThat(count(other, "SELECT 1")).isEqualTo(1);
        }

        victim.start();

        assertThat(victim.isRunning()).isTrue();
        assertThat(victim.port()).isEqualTo(port);
        assertThat(count(victim, "SELECT count(*) FROM survivors")).isEqualTo(1000);
        assertThat(count(victim, "SELECT count(*) FROM survivors WHERE id = 5000"))
                .isZero();
        execute(victim, "DROP TABLE survivors");
    }

    @Test
    @Order(5)
    void aServerCanBeStoppedCleanlyAndStartedAgain() throws SQLException {
        EmbeddedPostgresServer s = pg.server(2);
        execute(s, "CREATE TABLE kept (id int)");
        execute(s, "INSERT INTO kept VALUES (1), (2)");
        s.stop();
        assertThat(s.isRunning()).isFalse();
        s.start();
        assertThat(count(s, "SELECT count(*) FROM kept")).isEqualTo(2);
        execute(s, "DROP TABLE kept");
    }

    @Test
    @Order(6)
    void aTestMayLeaveAServerKilled() {
        pg.server(2).kill();
        assertThat(pg.server(2).isRunning()).isFalse();
    }

    @Test
    @Order(7)
    void theNextTestFindsEveryServerRunningAgain() throws SQLException {
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            assertThat(s.isRunning()).as(s.name()).isTrue();
            assertThat(count(s, "SELECT 1")).isEqualTo(1);
        }
    }

    @Test
    @Order(8)
    void writesAControllerConfigurationForTheCluster(@TempDir Path dir) throws Exception {
        Path file = pg.writeControllerConfig(dir.resolve("conf/raidb.xml"), "shop", "<!-- extra -->");
        String xml = Files.readString(file);
        assertThat(xml).startsWith("<raidb>\n  <controller port=\"0\" adminPort=\"0\" dataDir=\"");
        // Extra elements (scheduler, recoveryLog, backup) go before the RAIDb level, where the schema wants them.
        assertThat(xml)
                .contains(
                        "<!-- extra -->\n    <raidb1 readPolicy=\"roundRobin\" completion=\"all\"/>\n  </virtualDatabase>");
        Document doc = parse(file);
        assertThat(((Element) doc.getElementsByTagName("virtualDatabase").item(0)).getAttribute("name"))
                .isEqualTo("shop");
        Element admin = (Element) doc.getElementsByTagName("admin").item(0);
        assertThat(admin.getAttribute("user")).isEqualTo("admin");
        assertThat(admin.getAttribute("password")).isEqualTo("adminpw");
        Element user = (Element) doc.getElementsByTagName("virtualUser").item(0);
        assertThat(user.getAttribute("name")).isEqualTo("app");
        assertThat(user.getAttribute("password")).isEqualTo("apppw");
        NodeList backends = doc.getElementsByTagName("backend");
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < backends.getLength(); i++) {
            Element b = (Element) backends.item(i);
            assertThat(b.getAttribute("name")).isEqualTo("pg" + (i + 1));
            assertThat(b.getAttribute("user")).isEqualTo("postgres");
            assertThat(b.hasAttribute("password")).isTrue();
            urls.add(b.getAttribute("url"));
        }
        assertThat(urls)
                .containsExactlyElementsOf(pg.cluster().servers().stream()
                        .map(EmbeddedPostgresServer::jdbcUrl)
                        .toList());

        Path custom = pg.controllerConfig("other")
                .virtualUsers(Map.of("bob", "p<&\"'>w"))
                .admin("root", "s3cret")
                .replication("<raidb1 readPolicy=\"leastPending\" completion=\"first\"/>")
                .backends(pg.cluster().servers().subList(0, 2))
                .port(25322)
                .writeTo(dir.resolve("other.xml"));
        Document other = parse(custom);
        assertThat(((Element) other.getElementsByTagName("virtualUser").item(0)).getAttribute("password"))
                .isEqualTo("p<&\"'>w");
        assertThat(((Element) other.getElementsByTagName("raidb1").item(0)).getAttribute("completion"))
                .isEqualTo("first");
        assertThat(other.getElementsByTagName("backend").getLength()).isEqualTo(2);
        assertThat(((Element) other.getElementsByTagName("controller").item(0)).getAttribute("port"))
                .isEqualTo("25322");
    }

    private static Document parse(Path file) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
    }

    private static void execute(EmbeddedPostgresServer server, String sql) throws SQLException {
        try (Connection c = server.connect();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static long count(EmbeddedPostgresServer server, String sql) throws SQLException {
        try (Connection c = server.connect();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static boolean tableExists(EmbeddedPostgresServer server, String table) throws SQLException {
        try (Connection c = server.connect();
                ResultSet rs = c.getMetaData().getTables(null, "public", table, new String[] {"TABLE"})) {
            return rs.next();
        }
    }
}
