package org.raidb.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ConnectTest {

    /** A localhost port nobody listens on: bound once, then released. */
    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void noControllerListeningIs08001ListingEachController() throws IOException {
        int p1 = closedPort();
        int p2 = closedPort();
        String url = "jdbc:raidb://127.0.0.1:" + p1 + ",127.0.0.1:" + p2 + "/vdb?connectTimeout=2";
        assertThatThrownBy(() -> new Driver().connect(url, new Properties()))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("127.0.0.1:" + p1)
                .hasMessageContaining("127.0.0.1:" + p2)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"));
    }

    @Test
    void driverIsRegisteredWithDriverManager() throws SQLException {
        assertThat(DriverManager.getDriver("jdbc:raidb://h/v")).isInstanceOf(Driver.class);
    }

    @Test
    void fallsBackToTheNextControllerThatAnswers() throws Exception {
        try (FakeController fake = new FakeController()) {
            String url = "jdbc:raidb://127.0.0.1:" + closedPort() + ",127.0.0.1:" + fake.port() + "/shop";
            Properties info = new Properties();
            info.setProperty("user", "bob");
            info.setProperty("password", "secret");
            info.setProperty("applicationName", "tests");
            try (Connection c = DriverManager.getConnection(url, info)) {
                assertThat(c.unwrap(RaidbConnection.class).controller().port()).isEqualTo(fake.port());
                assertThat(c.getMetaData().getDatabaseProductName()).isEqualTo("PostgreSQL");
                assertThat(c.getMetaData().getDatabaseMajorVersion()).isEqualTo(15);
                assertThat(c.getMetaData().getDriverName()).isEqualTo("RAIDb JDBC Driver");
                assertThat(c.getMetaData().getIdentifierQuoteString()).isEqualTo("\"");
                assertThat(c.getMetaData().getUserName()).isEqualTo("bob");
            }
            assertThat(fake.hellos).hasSize(1);
            assertThat(fake.hellos.get(0)).containsExactly("shop", "bob", "secret");
            assertThat(fake.clientProperties.get(0))
                    .containsEntry("applicationName", "tests")
                    .doesNotContainKey("password");
        }
    }

    @Test
    void handshakeErrorIsThrownAsTheControllerSentIt() throws Exception {
        try (FakeController fake = new FakeController()) {
            fake.helloError = new SQLException("password authentication failed for user \"bob\"", "28P01");
            assertThatThrownBy(() -> DriverManager.getConnection(fake.url("shop"), "bob", "wrong"))
                    .isInstanceOf(java.sql.SQLInvalidAuthorizationSpecException.class)
                    .hasMessageContaining("password authentication failed")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("28P01"));
        }
    }
}
