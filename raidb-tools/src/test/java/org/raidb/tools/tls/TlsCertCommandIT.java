package org.raidb.tools.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.Controller;
import org.raidb.controller.admin.client.AdminClient;
import org.raidb.controller.admin.client.TrustedCertificates;
import org.raidb.controller.config.ConfigLoader;
import org.raidb.controller.config.EnvironmentReference;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;
import org.raidb.tools.cli.RaidbCommand;
import picocli.CommandLine;

/**
 * {@code raidb tls-cert}: the key store it writes serves a real controller's driver port and admin port, a driver
 * with {@code sslmode=verify-full} and the PEM as {@code sslrootcert} connects, the console with {@code --cacert}
 * administers it; and what bad options get.
 */
class TlsCertCommandIT {
    private static final Map<String, String> ENVIRONMENT = Map.of("RAIDB_TEST_KEYSTORE_PASSWORD", "trial-secret-1");

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(1).database("shop");

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {}

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine line = new CommandLine(new TlsCertCommand(ENVIRONMENT::get));
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        int exit = line.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void itsKeyStoreServesAControllerThatVerifyFullDriversAndTheConsoleTrust() throws Exception {
        Path store = dir.resolve("certs/trial.p12");
        Run made = run("--keystore", store.toString(), "--password", "${RAIDB_TEST_KEYSTORE_PASSWORD}");
        assertThat(made.exit()).as(made.err()).isZero();
        Path pem = dir.resolve("certs/trial.pem");
        assertThat(Files.readString(pem)).startsWith("-----BEGIN CERTIFICATE-----");
        assertThat(made.out())
                .contains("dns:localhost,ip:127.0.0.1")
                .contains("keyStorePassword=\"${RAIDB_TEST_KEYSTORE_PASSWORD}\"");

        Path config = ControllerConfigXml.forCluster(pg.cluster(), "shop")
                .controllerElements(
                        "<tls keyStore=\"" + store + "\" keyStorePassword=\"${RAIDB_TEST_KEYSTORE_PASSWORD}\"/>")
                .dataDir(dir.resolve("data"))
                .writeTo(dir.resolve("raidb.xml"));
        try (Controller controller =
                Controller.start(ConfigLoader.load(config, new EnvironmentReference(ENVIRONMENT::get)))) {
            String url = "jdbc:raidb://localhost:" + controller.port() + "/shop?sslmode=verify-full&sslrootcert=" + pem;
            try (Connection c = DriverManager.getConnection(url, "app", "apppw");
                    ResultSet rs = c.createStatement().executeQuery("SELECT 40 + 2")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(42);
            }
            AdminClient admin = new AdminClient(
                    URI.create("https://127.0.0.1:" + controller.adminPort()),
                    "admin",
                    "adminpw",
                    TrustedCertificates.of(pem));
            assertThat(admin.get("/api/virtualdatabases/shop/backends").toString())
                    .contains(pg.server(0).name());

            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine raidb = new CommandLine(new RaidbCommand());
            raidb.setOut(new PrintWriter(out, true));
            raidb.setErr(new PrintWriter(err, true));
            int exit = raidb.execute(
                    "console",
                    "--cacert",
                    pem.toString(),
                    "--port",
                    String.valueOf(controller.adminPort()),
                    "-u",
                    "admin",
                    "-p",
                    "adminpw",
                    "-c",
                    "show backends shop");
            assertThat(exit).as(err.toString()).isZero();
            assertThat(out.toString()).contains(pg.server(0).name()).contains("enabled");
        }
    }

    @Test
    void badOptionsAreRefusedSayingWhatToGive() throws Exception {
        Path store = dir.resolve("a.p12");
        Run unset = run("--keystore", store.toString(), "--password", "${RAIDB_TEST_NOT_SET_31}");
        assertThat(unset.exit()).isEqualTo(2);
        assertThat(unset.err()).contains("RAIDB_TEST_NOT_SET_31").contains("set it");
        Run shortPassword = run("--keystore", store.toString(), "--password", "abc");
        assertThat(shortPassword.exit()).isEqualTo(2);
        assertThat(shortPassword.err()).contains("at least 6 characters");
        Run days = run("--keystore", store.toString(), "--password", "secret-9", "--days", "0");
        assertThat(days.exit()).isEqualTo(2);
        assertThat(days.err()).contains("--days must be between 1 and 36500");
        Run host = run("--keystore", store.toString(), "--password", "secret-9", "--hosts", "localhost,not a host");
        assertThat(host.exit()).isEqualTo(2);
        assertThat(host.err()).contains("'not a host' is neither a host name nor an IP address");
        assertThat(store).doesNotExist();

        assertThat(run("--keystore", store.toString(), "--password", "secret-9", "--hosts", "db1.example,10.0.0.5")
                        .exit())
                .isZero();
        Run again = run("--keystore", store.toString(), "--password", "secret-9");
        assertThat(again.exit()).isEqualTo(2);
        assertThat(again.err()).contains(store + " exists").contains("--force");
        Run forced = run("--keystore", store.toString(), "--password", "secret-9", "--force");
        assertThat(forced.exit()).as(forced.err()).isZero();
        assertThat(forced.out()).contains("dns:localhost,ip:127.0.0.1");
    }
}
