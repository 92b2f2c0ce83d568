package org.raidb.tools.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.raidb.controller.admin.client.AdminClient;

/**
 * {@link ConsoleRunner} against a scripted stand-in for the admin API (the answers of docs/admin.md), so that the
 * console's side of the recovery commands is tested apart from the controller's: what it sends, how it follows an
 * operation, what it prints and returns. ConsoleRecoveryIT runs the same commands against a real controller.
 */
class ConsoleRunnerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One request the console made. */
    private record Call(String method, String path, JsonNode body) {}

    private HttpServer server;
    private final Map<String, Deque<String[]>> answers = new HashMap<>();
    private final List<Call> calls = new ArrayList<>();
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private Runnable onPoll = () -> {};

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String key =
                    exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
            byte[] body = exchange.getRequestBody().readAllBytes();
            synchronized (calls) {
                calls.add(new Call(
                        exchange.getRequestMethod(),
                        exchange.getRequestURI().getPath(),
                        body.length == 0 ? null : JSON.readTree(body)));
            }
            if (key.startsWith("GET /api/operations/")) {
                onPoll.run();
            }
            Deque<String[]> queue = answers.get(key);
            // The last answer repeats: an operation stays in its final state.
            String[] answer = queue == null
                    ? new String[] {"404", "{\"error\": \"no " + key + "\", \"status\": 404}"}
                    : queue.size() > 1 ? queue.poll() : queue.peek();
            byte[] bytes = answer[1].getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(Integer.parseInt(answer[0]), bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        answer("GET /api/virtualdatabases", 200, "{\"virtualDatabases\": [{\"name\": \"shop\"}]}");
    }

    @AfterEach
    void stop() {
        server.stop(0);
        Thread.interrupted();
    }

    private void answer(String request, int status, String json) {
        answers.computeIfAbsent(request, k -> new ArrayDeque<>()).add(new String[] {String.valueOf(status), json});
    }

    private int run(String line) {
        AdminClient client = new AdminClient(
                URI.create("http://127.0.0.1:" + server.getAddress().getPort()), "admin", "adminpw");
        PrintWriter printer = new PrintWriter(out);
        return new ConsoleRunner(
                        client,
                        printer,
                        new PrintWriter(err),
                        Duration.ofMillis(1),
                        new ProgressPrinter(
                                printer, ProgressPrinter.Style.TERMINAL, Duration.ofSeconds(5), Clock.systemUTC()))
                .run(line);
    }

    private static String operation(String kind, String target, String unit, String state, long done, String message) {
        return "{\"id\": 7, \"kind\": \"" + kind + "\", \"virtualDatabase\": \"shop\", \"target\": \"" + target
                + "\", \"unit\": \"" + unit + "\", \"state\": \"" + state + "\", \"done\": " + done + ", \"total\": 3, "
                + "\"ratePerSecond\": null, \"secondsLeft\": null, \"message\": "
                + (message == null ? "null" : "\"" + message + "\"") + "}";
    }

    private static String started(String kind, String target, String unit) {
        return "{\"message\": \"" + kind + " of " + target + " started: watch operation 7\", \"operation\": "
                + operation(kind, target, unit, "running", 0, null) + "}";
    }

    /** Runs {@code command}, which must succeed having posted {@code json} to {@code path}. */
    private void assertPosts(String command, String path, String json) throws IOException {
        assertThat(run(command)).as(err.toString()).isZero();
        JsonNode sent;
        synchronized (calls) {
            sent = calls.stream()
                    .filter(c -> c.method().equals("POST") && c.path().equals(path))
                    .findFirst()
                    .orElseThrow()
                    .body();
        }
        assertThat(sent).isEqualTo(JSON.readTree(json));
    }

    @Test
    void enableFollowsTheReplayUntilItSucceeds() {
        answer("POST /api/virtualdatabases/shop/backends/pg2/enable", 202, started("replay", "pg2", "entries"));
        answer("GET /api/operations/7", 200, operation("replay", "pg2", "entries", "running", 2, null));
        answer(
                "GET /api/operations/7",
                200,
                operation("replay", "pg2", "entries", "succeeded", 3, "backend pg2 enabled at checkpoint cp1"));

        assertThat(run("enable pg2")).as(err.toString()).isZero();
        assertThat(out.toString())
                .startsWith("replay of pg2 started: watch operation 7\n")
                .contains("\r#7 replay shop/pg2 2 of 3 entries (66%), running")
                .endsWith(
                        "\r#7 replay shop/pg2 3 of 3 entries (100%), succeeded: backend pg2 enabled at checkpoint cp1\n");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void aFailedOperationExits1WithItsMessage() {
        answer("POST /api/virtualdatabases/shop/backends/pg2/backup", 202, started("backup", "pg2", "rows"));
        answer("GET /api/operations/7", 200, operation("backup", "pg2", "rows", "failed", 1, "pg_dump exited with 1"));

        assertThat(run("backup pg2 in shop")).isEqualTo(ConsoleExit.COMMAND_FAILED);
        assertThat(out.toString()).endsWith("failed: pg_dump exited with 1\n");
        assertThat(err.toString()).isEqualTo("error: backup of pg2 failed: pg_dump exited with 1\n");
    }

    @Test
    void aBusyBackendGetsTheApiMessageVerbatimAndExits1() {
        String busy = "backend pg2 is busy: an operation (enable) on it is already running; wait for it to finish "
                + "(show operations)";
        answer(
                "POST /api/virtualdatabases/shop/backends/pg2/enable",
                409,
                "{\"error\": \"" + busy + "\", \"status\": 409}");

        assertThat(run("enable pg2 in shop")).isEqualTo(ConsoleExit.COMMAND_FAILED);
        assertThat(err.toString()).isEqualTo("error: " + busy + "\n");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void ctrlCStopsWatchingNotTheOperationAndSaysHowToWatchAgain() {
        answer("POST /api/virtualdatabases/shop/backends/pg2/restore", 202, started("restore", "pg2", "rows"));
        answer("GET /api/operations/7", 200, operation("restore", "pg2", "rows", "running", 1, null));
        Thread console = Thread.currentThread();
        onPoll = console::interrupt;

        assertThat(run("restore pg2 from nightly in shop")).isZero();
        assertThat(out.toString())
                .endsWith("stopped watching; operation #7 goes on ('watch operation 7' shows it again)\n");
        synchronized (calls) {
            assertThat(calls.stream().filter(c -> c.method().equals("POST")))
                    .as("nothing sent to stop the restore")
                    .hasSize(1);
        }
    }

    @Test
    void parametersGoAsAJsonObjectBody() throws Exception {
        answer("POST /api/virtualdatabases/shop/backends", 202, started("add backend", "pg3", "rows"));
        answer("POST /api/virtualdatabases/shop/backends/pg2/backup", 202, started("backup", "pg2", "rows"));
        answer("POST /api/virtualdatabases/shop/backends/pg2/restore", 202, started("restore", "pg2", "rows"));
        answer("GET /api/operations/7", 200, operation("backup", "pg2", "rows", "succeeded", 3, "done"));

        assertPosts(
                "add backend pg3 url=jdbc:postgresql://h:5432/shop?ssl=true user=raidb password=a=b from=pg1",
                "/api/virtualdatabases/shop/backends",
                """
        {"url": "jdbc:postgresql://h:5432/shop?ssl=true", "user": "raidb", "password": "a=b", "from": "pg1",
         "name": "pg3"}""");
        assertPosts("backup pg2 as nightly", "/api/virtualdatabases/shop/backends/pg2/backup", "{\"as\": \"nightly\"}");
        assertPosts(
                "restore pg2 from nightly",
                "/api/virtualdatabases/shop/backends/pg2/restore",
                "{\"dump\": \"nightly\"}");
    }

    @Test
    void checkpointAndPurgePrintWhatTheControllerDid() throws Exception {
        answer(
                "POST /api/virtualdatabases/shop/checkpoints",
                200,
                "{\"virtualDatabase\": \"shop\", \"checkpoint\": "
                        + "{\"name\": \"before-upgrade\", \"writePosition\": 1234, \"created\": \"2024-05-01T10:00:00Z\"}}");
        answer(
                "POST /api/virtualdatabases/shop/purge",
                200,
                "{\"virtualDatabase\": \"shop\", \"before\": "
                        + "\"before-upgrade\", \"entriesDeleted\": 1200, \"message\": \"1200 log entries before checkpoint "
                        + "before-upgrade deleted\"}");

        assertPosts(
                "checkpoint before-upgrade",
                "/api/virtualdatabases/shop/checkpoints",
                "{\"name\": \"before-upgrade\"}");
        assertPosts(
                "purge log before before-upgrade in shop",
                "/api/virtualdatabases/shop/purge",
                "{\"before\": \"before-upgrade\"}");
        assertThat(out.toString()).isEqualTo("""
        checkpoint before-upgrade recorded in shop at write position 1234
        1200 log entries before checkpoint before-upgrade deleted
        """);
    }

    @Test
    void showDumpsHasTheBackendColumnAndDisableNamesItsCheckpoint() {
        answer("GET /api/virtualdatabases/shop/dumps", 200, """
        {"virtualDatabase": "shop", "dumps": [{"name": "nightly", "backend": "pg2", "checkpoint": "cp1",
         "format": "pgDump", "sizeBytes": 4096, "created": "2024-05-01T02:00:00Z", "path": "/d/nightly.pgDump"}]}""");
        answer("POST /api/virtualdatabases/shop/backends/pg2/disable", 200, """
        {"virtualDatabase": "shop", "backend": {"name": "pg2", "lastCheckpoint": "cp2"}, "backendsEnabled": 1,
         "refusesWork": false, "message": "backend pg2 disabled; 1 backend(s) left enabled"}""");

        assertThat(run("show dumps")).isZero();
        assertThat(run("disable pg2")).isZero();
        assertThat(out.toString()).isEqualTo("""
        VDB   DUMP     BACKEND  CHECKPOINT  FORMAT  SIZE  CREATED               PATH
        shop  nightly  pg2      cp1         pgDump  4096  2024-05-01T02:00:00Z  /d/nightly.pgDump
        backend pg2 disabled; 1 backend(s) left enabled
        last checkpoint cp2: 'enable pg2' replays the log from there
        """);
    }

    @Test
    void withSeveralVirtualDatabasesTheCommandMustNameOne() {
        answers.remove("GET /api/virtualdatabases");
        answer(
                "GET /api/virtualdatabases",
                200,
                "{\"virtualDatabases\": [{\"name\": \"shop\"}, {\"name\": \"books\"}]}");

        assertThat(run("enable pg2")).isEqualTo(ConsoleExit.USAGE);
        assertThat(err.toString())
                .isEqualTo("which virtual database? you administer [shop, books]: enable pg2 in VDB\n");
        assertThat(run("checkpoint")).isEqualTo(ConsoleExit.USAGE);
        assertThat(err.toString()).endsWith(": checkpoint in VDB\n");
    }
}
