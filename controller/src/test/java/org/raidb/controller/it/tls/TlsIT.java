package org.raidb.controller.it.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;
import org.raidb.test.RecordingProxy;
import org.raidb.test.TestCertificate;

/**
 * Driver connections over TLS (issue 18): a controller with {@code <tls>} in front of real PostgreSQL
 * backends, the driver's sslmode values, a recording proxy reading the wire as an observer would, and
 * what a wrong certificate, a plain client or an expired certificate get.
 */
class TlsIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    @TempDir
    static Path certificates;

    private static TestCertificate localhost;
    private static TestCertificate otherHost;

    @BeforeAll
    static void makeCertificates() throws Exception {
        localhost = TestCertificate.localhost(certificates);
        otherHost = TestCertificate.otherHost(certificates);
    }

    private static ControllerFixture start(TestCertificate cert, String clients) throws Exception {
        ControllerConfigXml config = pg.controllerConfig("shop");
        if (cert != null) {
            config.controllerElements(cert.tlsElement(clients));
        }
        return ControllerFixture.start(config, "shop");
    }

    private static Connection connect(int port, String parameters) throws SQLException {
        return DriverManager.getConnection(
                "jdbc:raidb://127.0.0.1:" + port + "/shop" + (parameters.isEmpty() ? "" : "?" + parameters),
                "app",
                "apppw");
    }

    private static String verifyFull(TestCertificate trusted) {
        return "sslmode=verify-full&sslrootcert=" + trusted.certificate();
    }

    @Test
    void verifyFullConnectsWritesAndReadsAndTheWireCarriesNoSqlOrPassword() throws Exception {
        String marker = "tls-secret-marker-7319";
        try (ControllerFixture raidb = start(localhost, "required");
                RecordingProxy wire = new RecordingProxy(raidb.controller().port());
                Connection c = connect(wire.port(), verifyFull(localhost));
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE secrets (id int PRIMARY KEY, v text)");
            assertThat(st.executeUpdate("INSERT INTO secrets VALUES (1, '" + marker + "')"))
                    .isEqualTo(1);
            try (ResultSet rs = st.executeQuery("SELECT v FROM secrets WHERE id = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo(marker);
            }
            assertThat(wire.bytesSeen()).isGreaterThan(1000);
            assertThat(wire.carried(marker))
                    .as("the marker in clear on the wire")
                    .isFalse();
            assertThat(wire.carried("secrets")).as("the table name in clear").isFalse();
            assertThat(wire.carried("apppw")).as("the password in clear").isFalse();
            // Every backend got the write.
            for (int i = 0; i < 2; i++) {
                try (Connection direct = pg.server(i).connect();
                        ResultSet rs = direct.createStatement().executeQuery("SELECT v FROM secrets")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo(marker);
                }
            }
            st.execute("DROP TABLE secrets");
        }
    }

    @Test
    void withoutTlsTheSameCheckSeesTheSqlText() throws Exception {
        // The control of the test above: the proxy does read what a plain connection carries.
        try (ControllerFixture raidb = start(null, null);
                RecordingProxy wire = new RecordingProxy(raidb.controller().port());
                Connection c = connect(wire.port(), "");
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT 'plain-marker-5521'")) {
            assertThat(rs.next()).isTrue();
            assertThat(wire.carried("plain-marker-5521")).isTrue();
        }
    }

    @Test
    void aCertificateForAnotherHostIsRefusedUnderVerifyFullAndAcceptedUnderVerifyCa() throws Exception {
        try (ControllerFixture raidb = start(otherHost, "required")) {
            int port = raidb.controller().port();
            assertThatThrownBy(() -> connect(port, verifyFull(otherHost)).close())
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"))
                    .hasMessageContaining("127.0.0.1:" + port)
                    .hasMessageContaining("another host name");
            try (Connection c = connect(port, "sslmode=verify-ca&sslrootcert=" + otherHost.certificate());
                    ResultSet rs = c.createStatement().executeQuery("SELECT 1")) {
                assertThat(rs.next()).isTrue();
            }
        }
    }

    @Test
    void anUntrustedCertificateIsRefusedUnlessOnlyEncryptionIsRequired() throws Exception {
        try (ControllerFixture raidb = start(localhost, "required")) {
            int port = raidb.controller().port();
            // The JVM's trust store does not hold the self-signed certificate.
            assertThatThrownBy(() -> connect(port, "ssl=true").close())
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("does not chain to a trusted one");
            assertThatThrownBy(() -> connect(port, verifyFull(otherHost)).close())
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("does not chain to a trusted one");
            try (Connection c = connect(port, "sslmode=require");
                    ResultSet rs = c.createStatement().executeQuery("SELECT 2")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(2);
            }
        }
    }

    @Test
    void aPlainClientOfATlsOnlyControllerIsToldToUseTlsAndTheControllerGoesOn() throws Exception {
        try (ControllerFixture raidb = start(localhost, "required")) {
            int port = raidb.controller().port();
            assertThatThrownBy(() -> connect(port, "").close())
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08004"))
                    .hasMessageContaining("accepts TLS connections only")
                    .hasMessageContaining("sslmode");
            try (Connection c = connect(port, verifyFull(localhost));
                    ResultSet rs = c.createStatement().executeQuery("SELECT 3")) {
                assertThat(rs.next()).isTrue();
            }
        }
    }

    @Test
    void clientsOptionalServesPlainAndTlsClientsOnTheOnePort() throws Exception {
        try (ControllerFixture raidb = start(localhost, "optional")) {
            int port = raidb.controller().port();
            for (String parameters : List.of("", verifyFull(localhost), "sslmode=disable")) {
                try (Connection c = connect(port, parameters);
                        ResultSet rs = c.createStatement().executeQuery("SELECT 4")) {
                    assertThat(rs.next()).as(parameters).isTrue();
                }
            }
        }
    }

    @Test
    void aTlsClientOfAPlainControllerIsToldTheControllerMayNotAcceptTls() throws Exception {
        try (ControllerFixture raidb = start(null, null)) {
            int port = raidb.controller().port();
            assertThatThrownBy(() -> connect(port, verifyFull(localhost)).close())
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("127.0.0.1:" + port)
                    .hasMessageContaining("TLS");
            try (Connection c = connect(port, "");
                    ResultSet rs = c.createStatement().executeQuery("SELECT 5")) {
                assertThat(rs.next()).isTrue();
            }
        }
    }

    @Test
    void anExpiredCertificateKeepsTheControllerFromStartingAndSaysWhy() throws Exception {
        TestCertificate expired = TestCertificate.make(certificates, "expired", "dns:localhost", "-10d", 2);
        assertThatThrownBy(() -> start(expired, "required").close())
                .hasMessageContaining(expired.keyStore().toString())
                .hasMessageContaining("CN=expired")
                .hasMessageContaining("not now");
    }

    @Test
    void aWrongKeyStorePasswordOrAMissingVariableIsNamed() throws Exception {
        ControllerConfigXml wrong = pg.controllerConfig("shop")
                .controllerElements("<tls keyStore=\"" + localhost.keyStore() + "\" keyStorePassword=\"nope\"/>");
        assertThatThrownBy(() -> ControllerFixture.start(wrong, "shop").close())
                .hasMessageContaining(localhost.keyStore().toString())
                .hasMessageContaining("keyStorePassword");
        ControllerConfigXml unset = pg.controllerConfig("shop")
                .controllerElements("<tls keyStore=\"" + localhost.keyStore()
                        + "\" keyStorePassword=\"${RAIDB_TEST_UNSET_VARIABLE_42}\"/>");
        assertThatThrownBy(() -> ControllerFixture.start(unset, "shop").close())
                .hasMessageContaining("RAIDB_TEST_UNSET_VARIABLE_42")
                .hasMessageContaining("environment");
    }

    @Test
    void aBadSslmodeIsRefusedByTheDriver() {
        assertThatThrownBy(() -> connect(1, "sslmode=sometimes").close())
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"))
                .hasMessageContaining("sslmode")
                .hasMessageContaining("verify-full");
    }
}
