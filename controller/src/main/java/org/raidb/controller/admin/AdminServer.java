package org.raidb.controller.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.raidb.controller.admin.web.ConsoleAccess;
import org.raidb.controller.admin.web.WebConsole;
import org.raidb.controller.auth.LoginThrottledException;
import org.raidb.controller.config.RaidbConfig;
import org.raidb.controller.group.ReplicationProtocol;
import org.raidb.controller.metrics.ControllerMetrics;
import org.raidb.controller.vdb.VirtualDatabase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin HTTP JSON API on the controller's {@code adminPort}: HTTP Basic against the virtual databases'
 * {@code <admin>} users, then one {@link Route} per endpoint. The same port serves the {@link WebConsole}, whose
 * session stands in for Basic on the API's requests. The JDK's HTTP server is enough for a few administrators and
 * adds no dependency. Under {@code <tls>} (unless {@code admin="false"}) the port speaks
 * HTTPS only, with the driver port's key store: Basic credentials and backend passwords cross it.
 */
public final class AdminServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AdminServer.class);
    private static final int THREADS = 4;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final HttpServer server;
    private final ExecutorService threads;
    private final BasicAuthenticator authenticator;
    private final List<Route> routes;
    private final Operations operations;
    private final WebConsole<AdminPrincipal> console;

    private static final String NO_DELAY_PROPERTY = "sun.net.httpserver.nodelay";

    private AdminServer(
            HttpServer server,
            ExecutorService threads,
            BasicAuthenticator authenticator,
            List<Route> routes,
            Operations operations,
            boolean https) {
        this.server = server;
        this.threads = threads;
        this.authenticator = authenticator;
        this.routes = routes;
        this.operations = operations;
        this.console = new WebConsole<>(authenticator::authenticate, https);
    }

    /**
     * Listens on the configured admin host and port (0 picks a free one). The admin host is not the clients'
     * host: without TLS, admin traffic, passwords included, crosses the network in clear, so by default it stays on
     * this machine.
     *
     * @param https the controller's TLS context, to serve HTTPS; null for plain HTTP
     * @param shutdown stops the controller; called on its own thread after the 202 answer is sent
     */
    public static AdminServer start(
            RaidbConfig config,
            Map<String, VirtualDatabase> virtualDatabases,
            Map<String, ReplicationProtocol> protocols,
            ControllerMetrics metrics,
            SSLContext https,
            Runnable shutdown)
            throws IOException {
        // The JDK's server leaves Nagle's algorithm on: on a kept-alive connection (the console's) each small
        // answer then waited for the client's delayed ACK, ~45 ms per request where 2-5 ms is the real work. The
        // JDK reads the property once, when its first server starts; a value set on the command line wins.
        if (System.getProperty(NO_DELAY_PROPERTY) == null) {
            System.setProperty(NO_DELAY_PROPERTY, "true");
        }
        InetSocketAddress address = new InetSocketAddress(
                config.controller().adminHost(), config.controller().adminPort());
        HttpServer server;
        if (https == null) {
            server = HttpServer.create(address, 0);
        } else {
            // A plain HTTP request on this port fails its TLS handshake and the connection is closed unanswered:
            // curl says "Empty reply from server", AdminClient says to use https:// (the JDK server offers no hook to
            // answer it in clear).
            HttpsServer secure = HttpsServer.create(address, 0);
            secure.setHttpsConfigurator(new HttpsConfigurator(https));
            server = secure;
        }
        AtomicInteger n = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "raidb-admin-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        Operations operations = new Operations();
        Runnable asynchronousShutdown = () -> {
            Thread t = new Thread(shutdown, "raidb-admin-shutdown");
            t.start();
        };
        AdminServer admin = new AdminServer(
                server,
                threads,
                new BasicAuthenticator(
                        virtualDatabases.values(), config.controller().clientLimits()),
                withMetrics(
                        new AdminApi(virtualDatabases, protocols, config, operations, asynchronousShutdown).allRoutes(),
                        metrics),
                operations,
                https != null);
        server.setExecutor(threads);
        server.createContext("/", admin::handle);
        server.start();
        log.info(
                "admin API listening on {}://{}:{}/api, web console at /console/",
                https == null ? "http" : "https",
                config.controller().adminHost(),
                admin.port());
        return admin;
    }

    /**
     * {@code GET /metrics}: every metric in Prometheus' text format, to any admin of the controller (the metrics
     * name virtual databases and backends but carry no data).
     */
    private static List<Route> withMetrics(List<Route> routes, ControllerMetrics metrics) {
        List<Route> all = new ArrayList<>(routes);
        all.add(new Route("GET", "/metrics", (admin, p) -> ApiResponse.ok(new MetricsText(metrics.scrape()))));
        return all;
    }

    /** A body sent as it is, in Prometheus' text format, not as JSON. */
    private record MetricsText(String text) {}

    public int port() {
        return server.getAddress().getPort();
    }

    /** The address and port the API is bound to. */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** Where dump, restore and replay code registers its progress for consoles to watch. */
    public Operations operations() {
        return operations;
    }

    private void handle(HttpExchange exchange) throws IOException {
        if (WebConsole.serves(exchange.getRequestURI().getPath())) {
            try (exchange) {
                console.serve(exchange);
            }
            return;
        }
        ApiResponse response;
        try {
            response = dispatch(exchange);
        } catch (AdminException e) {
            response = error(e.status(), e.getMessage());
        } catch (RuntimeException e) {
            // The administrator gets one line; the stack trace goes to the controller's log.
            log.error("admin request {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            response = error(500, "internal error: " + e + " (details in the controller's log)");
        }
        try (exchange) {
            send(exchange, response);
        }
        if (response.afterSent() != null) {
            response.afterSent().run();
        }
    }

    private ApiResponse dispatch(HttpExchange exchange) {
        ConsoleAccess<AdminPrincipal> session = console.access(exchange);
        if (session.refusal() != null) {
            return error(session.status(), session.refusal());
        }
        if (!session.noConsoleSession()) {
            return route(exchange, session.admin());
        }
        if (exchange.getRequestHeaders().containsKey("Origin")) {
            // Only browsers send Origin. A web page could otherwise make a browser that once logged in here replay its
            // Basic credentials in a form POST (shutdown, disable) to this loopback address. The web console's own
            // requests come with its session cookie and CSRF token instead (above).
            return error(
                    403,
                    "requests from web pages are refused (they carry an Origin header): use bin/raidb console,"
                            + " curl or a script");
        }
        Optional<AdminPrincipal> admin;
        try {
            admin = authenticator.authenticate(
                    exchange.getRequestHeaders().getFirst("Authorization"),
                    exchange.getRemoteAddress().getAddress());
        } catch (LoginThrottledException e) {
            exchange.getResponseHeaders().set("Retry-After", String.valueOf(e.retryAfterSeconds()));
            return error(
                    429,
                    "authentication refused: " + e.getMessage() + "; try again in " + e.retryAfterSeconds()
                            + " s with the user and password of a virtual database's <admin>");
        }
        if (admin.isEmpty()) {
            exchange.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"raidb\"");
            return error(401, "authentication required: the user and password of a virtual database's <admin>");
        }
        return route(exchange, admin.get());
    }

    private ApiResponse route(HttpExchange exchange, AdminPrincipal admin) {
        String path = exchange.getRequestURI().getPath();
        List<String> allowed = new ArrayList<>();
        for (Route route : routes) {
            Map<String, String> parameters = route.match(path);
            if (parameters == null) {
                continue;
            }
            if (route.method().equals(exchange.getRequestMethod())) {
                Map<String, String> all = requestParameters(exchange);
                all.putAll(parameters); // the path's own names win
                return route.handler().handle(admin, all);
            }
            allowed.add(route.method());
        }
        if (allowed.isEmpty()) {
            return error(404, "no such endpoint: " + path + " (docs/admin.md lists the endpoints)");
        }
        exchange.getResponseHeaders().set("Allow", String.join(", ", allowed));
        return error(405, "method " + exchange.getRequestMethod() + " not allowed on " + path + ": use " + allowed);
    }

    /**
     * Query-string parameters, and the string, number and boolean fields of a JSON object body: the
     * operations that take arguments (add backend, restore, purge) accept either.
     */
    private static Map<String, String> requestParameters(HttpExchange exchange) {
        Map<String, String> out = new java.util.HashMap<>();
        String query = exchange.getRequestURI().getRawQuery();
        if (query != null) {
            for (String pair : query.split("&", -1)) {
                if (pair.isEmpty()) {
                    continue; // "a=1&&b=2", "a=1&": an empty pair names nothing
                }
                int eq = pair.indexOf('=');
                String key = java.net.URLDecoder.decode(
                        eq < 0 ? pair : pair.substring(0, eq), java.nio.charset.StandardCharsets.UTF_8);
                String value = eq < 0
                        ? ""
                        : java.net.URLDecoder.decode(pair.substring(eq + 1), java.nio.charset.StandardCharsets.UTF_8);
                out.put(key, value);
            }
        }
        try {
            byte[] body = exchange.getRequestBody().readNBytes(1 << 20);
            if (body.length > 0) {
                com.fasterxml.jackson.databind.JsonNode json = JSON.readTree(body);
                if (!json.isObject()) {
                    throw new AdminException(400, "the request body must be a JSON object of parameters");
                }
                json.fields().forEachRemaining(f -> {
                    if (f.getValue().isValueNode() && !f.getValue().isNull()) {
                        out.put(f.getKey(), f.getValue().asText());
                    }
                });
            }
        } catch (IOException e) {
            throw new AdminException(400, "the request body is not JSON: " + e.getMessage());
        }
        return out;
    }

    private static ApiResponse error(int status, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", message);
        body.put("status", status);
        return new ApiResponse(status, body);
    }

    private static void send(HttpExchange exchange, ApiResponse response) throws IOException {
        if (response.body() instanceof MetricsText metrics) {
            byte[] text = metrics.text().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", ControllerMetrics.CONTENT_TYPE);
            exchange.sendResponseHeaders(response.status(), text.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(text);
            }
            return;
        }
        byte[] body = JSON.writeValueAsBytes(response.body());
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(response.status(), body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** Stops answering (in-flight requests get up to a second) and ends the admin threads. */
    @Override
    public void close() {
        server.stop(1);
        threads.shutdownNow();
    }
}
