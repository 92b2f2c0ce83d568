package org.raidb.controller.it.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.it.pgwire.PostgresClientPrograms;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;
import org.raidb.test.RecordingProxy;
import org.raidb.test.TestCertificate;

/**
 * TLS on the PostgreSQL front end's port (issue 18): a controller with {@code <tls>} answers an SSLRequest
 * 'S' and runs the handshake with its key store; pgjdbc under {@code sslmode=verify-full} and psql (libpq)
 * under {@code sslmode=require} work through it and the wire carries no SQL; a plain client of a TLS-only
 * controller is refused saying how to connect, and served when plain clients are allowed.
 */
class PostgresPortTlsIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    @TempDir
    static Path certificates;

    private static TestCertificate localhost;

    @BeforeAll
    static void makeCertificate() throws Exception {
        localhost = TestCertificate.localhost(certificates);
    }

    private static ControllerFixture start(String clients) throws Exception {
        ControllerConfigXml config = pg.controllerConfig("shop")
                .controllerAttribute("pgPort", 0)
                .controllerElements(localhost.tlsElement(clients));
        return ControllerFixture.start(config, "shop");
    }

    private static Connection pgjdbc(int port, String sslmode) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", ControllerFixture.USER);
        p.setProperty("password", ControllerFixture.PASSWORD);
        p.setProperty("sslmode", sslmode);
        p.setProperty("sslrootcert", localhost.certificate().toString());
        return DriverManager.getConnection("jdbc:postgresql://localhost:" + port + "/shop", p);
    }

    @Test
    void pgjdbcUnderVerifyFullWritesAndReadsAndTheWireCarriesNoSql() throws Exception {
        String marker = "pg-tls-marker-4471";
        try (ControllerFixture raidb = start("required");
                RecordingProxy wire = new RecordingProxy(raidb.controller().pgPort());
                Connection c = pgjdbc(wire.port(), "verify-full");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE notes (id int PRIMARY KEY, v text)");
            assertThat(st.executeUpdate("INSERT INTO notes VALUES (1, '" + marker + "')"))
                    .isEqualTo(1);
            try (ResultSet rs = st.executeQuery("SELECT v FROM notes")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo(marker);
            }
            assertThat(wire.bytesSeen()).isGreaterThan(1000);
            assertThat(wire.carried(marker)).as("the marker in clear").isFalse();
            assertThat(wire.carried("notes")).as("the table name in clear").isFalse();
            st.execute("DROP TABLE notes");
        }
    }

    @Test
    void aPlainClientOfATlsOnlyPortIsToldToUseTlsAndAllowedWhereTlsIsOptional() throws Exception {
        try (ControllerFixture raidb = start("required")) {
            int port = raidb.controller().pgPort();
            assertThatThrownBy(() -> pgjdbc(port, "disable").close())
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("over TLS only")
                    .hasMessageContaining("sslmode=require")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("28000"));
            try (Connection c = pgjdbc(port, "require");
                    ResultSet rs = c.createStatement().executeQuery("SELECT 7")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(7);
            }
        }
        try (ControllerFixture raidb = start("optional");
                Connection c = pgjdbc(raidb.controller().pgPort(), "disable");
                ResultSet rs = c.createStatement().executeQuery("SELECT 8")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(8);
        }
    }

    @Test
    void psqlUnderSslmodeRequireSeesAnEncryptedConnection() throws Exception {
        Path psql = PostgresClientPrograms.find("psql");
        assumeTrue(psql != null, "psql is not installed (postgresql-client, as .ci/run installs)");
        try (ControllerFixture raidb = start("required")) {
            String output = PostgresClientPrograms.run(
                    List.of(
                            psql.toString(),
                            "-X",
                            "-A",
                            "-t",
                            "-c",
                            "SELECT 'over tls'",
                            "host=localhost port=" + raidb.controller().pgPort() + " dbname=shop user="
                                    + ControllerFixture.USER + " sslmode=verify-full sslrootcert="
                                    + localhost.certificate()),
                    60);
            assertThat(output).contains("over tls");
        }
    }
}
