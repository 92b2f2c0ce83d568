package org.raidb.controller.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.Controller;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.test.PostgresClusterExtension;

/** The admin API's recovery operations and the bad requests they refuse, over real PostgreSQL servers. */
class RecoveryAdminIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    private Controller controller;
    private AdminHttp http;

    @BeforeEach
    void startController() throws Exception {
        pg.cluster().ensureAllRunning();
        pg.cluster().recreateDatabases();
        controller = AdminTestController.start(pg);
        http = new AdminHttp(controller);
    }

    @AfterEach
    void stopController() {
        controller.close();
    }

    private HttpResponse<String> call(String method, String path, String user, String password) throws Exception {
        return http.call(method, path, user, password);
    }

    private HttpResponse<String> shop(String method, String path) throws Exception {
        return call(method, path, AdminTestController.SHOP_ADMIN, AdminTestController.SHOP_ADMIN_PASSWORD);
    }

    private HttpResponse<String> books(String method, String path) throws Exception {
        return call(method, path, AdminTestController.BOOKS_ADMIN, AdminTestController.BOOKS_ADMIN_PASSWORD);
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return AdminHttp.json(r);
    }

    private static String q(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** Waits for an operation started by a 202 answer to end; returns its final progress. */
    private JsonNode finished(HttpResponse<String> started, String user, String password) throws Exception {
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        long id = json(started).get("operation").get("id").asLong();
        await().atMost(Duration.ofSeconds(120))
                .until(() -> !json(call("GET", "/api/operations/" + id, user, password))
                        .get("state")
                        .asText()
                        .equals("running"));
        return json(call("GET", "/api/operations/" + id, user, password));
    }

    private JsonNode finishedInShop(HttpResponse<String> started) throws Exception {
        return finished(started, AdminTestController.SHOP_ADMIN, AdminTestController.SHOP_ADMIN_PASSWORD);
    }

    @Test
    void disableRecordsACheckpointAndEnableReplaysFromIt() throws Exception {
        JsonNode disabled = json(shop("POST", "/api/virtualdatabases/shop/backends/pg2/disable"));
        String checkpoint = disabled.get("backend").get("lastCheckpoint").asText();
        assertThat(checkpoint).startsWith("pg2-disabled-");
        assertThat(json(shop("GET", "/api/virtualdatabases/shop/checkpoints")).get("checkpoints"))
                .extracting(c -> c.get("name").asText())
                .contains(checkpoint);

        JsonNode op = finishedInShop(shop("POST", "/api/virtualdatabases/shop/backends/pg2/enable"));
        assertThat(op.get("state").asText()).as(op.toString()).isEqualTo("succeeded");
        assertThat(op.get("kind").asText()).isEqualTo("replay");
        assertThat(op.get("message").asText()).contains("backend pg2 enabled at checkpoint pg2-enabled-");
        assertThat(controller.virtualDatabase("shop").backend("pg2").isEnabled())
                .isTrue();
    }

    @Test
    void badRecoveryRequestsAreRefusedWithWhatToDo() throws Exception {
        HttpResponse<String> unknown = shop("POST", "/api/virtualdatabases/shop/backends/pg9/enable");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unknown).get("error").asText())
                .contains("unknown backend 'pg9'")
                .contains("[pg1, pg2]");

        HttpResponse<String> enabled = shop("POST", "/api/virtualdatabases/shop/backends/pg1/enable");
        assertThat(enabled.statusCode()).isEqualTo(409);
        assertThat(json(enabled).get("error").asText()).isEqualTo("backend pg1 is already enabled");

        HttpResponse<String> missingDump = shop("POST", "/api/virtualdatabases/shop/backends/pg2/restore?dump=nightly");
        assertThat(missingDump.statusCode()).isEqualTo(404);
        assertThat(json(missingDump).get("error").asText()).contains("no dump nightly in virtual database shop");

        HttpResponse<String> noDumpParameter = shop("POST", "/api/virtualdatabases/shop/backends/pg2/restore");
        assertThat(noDumpParameter.statusCode()).isEqualTo(400);
        assertThat(json(noDumpParameter).get("error").asText()).contains("parameter 'dump' is missing");

        HttpResponse<String> wrongPassword =
                call("POST", "/api/virtualdatabases/shop/backends/pg2/enable", "admin", "nope");
        assertThat(wrongPassword.statusCode()).isEqualTo(401);

        HttpResponse<String> purgeUnknown = shop("POST", "/api/virtualdatabases/shop/purge?before=never-taken");
        assertThat(purgeUnknown.statusCode()).isEqualTo(404);
        assertThat(json(purgeUnknown).get("error").asText()).contains("no checkpoint never-taken");

        HttpResponse<String> badUrl =
                shop("POST", "/api/virtualdatabases/shop/backends?name=pg3&url=" + q("postgres://x"));
        assertThat(badUrl.statusCode()).isEqualTo(400);
        assertThat(json(badUrl).get("error").asText()).contains("starts with jdbc:");

        HttpResponse<String> unreachable = shop(
                "POST",
                "/api/virtualdatabases/shop/backends?name=pg3&user=x&url=" + q("jdbc:postgresql://127.0.0.1:1/shop"));
        assertThat(unreachable.statusCode()).isEqualTo(502);
        assertThat(json(unreachable).get("error").asText()).contains("pg3").contains("cannot be reached");
        assertThat(controller.virtualDatabase("shop").backends())
                .extracting(DatabaseBackend::name)
                .containsExactly("pg1", "pg2");
        assertThat(controller.virtualDatabase("shop").backends()).allMatch(DatabaseBackend::isEnabled);
    }

    @Test
    void aDumpOfAnotherVirtualDatabaseIsRefusedByName() throws Exception {
        JsonNode backup = finished(
                books("POST", "/api/virtualdatabases/books/backends/pg1/backup?as=books-nightly"),
                AdminTestController.BOOKS_ADMIN,
                AdminTestController.BOOKS_ADMIN_PASSWORD);
        assertThat(backup.get("state").asText()).as(backup.toString()).isEqualTo("succeeded");
        assertThat(json(books("GET", "/api/virtualdatabases/books/dumps")).get("dumps"))
                .extracting(d -> d.get("name").asText())
                .containsExactly("books-nightly");

        HttpResponse<String> foreign =
                shop("POST", "/api/virtualdatabases/shop/backends/pg2/restore?dump=books-nightly");
        assertThat(foreign.statusCode()).isEqualTo(409);
        assertThat(json(foreign).get("error").asText())
                .contains("dump books-nightly belongs to virtual database books, not to shop");
    }

    @Test
    void twoEnablesOfOneBackendAtOnceOneWinsAndTheOtherIsTold() throws Exception {
        assertThat(shop("POST", "/api/virtualdatabases/shop/backends/pg2/disable")
                        .statusCode())
                .isEqualTo(200);
        List<HttpResponse<String>> answers = List.of(
                shop("POST", "/api/virtualdatabases/shop/backends/pg2/enable"),
                shop("POST", "/api/virtualdatabases/shop/backends/pg2/enable"));
        HttpResponse<String> winner =
                answers.stream().filter(r -> r.statusCode() == 202).findFirst().orElseThrow();
        HttpResponse<String> loser =
                answers.stream().filter(r -> r.statusCode() != 202).findFirst().orElseThrow();
        assertThat(loser.statusCode()).isEqualTo(409);
        // Refused while the winner still runs ("busy"), or after it enabled the backend ("already enabled").
        assertThat(json(loser).get("error").asText())
                .containsAnyOf("is busy: an operation (enable)", "is already enabled");
        assertThat(finishedInShop(winner).get("state").asText()).isEqualTo("succeeded");
        assertThat(controller.virtualDatabase("shop").backend("pg2").isEnabled())
                .isTrue();
    }
}
