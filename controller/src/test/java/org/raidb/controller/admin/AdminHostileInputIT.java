package org.raidb.controller.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.Controller;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backup.jdbc.JdbcCopier;
import org.raidb.controller.backup.pgdump.PgDumpBackuper;
import org.raidb.controller.config.ConfigDefaults;
import org.raidb.controller.config.ConfigLoader;
import org.raidb.controller.config.ControllerSettings;
import org.raidb.controller.config.RaidbConfig;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.recovery.Checkpoint;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;

/**
 * The admin API against administrators who mean harm (issue 11): URLs that would run code or read the
 * controller's files, names that would write outside the dump directory, and an admin of one virtual
 * database ("hr") trying the routes of another ("shop"). Every refusal must leave every backend as it was.
 */
class AdminHostileInputIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SHOP_ADMIN = "shopadmin";
    private static final String SHOP_PASSWORD = "shop-admin-secret-7f3";
    private static final String HR_ADMIN = "hradmin";
    private static final String HR_PASSWORD = "hr-admin-secret-91c";
    private static final String APP_PASSWORD = "app-secret-2d8";
    private static final String BACKEND_PASSWORD = "backend-secret-5e1";
    private static final String URL_PASSWORD = "url-secret-a40";
    private static final String LOGIN_PASSWORD = "login-secret-c77";
    /** Every password the configuration holds; the servers trust loopback, so any of them logs in. */
    private static final List<String> SECRETS =
            List.of(SHOP_PASSWORD, HR_PASSWORD, APP_PASSWORD, BACKEND_PASSWORD, URL_PASSWORD, LOGIN_PASSWORD);

    @TempDir
    Path dir;

    private Controller controller;
    private AdminHttp http;

    @BeforeEach
    void cleanDatabases() {
        pg.cluster().ensureAllRunning();
        pg.cluster().recreateDatabases();
    }

    @AfterEach
    void stopController() {
        if (controller != null) {
            controller.close();
        }
    }

    /**
     * Two virtual databases over the same servers, each with its own admin; pg1 of shop carries a password in its
     * URL, and app logs in to every backend with a {@code <login>} of its own.
     */
    private void start(String controllerAttributes) throws Exception {
        StringBuilder xml = new StringBuilder("<raidb>\n  <controller host=\"127.0.0.1\" port=\"0\" adminPort=\"0\""
                + " dataDir=\"" + ControllerConfigXml.escape(dir.resolve("data").toString()) + "\" "
                + controllerAttributes
                + "/>\n");
        virtualDatabase(xml, "shop", SHOP_ADMIN, SHOP_PASSWORD);
        virtualDatabase(xml, "hr", HR_ADMIN, HR_PASSWORD);
        xml.append("</raidb>\n");
        controller = Controller.start(ConfigLoader.load(Files.writeString(dir.resolve("raidb.xml"), xml)));
        http = new AdminHttp(controller);
    }

    private static void virtualDatabase(StringBuilder xml, String name, String admin, String password) {
        xml.append("  <virtualDatabase name=\"")
                .append(name)
                .append("\">\n    <authentication>\n")
                .append("      <admin user=\"")
                .append(admin)
                .append("\" password=\"")
                .append(password)
                .append("\"/>\n")
                .append("      <virtualUser name=\"app\" password=\"")
                .append(APP_PASSWORD)
                .append("\"/>\n")
                .append("    </authentication>\n");
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            String url = s.name().equals("pg1") ? s.jdbcUrl() + "?password=" + URL_PASSWORD : s.jdbcUrl();
            xml.append("    <backend name=\"")
                    .append(s.name())
                    .append("\" url=\"")
                    .append(ControllerConfigXml.escape(url))
                    .append("\" user=\"")
                    .append(s.user())
                    .append("\" password=\"")
                    .append(BACKEND_PASSWORD)
                    .append("\">\n")
                    .append("      <login virtualUser=\"app\" user=\"")
                    .append(s.user())
                    .append("\" password=\"")
                    .append(LOGIN_PASSWORD)
                    .append("\"/>\n    </backend>\n");
        }
        xml.append("    ").append(ControllerConfigXml.DEFAULT_REPLICATION).append("\n  </virtualDatabase>\n");
    }

    private HttpResponse<String> shop(String method, String path, Map<String, String> body) throws Exception {
        return http.call(method, path, body == null ? null : JSON.writeValueAsString(body), SHOP_ADMIN, SHOP_PASSWORD);
    }

    private HttpResponse<String> shop(String method, String path) throws Exception {
        return shop(method, path, null);
    }

    private HttpResponse<String> hr(String method, String path) throws Exception {
        return http.call(method, path, HR_ADMIN, HR_PASSWORD);
    }

    private static String error(HttpResponse<String> r) throws Exception {
        return AdminHttp.json(r).get("error").asText();
    }

    private VirtualDatabase shopDatabase() {
        return controller.virtualDatabase("shop");
    }

    /** What a refused request must not have changed: shop's backends, operations and added-backends file. */
    private void assertShopUntouched() throws Exception {
        assertThat(shopDatabase().backends()).extracting(DatabaseBackend::name).containsExactly("pg1", "pg2");
        for (DatabaseBackend b : shopDatabase().backends()) {
            assertThat(b.isEnabled()).as(b.name() + ": " + b.disabledReason()).isTrue();
            assertThat(b.disabledReason()).isNull();
        }
        assertThat(AdminHttp.json(shop("GET", "/api/operations")).get("operations"))
                .isEmpty();
        assertThat(shopDatabase().dataDir().resolve("added-backends").resolve("shop.json"))
                .doesNotExist();
    }

    // ---- finding 1: code execution through a backend URL ------------------------------------------------------

    /** The attack run's script: Java code that leaves a file behind when it runs. */
    private Path evilScript(Path marker) throws Exception {
        return Files.writeString(
                dir.resolve("evil.sql"),
                "CREATE ALIAS TOUCH AS 'String touch(String f) throws Exception {"
                        + " new java.io.File(f).createNewFile(); return f; }';\nCALL TOUCH('" + marker + "');\n");
    }

    @Test
    void anH2UrlIsRefusedFromTheAdminApiBeforeAnythingChanges() throws Exception {
        start("");
        Path marker = dir.resolve("code-ran");
        String url = "jdbc:h2:mem:evil;INIT=RUNSCRIPT FROM '" + evilScript(marker) + "'";

        HttpResponse<String> refused = shop(
                "POST",
                "/api/virtualdatabases/shop/backends",
                Map.of("name", "evil", "url", url, "user", "sa", "from", "pg1"));

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(error(refused))
                .contains("H2 URLs (jdbc:h2:) are refused from the admin API")
                .contains("<controller allowH2BackendsFromAdmin=\"true\">")
                .contains("PostgreSQL (jdbc:postgresql:)");
        assertThat(marker).as("the script's Java code ran").doesNotExist();
        assertShopUntouched();
    }

    @Test
    void whereAdminsMayAddH2BackendsTheirUrlsStillCannotRunCode() throws Exception {
        start("allowH2BackendsFromAdmin=\"true\"");
        Path marker = dir.resolve("code-ran");
        Path script = evilScript(marker);

        for (String url : List.of(
                "jdbc:h2:mem:evil;INIT=RUNSCRIPT FROM '" + script + "'",
                "jdbc:h2:mem:evil;MODE=PostgreSQL;init=RUNSCRIPT FROM '" + script + "'",
                "jdbc:h2:mem:evil;IfExists=FALSE; Init =RUNSCRIPT FROM '" + script + "'")) {
            HttpResponse<String> refused = shop(
                    "POST", "/api/virtualdatabases/shop/backends", Map.of("name", "evil", "url", url, "user", "sa"));
            assertThat(refused.statusCode()).as(url).isEqualTo(400);
            assertThat(error(refused))
                    .containsIgnoringCase("JDBC URL parameter 'init' is refused: with the H2 driver it runs SQL");
        }
        HttpResponse<String> trace = shop(
                "POST",
                "/api/virtualdatabases/shop/backends",
                Map.of(
                        "name",
                        "evil",
                        "url",
                        "jdbc:h2:file:" + dir.resolve("x") + ";TRACE_LEVEL_FILE=3",
                        "user",
                        "sa"));
        assertThat(trace.statusCode()).isEqualTo(400);
        assertThat(error(trace)).contains("'TRACE_LEVEL_FILE' is refused");
        assertThat(marker).as("the script's Java code ran").doesNotExist();
        assertShopUntouched();
    }

    @Test
    void driverOptionsThatRunCodeOrReadTheControllersFilesAreRefusedHoweverWritten() throws Exception {
        start("");
        String other = pg.server(0).jdbcUrl("postgres");
        Map<String, String> refusedParameter = new LinkedHashMap<>();
        refusedParameter.put(
                other + "?socketFactory=org.example.Evil", "'socketFactory' is refused: with the PostgreSQL");
        refusedParameter.put(other + "?SOCKETFACTORY=org.example.Evil", "'SOCKETFACTORY' is refused");
        refusedParameter.put(other + "?ssl=true&sslfactory=org.example.Evil", "'sslfactory' is refused");
        refusedParameter.put(
                other + "?authenticationPluginClassName=org.example.Evil", "'authenticationPluginClassName'");
        refusedParameter.put(
                other + "?sslmode=verify-full&sslkey=/etc/shadow",
                "'sslkey' is refused from the admin API: with the PostgreSQL driver it makes the driver read a file");
        refusedParameter.put(other + "?service=shop", "'service' is refused from the admin API");
        refusedParameter.put("jdbc:mariadb://127.0.0.1:3306/x?allowLocalInfile=true", "'allowLocalInfile' is refused");
        refusedParameter.put(
                "jdbc:mariadb://localhost/x?localSocket=/run/mysqld/mysqld.sock", "'localSocket' is refused");
        refusedParameter.put("jdbc:mysql://127.0.0.1:3306/x?autoDeserialize=true", "'autoDeserialize' is refused");
        refusedParameter.put("jdbc:derby:memory:x;create=true", "is refused: backends are reached with PostgreSQL");
        for (Map.Entry<String, String> e : refusedParameter.entrySet()) {
            HttpResponse<String> refused = shop(
                    "POST",
                    "/api/virtualdatabases/shop/backends",
                    Map.of("name", "pg3", "url", e.getKey(), "user", "postgres"));
            assertThat(refused.statusCode()).as(e.getKey()).isEqualTo(400);
            assertThat(error(refused)).as(e.getKey()).contains(e.getValue());
        }

        // A driver option handed over as a parameter of its own, next to the URL rather than in it.
        HttpResponse<String> beside = shop(
                "POST",
                "/api/virtualdatabases/shop/backends",
                Map.of("name", "pg3", "url", other, "user", "postgres", "socketFactory", "org.example.Evil"));
        assertThat(beside.statusCode()).isEqualTo(400);
        assertThat(error(beside))
                .contains("unknown parameter 'socketFactory' for add backend: it takes name, url, user,"
                        + " password, from, backuper, weight, poolSize; driver options belong in the URL");
        assertShopUntouched();
    }

    /** The attack run found pg1 left disabled after a failed add; a copy that fails must bring its source back. */
    @Test
    void aCopyThatFailsOnTheNewBackendsSideBringsTheSourceBack() throws Exception {
        start("");
        try (Connection c = DriverManager.getConnection(
                        "jdbc:raidb://127.0.0.1:" + controller.port() + "/shop", "app", APP_PASSWORD);
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE items (id INT PRIMARY KEY, name TEXT)");
            st.execute("INSERT INTO items VALUES (1, 'one')");
        }
        // A database its user may log in to but not create tables in: the copy fails after the source left the array.
        try (Connection c = pg.server(0).connect();
                Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS readonly_target");
            st.execute("DROP ROLE IF EXISTS cannot_create");
            st.execute("CREATE ROLE cannot_create LOGIN");
            st.execute("CREATE DATABASE readonly_target");
        }
        try (Connection c = pg.server(0).connect("readonly_target");
                Statement st = c.createStatement()) {
            st.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
        }

        HttpResponse<String> started = shop(
                "POST",
                "/api/virtualdatabases/shop/backends",
                Map.of(
                        "name",
                        "pg3",
                        "url",
                        pg.server(0).jdbcUrl("readonly_target"),
                        "user",
                        "cannot_create",
                        "from",
                        "pg2"));
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        long id = AdminHttp.json(started).get("operation").get("id").asLong();
        await().atMost(Duration.ofSeconds(120))
                .until(() -> !AdminHttp.json(shop("GET", "/api/operations/" + id))
                        .get("state")
                        .asText()
                        .equals("running"));

        assertThat(AdminHttp.json(shop("GET", "/api/operations/" + id))
                        .get("state")
                        .asText())
                .isEqualTo("failed");
        DatabaseBackend source = shopDatabase().backend("pg2");
        assertThat(source.isEnabled()).as("pg2: " + source.disabledReason()).isTrue();
        assertThat(shopDatabase().backends()).extracting(DatabaseBackend::name).containsExactly("pg1", "pg2");
    }

    // ---- finding 2: names that become paths -------------------------------------------------------------------

    @Test
    void dumpNamesThatWouldLeaveTheDumpDirectoryAreRefused() throws Exception {
        start("");
        Path dumpDir = shopDatabase().dataDir().resolve("dumps").resolve("shop");
        String outside = "/tmp/raidb-evil-" + UUID.randomUUID();
        List<String> names = List.of(
                "../../../sec/evil",
                outside,
                "..",
                "../evil",
                "evil\u0000.txt",
                "..\\..\\evil",
                ".hidden-evil",
                "sub/evil",
                "evil\nforged log line");

        for (String name : names) {
            HttpResponse<String> refused =
                    shop("POST", "/api/virtualdatabases/shop/backends/pg1/backup", Map.of("as", name));
            assertThat(refused.statusCode()).as(name).isEqualTo(400);
            assertThat(error(refused))
                    .as(name)
                    .startsWith("invalid dump name '" + name + "': it becomes a file name in the"
                            + " dump directory, so use letters, digits");
            if (!name.contains("\u0000")) {
                for (String format : List.of(PgDumpBackuper.NAME, JdbcCopier.NAME)) {
                    assertThat(dumpDir.resolve(name + "." + format).normalize())
                            .as(name)
                            .doesNotExist();
                }
            }
        }
        try (Stream<Path> written = Files.walk(dir)) {
            assertThat(written.filter(p -> p.getFileName().toString().contains("evil")))
                    .as("files named by the refused names anywhere under the test's directory")
                    .isEmpty();
        }
        assertThat(Path.of(outside + "." + PgDumpBackuper.NAME)).doesNotExist();
        assertThat(AdminHttp.json(shop("GET", "/api/virtualdatabases/shop/dumps"))
                        .get("dumps"))
                .isEmpty();
        assertShopUntouched();
    }

    @Test
    void checkpointNamesThatCouldForgeALineAreRefused() throws Exception {
        start("");
        HttpResponse<String> refused =
                shop("POST", "/api/virtualdatabases/shop/checkpoints", Map.of("name", "nightly\nbackend pg1 enabled"));
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(error(refused)).startsWith("invalid checkpoint name 'nightly\nbackend pg1 enabled': use letters");
        assertThat(shopDatabase().recovery().checkpoints())
                .extracting(Checkpoint::name)
                .noneMatch(n -> n.contains("nightly"));
    }

    // ---- one virtual database's admin against another's ------------------------------------------------------

    @Test
    void anAdminOfAnotherVirtualDatabaseGetsNothingFromAnyOfItsRoutes() throws Exception {
        start("");
        assertThat(shop("POST", "/api/virtualdatabases/shop/checkpoints", Map.of("name", "shop-cp"))
                        .statusCode())
                .isEqualTo(200);
        assertThat(shop("POST", "/api/virtualdatabases/shop/backends/pg2/disable")
                        .statusCode())
                .isEqualTo(200);
        HttpResponse<String> enable = shop("POST", "/api/virtualdatabases/shop/backends/pg2/enable");
        long shopOperation = AdminHttp.json(enable).get("operation").get("id").asLong();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> shopDatabase().backend("pg2").isEnabled());
        List<String> checkpointsBefore = shopDatabase().recovery().checkpoints().stream()
                .map(Checkpoint::name)
                .toList();

        Map<String, String> values = Map.of("vdb", "shop", "backend", "pg1", "id", String.valueOf(shopOperation));
        Set<String> outsideAnyVirtualDatabase = new TreeSet<>();
        for (Route route : everyRoute()) {
            String path = route.pattern();
            for (Map.Entry<String, String> v : values.entrySet()) {
                path = path.replace("{" + v.getKey() + "}", v.getValue());
            }
            HttpResponse<String> answer = hr(route.method(), path);
            assertNoSecret(answer.body());
            if (route.pattern().contains("{vdb}")) {
                assertThat(answer.statusCode()).as(route.method() + " " + path).isEqualTo(403);
                assertThat(error(answer)).isEqualTo("user 'hradmin' is not the admin of virtual database 'shop'");
            } else {
                outsideAnyVirtualDatabase.add(route.method() + " " + route.pattern());
            }
        }
        // The routes that name no virtual database answer about the caller's own only; a new one must be added here.
        assertThat(outsideAnyVirtualDatabase)
                .containsExactly(
                        "GET /api/operations",
                        "GET /api/operations/{id}",
                        "GET /api/virtualdatabases",
                        "POST /api/shutdown");
        assertThat(AdminHttp.json(hr("GET", "/api/virtualdatabases")).get("virtualDatabases"))
                .extracting(v -> v.get("name").asText())
                .containsExactly("hr");
        assertThat(AdminHttp.json(hr("GET", "/api/operations")).get("operations"))
                .extracting(o -> o.get("virtualDatabase").asText())
                .doesNotContain("shop");
        assertThat(hr("GET", "/api/operations/" + shopOperation).statusCode()).isEqualTo(404);
        assertThat(hr("POST", "/api/shutdown").statusCode()).isEqualTo(403);
        HttpResponse<String> unknown = hr("GET", "/api/virtualdatabases/nosuch");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(error(unknown)).isEqualTo("unknown virtual database 'nosuch': you administer [hr]");

        assertThat(shopDatabase().recovery().checkpoints())
                .extracting(Checkpoint::name)
                .containsExactlyElementsOf(checkpointsBefore);
        assertThat(shopDatabase().dumps().dumps()).isEmpty();
        assertThat(shopDatabase().backends()).allMatch(DatabaseBackend::isEnabled);
        assertThat(AdminHttp.json(shop("GET", "/api/operations")).get("operations"))
                .hasSize(1);
    }

    /** The routes the admin server serves, as it builds them. */
    private static List<Route> everyRoute() {
        RaidbConfig config = new RaidbConfig(
                new ControllerSettings(
                        "127.0.0.1", 0, "127.0.0.1", 0, Path.of("unused"), ConfigDefaults.MAX_FRAME_BYTES, false),
                List.of());
        return new AdminApi(Map.of(), Map.of(), config, new Operations(), () -> {}).allRoutes();
    }

    @Test
    void noAnswerContainsAPassword() throws Exception {
        start("");
        List<HttpResponse<String>> answers = new ArrayList<>();
        for (String vdb : List.of("shop", "hr")) {
            String admin = vdb.equals("shop") ? SHOP_ADMIN : HR_ADMIN;
            String password = vdb.equals("shop") ? SHOP_PASSWORD : HR_PASSWORD;
            String base = "/api/virtualdatabases/" + vdb;
            for (String path : List.of(
                    "/api/virtualdatabases",
                    base,
                    base + "/backends",
                    base + "/checkpoints",
                    base + "/dumps",
                    "/api/operations")) {
                answers.add(http.call("GET", path, admin, password));
            }
            answers.add(http.call("POST", base + "/checkpoints", admin, password));
            answers.add(http.call("POST", base + "/backends/pg2/disable", admin, password));
            HttpResponse<String> enable = http.call("POST", base + "/backends/pg2/enable", admin, password);
            answers.add(enable);
            long id = AdminHttp.json(enable).get("operation").get("id").asLong();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> !AdminHttp.json(http.call("GET", "/api/operations/" + id, admin, password))
                            .get("state")
                            .asText()
                            .equals("running"));
            answers.add(http.call("GET", "/api/operations/" + id, admin, password));
            // Refusals that quote a backend: the same URL as pg1, and a server that cannot be reached.
            answers.add(http.call(
                    "POST",
                    base + "/backends",
                    JSON.writeValueAsString(
                            Map.of("name", "pg9", "url", pg.server(0).jdbcUrl() + "?password=" + URL_PASSWORD)),
                    admin,
                    password));
            answers.add(http.call(
                    "POST",
                    base + "/backends",
                    JSON.writeValueAsString(Map.of(
                            "name",
                            "pg9",
                            "url",
                            "jdbc:postgresql://127.0.0.1:1/x?password=" + URL_PASSWORD,
                            "password",
                            BACKEND_PASSWORD)),
                    admin,
                    password));
            answers.add(http.call("POST", base + "/backends/pg1/restore?dump=none", admin, password));
        }
        answers.add(http.call("GET", "/api/virtualdatabases", SHOP_ADMIN, HR_PASSWORD));

        assertThat(answers).extracting(HttpResponse::statusCode).contains(409, 502); // the refusals were reached
        for (HttpResponse<String> answer : answers) {
            assertNoSecret(answer.body());
        }
    }

    private static void assertNoSecret(String body) {
        for (String secret : SECRETS) {
            assertThat(body).as("an admin API answer").doesNotContain(secret);
        }
    }

    @Test
    void aWebPageCannotMakeABrowserPostToTheApi() throws Exception {
        start("");
        HttpResponse<String> fromPage = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + controller.adminPort()
                                        + "/api/virtualdatabases/shop/backends/pg2/disable"))
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .header("Origin", "https://evil.example")
                                .header(
                                        "Authorization",
                                        "Basic "
                                                + Base64.getEncoder()
                                                        .encodeToString((SHOP_ADMIN + ":" + SHOP_PASSWORD)
                                                                .getBytes(StandardCharsets.UTF_8)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());

        assertThat(fromPage.statusCode()).isEqualTo(403);
        assertThat(error(fromPage)).contains("requests from web pages are refused");
        assertShopUntouched();
    }

    // ---- finding 4: where the admin API listens --------------------------------------------------------------

    @Test
    void byDefaultTheAdminApiListensOnLoopbackOnlyWhileClientsMayComeFromAnywhere() throws Exception {
        // ControllerConfigXml writes <controller> without host or adminHost: both defaults.
        Path file = pg.controllerConfig("shop").dataDir(dir.resolve("data")).writeTo(dir.resolve("defaults.xml"));
        assertThat(Files.readString(file)).doesNotContain("host=").doesNotContain("adminHost=");
        assertThat(ConfigLoader.load(file).controller().host()).isEqualTo("0.0.0.0");

        controller = Controller.start(ConfigLoader.load(file));

        assertThat(controller.adminAddress().getAddress().isLoopbackAddress())
                .as("admin API bound to " + controller.adminAddress())
                .isTrue();
        assertThat(new AdminHttp(controller)
                        .call("GET", "/api/virtualdatabases", "admin", "adminpw")
                        .statusCode())
                .isEqualTo(200);
    }
}
