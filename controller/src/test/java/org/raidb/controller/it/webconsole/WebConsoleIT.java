package org.raidb.controller.it.webconsole;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.test.PostgresClusterExtension;

/**
 * The web console in Debian's Chromium, over a controller with three real PostgreSQL backends: log in, see the
 * backends, disable one and enable it again while watching the replay's progress bar reach 100 %, a wrong password
 * refused, a cross-site POST refused. Requests without a session, or without the CSRF token, are checked with plain
 * HTTP too (those run without a browser). With {@code -Draidb.screenshots=docs/img} the pages are saved for the docs.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebConsoleIT {
    private static final String VDB = "shop";
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database(VDB);

    static ControllerFixture raidb;
    static final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    private HeadlessChromium chromium;

    @BeforeAll
    static void startController() throws Exception {
        raidb = ControllerFixture.start(pg.controllerConfig(VDB), VDB);
        try (Connection c = raidb.connect();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE orders (id serial PRIMARY KEY, item text NOT NULL)");
        }
    }

    @AfterAll
    static void stopController() {
        if (raidb != null) {
            raidb.close();
        }
    }

    @AfterEach
    void closeBrowser() throws IOException {
        if (chromium != null) {
            chromium.close();
        }
    }

    private static String base() {
        return "http://127.0.0.1:" + raidb.controller().adminPort();
    }

    // ---- in the browser

    @Test
    void aWrongPasswordIsRefusedOnTheLoginPage() throws Exception {
        chromium = HeadlessChromium.start();
        chromium.driver.get(base() + "/console/");
        await().atMost(PATIENCE).until(() -> chromium.driver.getCurrentUrl().endsWith("/console/login"));
        type("user", "admin");
        type("password", "not-the-password");
        chromium.driver.findElement(By.id("login-button")).click();

        await().atMost(PATIENCE).until(() -> text(By.id("login-error")), t -> t.startsWith("wrong user or password"));
        assertThat(chromium.driver.getCurrentUrl()).endsWith("/console/login");
        chromium.screenshot("console-login-refused");
    }

    @Test
    void theConsoleShowsTheThreeBackendsAndDisablesAndEnablesOneWithItsProgress() throws Exception {
        chromium = HeadlessChromium.start();
        logIn();
        await().atMost(PATIENCE)
                .until(
                        () -> chromium.driver
                                .findElements(By.cssSelector("tr.backend"))
                                .size(),
                        n -> n == 3);
        assertThat(await().atMost(PATIENCE)
                        .ignoreExceptions()
                        .until(
                                () -> chromium.driver.executeScript(
                                        "return [...document.querySelectorAll('tr.backend')]"
                                                + ".map(r => r.dataset.backend).join(',')"),
                                v -> true))
                .isEqualTo("pg1,pg2,pg3");
        assertThat(stateOf("pg2")).isEqualTo("enabled");

        VirtualDatabase vdb = raidb.controller().virtualDatabase(VDB);
        DatabaseBackend pg2 = vdb.backend("pg2");
        click(By.cssSelector("tr[data-backend='pg2'] button.disable"));
        await().atMost(PATIENCE).until(() -> stateOf("pg2"), "disabled"::equals);
        assertThat(pg2.isEnabled()).as("pg2 enabled in the controller").isFalse();
        assertThat(text(By.id("message"))).contains("backend pg2 disabled");

        // Writes pg2 misses: the enable replays them.
        try (Connection c = raidb.connect();
                Statement s = c.createStatement()) {
            for (int i = 0; i < 200; i++) {
                s.executeUpdate("INSERT INTO orders (item) VALUES ('item " + i + "')");
            }
        }
        chromium.screenshot("console-backend-disabled");
        click(By.cssSelector("tr[data-backend='pg2'] button.enable"));

        By replay = By.cssSelector("#view-backends tr.operation[data-kind='replay'][data-target='pg2'] .bar");
        await().atMost(PATIENCE).until(() -> attribute(replay, "data-percent"), "100"::equals);
        // 100 % may show a moment before the replay is over (its last entries applied, the backend not yet enabled).
        awaitOperation("replay", "pg2", "succeeded");
        assertThat(attribute(replay, "data-percent")).isEqualTo("100");
        await().atMost(PATIENCE).until(() -> stateOf("pg2"), "enabled"::equals);
        assertThat(pg2.isEnabled()).as("pg2 enabled in the controller").isTrue();
        assertThat(text(By.cssSelector("#view-backends tr.operation[data-kind='replay'][data-target='pg2'] .message")))
                .startsWith("backend pg2 enabled at checkpoint");
        try (Connection c = pg.server(1).connect();
                Statement s = c.createStatement();
                var rows = s.executeQuery("SELECT count(*) FROM orders")) {
            rows.next();
            assertThat(rows.getLong(1)).as("rows replayed into pg2").isGreaterThanOrEqualTo(200);
        }
        chromium.screenshot("console-backend-enabled");

        chromium.driver.findElement(By.id("logout")).click();
        await().atMost(PATIENCE).until(() -> chromium.driver.getCurrentUrl().endsWith("/console/login"));
        chromium.driver.get(base() + "/console/");
        assertThat(chromium.driver.getCurrentUrl()).as("after logging out").endsWith("/console/login");
    }

    @Test
    void theOtherPagesShowChartsOperationsTheRecoveryLogAndTheGroup() throws Exception {
        chromium = HeadlessChromium.start();
        logIn();
        chromium.driver.get(base() + "/console/#charts");
        await().atMost(PATIENCE).until(() -> "charts".equals(attribute(By.tagName("body"), "data-rendered")));
        // Requests for the charts to draw, reads and writes through the controller, until the charts hold ten
        // samples (2 s apart) taken under that load: bounded in count and in time.
        try (Connection c = raidb.connect();
                Statement s = c.createStatement()) {
            for (int round = 0; round < 2_000 && points() < 10; round++) {
                for (int i = 0; i < 30; i++) {
                    s.executeQuery("SELECT count(*) FROM orders").close();
                    if (i % 3 == 0) {
                        s.executeUpdate("INSERT INTO orders (item) VALUES ('chart')");
                    }
                }
            }
        }
        assertThat(points()).as("samples drawn").isGreaterThanOrEqualTo(10);
        assertThat(text(By.id("chart-legend"))).matches("read: \\d+\\.\\d/s, \\d+\\.\\d\\d ms.*");
        assertThat(text(By.cssSelector("#chart-legend .read"))).doesNotStartWith("read: 0.0/s");
        chromium.screenshot("console-charts");

        chromium.driver.get(base() + "/console/#backends");
        click(By.cssSelector("div.vdb[data-vdb='shop'] button.checkpoint"));
        type("field-name", "before-release");
        chromium.driver.findElement(By.id("dialog-ok")).click();
        await().atMost(PATIENCE)
                .until(
                        () -> text(By.id("message")),
                        m -> m.startsWith("checkpoint before-release written at log position"));
        click(By.cssSelector("tr[data-backend='pg3'] button.backup"));
        type("field-as", "nightly");
        chromium.driver.findElement(By.id("dialog-ok")).click();
        await().atMost(PATIENCE).until(() -> text(By.id("message")), m -> m.startsWith("backup of pg3 started"));
        click(By.cssSelector("div.vdb[data-vdb='shop'] button.verify"));
        await().atMost(PATIENCE).until(() -> text(By.id("message")), m -> m.startsWith("verify of tables started"));

        chromium.driver.get(base() + "/console/#operations");
        await().atMost(PATIENCE)
                .until(
                        () -> attribute(
                                By.cssSelector("#view-operations tr.operation[data-kind='verify']"), "data-state"),
                        "succeeded"::equals);
        chromium.screenshot("console-operations");

        await().atMost(PATIENCE)
                .until(
                        () -> attribute(
                                By.cssSelector("#view-operations tr.operation[data-kind='backup']"), "data-state"),
                        "succeeded"::equals);
        chromium.driver.get(base() + "/console/#recovery");
        await().atMost(PATIENCE)
                .until(() -> text(By.cssSelector("#view-recovery table.dumps")), t -> t.contains("nightly"));
        assertThat(text(By.cssSelector("#view-recovery table.checkpoints"))).contains("before-release");
        chromium.screenshot("console-recovery-log");

        chromium.driver.get(base() + "/console/#group");
        await().atMost(PATIENCE).until(() -> text(By.id("view-group")), t -> t.contains("has no controller group"));
    }

    @Test
    void aBackendIsBackedUpThenRestoredFromItsDumpAndEnabledFromTheConsole() throws Exception {
        chromium = HeadlessChromium.start();
        logIn();
        click(By.cssSelector("tr[data-backend='pg1'] button.backup"));
        type("field-as", "before-restore");
        chromium.driver.findElement(By.id("dialog-ok")).click();
        awaitOperation("backup", "pg1", "succeeded");

        click(By.cssSelector("tr[data-backend='pg1'] button.disable"));
        await().atMost(PATIENCE).until(() -> stateOf("pg1"), "disabled"::equals);
        click(By.cssSelector("tr[data-backend='pg1'] button.restore"));
        chromium.driver
                .findElement(By.cssSelector("#field-dump option[value='before-restore']"))
                .click();
        chromium.driver.findElement(By.id("dialog-ok")).click();
        awaitOperation("restore", "pg1", "succeeded");
        assertThat(text(By.cssSelector("#view-backends tr.operation[data-kind='restore'][data-target='pg1'] .message")))
                .startsWith("backend pg1 restored from dump before-restore");

        click(By.cssSelector("tr[data-backend='pg1'] button.enable"));
        await().atMost(PATIENCE).until(() -> stateOf("pg1"), "enabled"::equals);
        assertThat(raidb.controller().virtualDatabase(VDB).backend("pg1").isEnabled())
                .isTrue();
    }

    /** Last: the virtual database has four backends afterwards. */
    @Test
    @Order(Integer.MAX_VALUE)
    void aBackendIsAddedFromTheConsoleAsACopyOfAnother() throws Exception {
        chromium = HeadlessChromium.start();
        try (Connection c = pg.server(2).connect();
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE shop4");
        }
        logIn();
        click(By.cssSelector("div.vdb[data-vdb='shop'] button.add-backend"));
        type("field-name", "pg4");
        type("field-url", pg.server(2).jdbcUrl("shop4"));
        type("field-user", pg.server(2).user());
        type("field-from", "pg2");
        chromium.driver.findElement(By.id("dialog-ok")).click();
        awaitOperation("add backend", "pg4", "succeeded");
        await().atMost(PATIENCE).until(() -> stateOf("pg4"), "enabled"::equals);
        assertThat(ControllerFixture.checksums(List.of(pg.server(1))).get("pg2"))
                .as("pg4's tables are pg2's")
                .isEqualTo(checksumsOfShop4());
    }

    private static Map<String, String> checksumsOfShop4() throws Exception {
        try (Connection c = pg.server(2).connect("shop4")) {
            return TableChecksum.checksums(c);
        }
    }

    private void awaitOperation(String kind, String target, String state) {
        await().atMost(PATIENCE)
                .until(
                        () -> attribute(
                                By.cssSelector("#view-backends tr.operation[data-kind='" + kind + "'][data-target='"
                                        + target + "']"),
                                "data-state"),
                        state::equals);
    }

    @Test
    void aCrossSitePostIsRefusedEvenWithTheSessionCookie() throws Exception {
        chromium = HeadlessChromium.start();
        logIn();
        // Another site's page (another port: the same site for cookies, so the browser does send the
        // SameSite=Strict cookie) posts a form to disable pg3. Only the CSRF token, which it cannot read, is missing.
        HttpServer attacker =
                HttpServer.create(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 0), 0);
        String target = base() + "/api/virtualdatabases/shop/backends/pg3/disable";
        byte[] page = ("<!DOCTYPE html><html><body><form id=f method=POST action='" + target + "'>"
                        + "<input name=x value=1></form><script>document.getElementById('f').submit()</script>"
                        + "</body></html>")
                .getBytes(StandardCharsets.UTF_8);
        attacker.createContext("/", exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "text/html");
            exchange.sendResponseHeaders(200, page.length);
            try (exchange) {
                exchange.getResponseBody().write(page);
            }
        });
        attacker.start();
        try {
            chromium.driver.get("http://127.0.0.1:" + attacker.getAddress().getPort() + "/");
            await().atMost(PATIENCE).until(() -> chromium.driver.getCurrentUrl().equals(target));
            String answer = chromium.driver.findElement(By.tagName("body")).getText();
            assertThat(answer).containsPattern("\"status\"\\s*:\\s*403").contains("X-CSRF-Token");
        } finally {
            attacker.stop(0);
        }
        assertThat(raidb.controller().virtualDatabase(VDB).backend("pg3").isEnabled())
                .as("pg3 still enabled")
                .isTrue();
    }

    // ---- plain HTTP: no browser needed

    @Test
    void withoutASessionTheApiAnswers401AndThePagesRedirectToTheLogin() throws Exception {
        HttpResponse<String> api = send(HttpRequest.newBuilder(URI.create(base() + "/api/virtualdatabases")));
        assertThat(api.statusCode()).isEqualTo(401);

        HttpResponse<String> page = send(HttpRequest.newBuilder(URI.create(base() + "/console/")));
        assertThat(page.statusCode()).isEqualTo(302);
        assertThat(page.headers().firstValue("Location")).hasValue("/console/login");

        HttpResponse<String> expired = send(HttpRequest.newBuilder(URI.create(base() + "/api/virtualdatabases"))
                .header("Cookie", "raidb_console=not-a-session"));
        assertThat(expired.statusCode()).isEqualTo(401);
        assertThat(expired.body()).contains("log in again");
        assertThat(expired.headers().firstValue("WWW-Authenticate"))
                .as("no Basic prompt in the console's browser")
                .isEmpty();

        HttpResponse<String> crossSiteLogin = send(HttpRequest.newBuilder(URI.create(base() + "/console/login"))
                .header("Content-Type", "application/json")
                .header("Origin", "http://attacker.example")
                .POST(HttpRequest.BodyPublishers.ofString("{\"user\":\"admin\",\"password\":\"adminpw\"}")));
        assertThat(crossSiteLogin.statusCode()).as(crossSiteLogin.body()).isEqualTo(403);
        assertThat(crossSiteLogin.headers().firstValue("Set-Cookie")).isEmpty();
    }

    @Test
    void aSessionsPostWithoutItsCsrfTokenOrWithAForgedOneIs403() throws Exception {
        HttpResponse<String> login = send(HttpRequest.newBuilder(URI.create(base() + "/console/login"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"user\":\"admin\",\"password\":\"adminpw\"}")));
        assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
        String cookie = login.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(cookie).contains("HttpOnly").contains("SameSite=Strict").startsWith("raidb_console=");
        String session = cookie.substring(0, cookie.indexOf(';'));
        String token = login.body().replaceAll("(?s).*\"csrfToken\":\"([^\"]+)\".*", "$1");

        String disable = base() + "/api/virtualdatabases/shop/backends/pg3/disable";
        for (List<String> headers :
                List.of(List.of("Cookie", session), List.of("Cookie", session, "X-CSRF-Token", "forged-" + token))) {
            HttpResponse<String> refused = send(HttpRequest.newBuilder(URI.create(disable))
                    .headers(headers.toArray(String[]::new))
                    .POST(HttpRequest.BodyPublishers.noBody()));
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
        }
        assertThat(raidb.controller().virtualDatabase(VDB).backend("pg3").isEnabled())
                .isTrue();

        HttpResponse<String> read =
                send(HttpRequest.newBuilder(URI.create(base() + "/api/virtualdatabases/shop/backends"))
                        .header("Cookie", session));
        assertThat(read.statusCode()).as("a read needs no token").isEqualTo(200);
        assertThat(read.body()).contains("\"pg3\"");
    }

    // ---- helpers

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private void logIn() {
        chromium.logIn(base(), "admin", "adminpw");
    }

    private void type(String id, String text) {
        chromium.type(id, text);
    }

    private String text(By by) {
        return chromium.text(by);
    }

    private String attribute(By by, String name) {
        return chromium.attribute(by, name);
    }

    private int points() {
        String points = attribute(By.id("chart-legend"), "data-points");
        return points.equals("null") ? 0 : Integer.parseInt(points);
    }

    private String stateOf(String backend) {
        return text(By.cssSelector("tr[data-backend='" + backend + "'] td.state"));
    }

    private void click(By by) {
        chromium.click(by);
    }
}
