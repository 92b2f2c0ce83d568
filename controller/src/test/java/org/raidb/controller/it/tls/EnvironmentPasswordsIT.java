package org.raidb.controller.it.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.config.ConfigException;
import org.raidb.controller.config.ConfigLoader;
import org.raidb.controller.config.EnvironmentReference;
import org.raidb.controller.it.support.ForkedController;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;

/**
 * Passwords of the configuration given as {@code ${NAME}}: a controller process whose backend, admin and virtual
 * user passwords come from its environment serves, against a PostgreSQL backend that checks the backend's password
 * (SCRAM for that role; the test servers otherwise trust loopback); an unset variable stops the start naming it.
 */
class EnvironmentPasswordsIT {
    private static final String ROLE = "raidb_env_user";
    private static final String ROLE_PASSWORD = "from-the-environment-7";

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(1).database("shop");

    /** The role logs in with a password, checked: a line for it before the servers' trust lines, then a reload. */
    @BeforeAll
    static void aRoleWhosePasswordIsChecked() throws Exception {
        EmbeddedPostgresServer server = pg.server(0);
        try (Connection c = server.connect();
                Statement st = c.createStatement()) {
            st.execute("DROP ROLE IF EXISTS " + ROLE);
            st.execute("CREATE ROLE " + ROLE + " LOGIN SUPERUSER PASSWORD '" + ROLE_PASSWORD + "'");
            Path hba;
            try (ResultSet rs = st.executeQuery("SHOW hba_file")) {
                rs.next();
                hba = Path.of(rs.getString(1));
            }
            Files.writeString(
                    hba,
                    "host all " + ROLE + " 127.0.0.1/32 scram-sha-256\nhost all " + ROLE + " ::1/128 scram-sha-256\n"
                            + Files.readString(hba));
            st.execute("SELECT pg_reload_conf()");
        }
        await().atMost(30, TimeUnit.SECONDS).until(() -> refused(server, "not-the-password"));
    }

    private static boolean refused(EmbeddedPostgresServer server, String password) {
        try (Connection c = DriverManager.getConnection(server.jdbcUrl(), ROLE, password)) {
            return false;
        } catch (SQLException e) {
            return "28P01".equals(e.getSQLState());
        }
    }

    private static ControllerConfigXml withReferences() {
        return pg.controllerConfig("shop")
                .backendLogin(pg.server(0).name(), ROLE, "${RAIDB_TEST_BACKEND_PASSWORD}")
                .admin("admin", "${RAIDB_TEST_ADMIN_PASSWORD}")
                .virtualUsers(Map.of("app", "${RAIDB_TEST_APP_PASSWORD}"));
    }

    @Test
    void aControllerProcessTakesItsPasswordsFromItsEnvironment() throws Exception {
        assertThat(refused(pg.server(0), ROLE_PASSWORD))
                .as("the backend accepts the right password")
                .isFalse();
        Map<String, String> environment = Map.of(
                "RAIDB_TEST_BACKEND_PASSWORD", ROLE_PASSWORD,
                "RAIDB_TEST_ADMIN_PASSWORD", "admin-from-env",
                "RAIDB_TEST_APP_PASSWORD", "app-from-env");
        try (ForkedController controller =
                ForkedController.startWithEnvironment(withReferences(), "shop", "256m", environment)) {
            try (Connection c = DriverManager.getConnection(controller.url(), "app", "app-from-env");
                    ResultSet rs = c.createStatement().executeQuery("SELECT current_user")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1))
                        .as("the backend login the controller used")
                        .isEqualTo(ROLE);
            }
            assertThatThrownBy(() -> DriverManager.getConnection(controller.url(), "app", "${RAIDB_TEST_APP_PASSWORD}")
                            .close())
                    .as("the reference itself is no password")
                    .isInstanceOf(SQLException.class);
            assertThat(controller.log()).doesNotContain(ROLE_PASSWORD);
        }
    }

    @Test
    void anUnsetVariableStopsTheStartNamingItAndItsElement() throws Exception {
        Path file =
                withReferences().writeTo(Files.createTempDirectory("raidb-env").resolve("raidb.xml"));
        Map<String, String> withoutBackend =
                Map.of("RAIDB_TEST_ADMIN_PASSWORD", "admin-from-env", "RAIDB_TEST_APP_PASSWORD", "app-from-env");
        assertThatThrownBy(() -> ConfigLoader.load(file, new EnvironmentReference(withoutBackend::get)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("<backend name=\"" + pg.server(0).name() + "\"> password")
                .hasMessageContaining("environment has no RAIDB_TEST_BACKEND_PASSWORD")
                .hasMessageContaining("set it before starting the controller");
    }

    @Test
    void aWrongPasswordFromTheEnvironmentReachesTheBackendAsIs() throws Exception {
        // The control of the first test: the backend does check what the variable holds.
        Path file =
                withReferences().writeTo(Files.createTempDirectory("raidb-env").resolve("raidb.xml"));
        Map<String, String> wrong = Map.of(
                "RAIDB_TEST_BACKEND_PASSWORD", "not-the-password",
                "RAIDB_TEST_ADMIN_PASSWORD", "a",
                "RAIDB_TEST_APP_PASSWORD", "b");
        String backendPassword = ConfigLoader.load(file, new EnvironmentReference(wrong::get))
                .virtualDatabases()
                .get(0)
                .backends()
                .get(0)
                .password();
        assertThat(backendPassword).isEqualTo("not-the-password");
        assertThat(refused(pg.server(0), backendPassword)).isTrue();
    }
}
