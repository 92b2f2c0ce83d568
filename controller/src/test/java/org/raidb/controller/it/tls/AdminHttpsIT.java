package org.raidb.controller.it.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.admin.client.AdminCallException;
import org.raidb.controller.admin.client.AdminClient;
import org.raidb.controller.admin.client.TrustedCertificates;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;
import org.raidb.test.TestCertificate;

/**
 * The admin API over HTTPS (issue 18): under {@code <tls>} the admin port, {@code /metrics} included, speaks
 * HTTPS with the driver port's key store. curl (as an operator or a Prometheus scrape would call it) and
 * {@link AdminClient} are served when they trust the certificate, refused when they do not, and plain HTTP
 * to the port fails with a message saying to use https://.
 */
class AdminHttpsIT {
    private static final String BACKENDS = "/api/virtualdatabases/shop/backends";

    @TempDir
    static Path certificates;

    private static TestCertificate localhost;
    private static TestCertificate otherHost;

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    @BeforeAll
    static void certificatesForLocalhostAndAnotherHost() throws Exception {
        localhost = TestCertificate.localhost(certificates);
        otherHost = TestCertificate.otherHost(certificates);
    }

    private static ControllerFixture start(TestCertificate cert, String admin) throws Exception {
        String tls = "<tls keyStore=\"" + cert.keyStore() + "\" keyStorePassword=\"" + cert.password()
                + "\" clients=\"optional\"" + (admin == null ? "" : " admin=\"" + admin + "\"") + "/>";
        return ControllerFixture.start(pg.controllerConfig("shop").controllerElements(tls), "shop");
    }

    private static AdminClient client(String scheme, int port, TestCertificate trusted) throws IOException {
        return new AdminClient(
                URI.create(scheme + "://localhost:" + port),
                "admin",
                "adminpw",
                trusted == null ? null : TrustedCertificates.of(trusted.certificate()));
    }

    @Test
    void curlTrustingTheCertificateReadsTheApiAndTheMetricsOverHttps() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/curl")), "curl is not installed at /usr/bin/curl");
        try (ControllerFixture raidb = start(localhost, null)) {
            String base = "https://localhost:" + raidb.controller().adminPort();
            Curl backends = curl("--cacert", localhost.certificate().toString(), base + BACKENDS);
            assertThat(backends.exit()).as(backends.output()).isZero();
            assertThat(backends.output())
                    .contains(pg.server(0).name())
                    .contains(pg.server(1).name());
            Curl metrics = curl("--cacert", localhost.certificate().toString(), base + "/metrics");
            assertThat(metrics.exit()).as(metrics.output()).isZero();
            assertThat(metrics.output()).contains("raidb_");
            // The web console's login over HTTPS: its session cookie is marked Secure, never sent in clear.
            Curl login = curl(
                    "--cacert",
                    localhost.certificate().toString(),
                    "-i",
                    "-H",
                    "Content-Type: application/json",
                    "--data",
                    "{\"user\":\"admin\",\"password\":\"adminpw\"}",
                    base + "/console/login");
            assertThat(login.exit()).as(login.output()).isZero();
            assertThat(login.output())
                    .containsPattern("(?i)set-cookie: raidb_console=[^;]+; Path=/; HttpOnly; SameSite=Strict; Secure");
            // Without the certificate curl refuses the controller: 60 is "peer certificate cannot be authenticated".
            Curl untrusted = curl(base + BACKENDS);
            assertThat(untrusted.exit()).as(untrusted.output()).isEqualTo(60);
            assertThat(untrusted.output()).contains("SSL certificate problem");
            // Plain HTTP to the HTTPS port gets no HTTP answer at all.
            Curl plain = curl("http://localhost:" + raidb.controller().adminPort() + BACKENDS);
            assertThat(plain.exit()).as(plain.output()).isEqualTo(52);
            assertThat(plain.output()).contains("Empty reply from server");
            assertThat(plain.output()).doesNotContain(pg.server(0).name());
        }
    }

    @Test
    void adminClientTrustingTheCertificateIsServedAndOneThatDoesNotIsRefused() throws Exception {
        try (ControllerFixture raidb = start(localhost, "true")) {
            int port = raidb.controller().adminPort();
            JsonNode backends = client("https", port, localhost).get(BACKENDS);
            assertThat(backends.toString()).contains(pg.server(0).name());
            assertThatThrownBy(() -> client("https", port, null).get(BACKENDS))
                    .isInstanceOf(AdminCallException.class)
                    .satisfies(e -> assertThat(((AdminCallException) e).isConnectionProblem())
                            .isTrue())
                    .hasMessageContaining("not trusted")
                    .hasMessageContaining("--cacert");
            assertThatThrownBy(() -> client("https", port, otherHost).get(BACKENDS))
                    .isInstanceOf(AdminCallException.class)
                    .hasMessageContaining("--cacert");
        }
    }

    @Test
    void aCertificateForAnotherHostNameIsRefusedEvenWhenTrusted() throws Exception {
        try (ControllerFixture raidb = start(otherHost, null)) {
            if (Files.isExecutable(Path.of("/usr/bin/curl"))) {
                Curl curl = curl(
                        "--cacert",
                        otherHost.certificate().toString(),
                        "https://localhost:" + raidb.controller().adminPort() + BACKENDS);
                assertThat(curl.exit()).as(curl.output()).isEqualTo(60);
                assertThat(curl.output()).contains("no alternative certificate subject name matches");
            }
            assertThatThrownBy(() -> client("https", raidb.controller().adminPort(), otherHost)
                            .get(BACKENDS))
                    .isInstanceOf(AdminCallException.class)
                    .hasMessageContaining("another host name");
        }
    }

    @Test
    void plainHttpToTheHttpsPortFailsSayingToUseHttps() throws Exception {
        try (ControllerFixture raidb = start(localhost, null)) {
            int port = raidb.controller().adminPort();
            assertThatThrownBy(() -> client("http", port, null).get(BACKENDS))
                    .isInstanceOf(AdminCallException.class)
                    .hasMessageContaining("HTTPS only")
                    .hasMessageContaining("https://localhost:" + port)
                    .hasMessageContaining("--cacert");
        }
    }

    @Test
    void adminFalseKeepsTheAdminPortOnPlainHttpWhileDriversUseTls() throws Exception {
        try (ControllerFixture raidb = start(localhost, "false")) {
            int port = raidb.controller().adminPort();
            assertThat(client("http", port, null).get(BACKENDS).toString())
                    .contains(pg.server(1).name());
            assertThatThrownBy(() -> client("https", port, localhost).get(BACKENDS))
                    .isInstanceOf(AdminCallException.class);
        }
    }

    @Test
    void anExpiredCertificateOrAWrongPasswordRefusesTheStartNamingTheKeyStore() throws Exception {
        TestCertificate expired = TestCertificate.make(certificates, "expired-admin", "dns:localhost", "-10d", 2);
        assertThatThrownBy(() -> start(expired, "true").close())
                .hasMessageContaining(expired.keyStore().toString())
                .hasMessageContaining("not now");
        ControllerConfigXml wrong = pg.controllerConfig("shop")
                .controllerElements("<tls keyStore=\"" + localhost.keyStore()
                        + "\" keyStorePassword=\"not-the-password\" clients=\"optional\"/>");
        assertThatThrownBy(() -> ControllerFixture.start(wrong, "shop").close())
                .hasMessageContaining(localhost.keyStore().toString())
                .hasMessageContaining("wrong password");
    }

    private record Curl(int exit, String output) {}

    /** curl as a process, as an operator runs it; admin/adminpw are the test configuration's admin. */
    private static Curl curl(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "30", "-u", "admin:adminpw"));
        command.addAll(List.of(arguments));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("curl did not end: " + command);
        }
        return new Curl(p.exitValue(), out);
    }
}
