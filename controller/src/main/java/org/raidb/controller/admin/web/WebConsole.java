package org.raidb.controller.admin.web;

import static org.raidb.controller.admin.web.ConsoleResponses.error;
import static org.raidb.controller.admin.web.ConsoleResponses.json;
import static org.raidb.controller.admin.web.ConsoleResponses.redirect;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.raidb.controller.auth.LoginThrottledException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web console on the admin port. Its pages live under {@code /console/}: {@code login} opens a session (an
 * HttpOnly, SameSite=Strict cookie) for a virtual database's admin, and the main page then calls the admin API with
 * that cookie instead of HTTP Basic. Every state-changing request of a session must carry the session's CSRF token
 * in {@code X-CSRF-Token}; the cookie alone, which a browser may attach to a request another page forged, is never
 * enough.
 *
 * @param <P> the administrator the admin API works for
 */
public final class WebConsole<P> {
    /** The cookie's name; its value is the session id. */
    static final String COOKIE = "raidb_console";

    static final String CSRF_HEADER = "X-CSRF-Token";
    private static final String CONSOLE = "/console";
    private static final String ASSETS = CONSOLE + "/assets/";
    private static final Logger log = LoggerFactory.getLogger(WebConsole.class);

    private final ConsoleLogin<P> login;
    private final ConsoleSessions<P> sessions;
    private final ConsoleAssets assets = new ConsoleAssets();
    private final boolean https;

    /** @param https whether the admin port speaks HTTPS: the cookie is then marked Secure */
    public WebConsole(ConsoleLogin<P> login, boolean https) {
        this.login = login;
        this.https = https;
        this.sessions = new ConsoleSessions<>(Clock.systemUTC());
    }

    /** Whether the path is one of the console's own (its pages, files, login and logout) rather than the API's. */
    public static boolean serves(String path) {
        return path.equals("/") || path.equals(CONSOLE) || path.startsWith(CONSOLE + "/");
    }

    /**
     * Whether an admin API request belongs to a console session, and if so whether it may go on. A request with the
     * console's cookie is judged by it alone: an unknown or expired session gets 401 (the page then shows the login),
     * a state-changing request without the session's CSRF token 403.
     */
    public ConsoleAccess<P> access(HttpExchange exchange) {
        String id = sessionCookie(exchange.getRequestHeaders());
        if (id == null) {
            return ConsoleAccess.noSession();
        }
        Optional<ConsoleSession<P>> session = sessions.find(id);
        if (session.isEmpty()) {
            return ConsoleAccess.refused(
                    401, "the console session has expired or is unknown: log in again at " + CONSOLE + "/login");
        }
        Optional<String> forged = forgeryRefusal(exchange, session.get());
        if (forged.isPresent()) {
            return ConsoleAccess.refused(403, forged.get());
        }
        return ConsoleAccess.granted(session.get().admin());
    }

    /** Answers a request for one of the console's paths ({@link #serves}). */
    public void serve(HttpExchange exchange) throws IOException {
        try {
            dispatch(exchange);
        } catch (RuntimeException e) {
            // The administrator gets one line; the stack trace goes to the controller's log.
            log.error("web console request {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            json(exchange, 500, error(500, "internal error: " + e + " (details in the controller's log)"));
        }
    }

    private void dispatch(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        if (path.equals("/") || path.equals(CONSOLE)) {
            redirect(exchange, CONSOLE + "/");
        } else if (path.equals(CONSOLE + "/")) {
            if (sessions.find(sessionCookie(exchange.getRequestHeaders())).isEmpty()) {
                redirect(exchange, CONSOLE + "/login");
            } else {
                page(exchange, ConsoleAssets.MAIN_PAGE);
            }
        } else if (path.equals(CONSOLE + "/login")) {
            if (method.equals("POST")) {
                logIn(exchange);
            } else {
                page(exchange, ConsoleAssets.LOGIN_PAGE);
            }
        } else if (path.equals(CONSOLE + "/session") && method.equals("GET")) {
            describeSession(exchange);
        } else if (path.equals(CONSOLE + "/logout") && method.equals("POST")) {
            logOut(exchange);
        } else if (path.startsWith(ASSETS) && method.equals("GET")) {
            page(exchange, path.substring(ASSETS.length()));
        } else {
            json(exchange, 404, error(404, "no such console page: " + path + " (the console is at " + CONSOLE + "/)"));
        }
    }

    private void logIn(HttpExchange exchange) throws IOException {
        if (!sameOrigin(exchange)) {
            // Another site's page must not log a browser in under an account of its choosing.
            json(exchange, 403, error(403, "login refused: it came from another site's page"));
            return;
        }
        LoginForm form = LoginForm.read(exchange);
        String user = form.user();
        String password = form.password();
        Optional<P> admin;
        try {
            admin = login.check(user, password, exchange.getRemoteAddress().getAddress());
        } catch (LoginThrottledException e) {
            exchange.getResponseHeaders().set("Retry-After", String.valueOf(e.retryAfterSeconds()));
            json(
                    exchange,
                    429,
                    error(429, "login refused: " + e.getMessage() + "; try again in " + e.retryAfterSeconds() + " s"));
            return;
        }
        if (admin.isEmpty()) {
            json(
                    exchange,
                    401,
                    error(
                            401,
                            "wrong user or password: log in with the user and password of a virtual database's"
                                    + " <admin>"));
            return;
        }
        ConsoleSession<P> session = sessions.open(user, admin.get());
        exchange.getResponseHeaders()
                .add(
                        "Set-Cookie",
                        COOKIE + "=" + session.id() + "; Path=/; HttpOnly; SameSite=Strict"
                                + (https ? "; Secure" : ""));
        json(exchange, 200, sessionBody(session));
    }

    private void describeSession(HttpExchange exchange) throws IOException {
        Optional<ConsoleSession<P>> session = sessions.find(sessionCookie(exchange.getRequestHeaders()));
        if (session.isEmpty()) {
            json(exchange, 401, error(401, "not logged in: log in at " + CONSOLE + "/login"));
            return;
        }
        json(exchange, 200, sessionBody(session.get()));
    }

    private void logOut(HttpExchange exchange) throws IOException {
        Optional<ConsoleSession<P>> session = sessions.find(sessionCookie(exchange.getRequestHeaders()));
        if (session.isPresent()) {
            Optional<String> forged = forgeryRefusal(exchange, session.get());
            if (forged.isPresent()) {
                json(exchange, 403, error(403, forged.get()));
                return;
            }
            sessions.close(session.get());
        }
        exchange.getResponseHeaders()
                .add(
                        "Set-Cookie",
                        COOKIE + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (https ? "; Secure" : ""));
        json(exchange, 200, Map.of("message", "logged out"));
    }

    /** A reason to refuse a session's request as possibly forged by another page, or empty. */
    private Optional<String> forgeryRefusal(HttpExchange exchange, ConsoleSession<?> session) {
        String method = exchange.getRequestMethod();
        if (method.equals("GET") || method.equals("HEAD")) {
            return Optional.empty();
        }
        if (!session.acceptsCsrfToken(exchange.getRequestHeaders().getFirst(CSRF_HEADER))) {
            return Optional.of("refused: a console request that changes something must carry the session's "
                    + CSRF_HEADER + " header (a page of another site cannot know it); reload the console");
        }
        if (!sameOrigin(exchange)) {
            return Optional.of("refused: the request came from another site's page ("
                    + exchange.getRequestHeaders().getFirst("Origin") + ")");
        }
        return Optional.empty();
    }

    /** No Origin header (not a browser, or a same-origin GET), or the origin this server was reached at. */
    private boolean sameOrigin(HttpExchange exchange) {
        String origin = exchange.getRequestHeaders().getFirst("Origin");
        String host = exchange.getRequestHeaders().getFirst("Host");
        return origin == null || (host != null && origin.equals((https ? "https://" : "http://") + host));
    }

    private static String sessionCookie(Headers headers) {
        for (String header : headers.getOrDefault("Cookie", List.of())) {
            for (String pair : header.split(";", -1)) {
                String p = pair.trim();
                if (p.startsWith(COOKIE + "=")) {
                    return p.substring(COOKIE.length() + 1);
                }
            }
        }
        return null;
    }

    private static Map<String, Object> sessionBody(ConsoleSession<?> session) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("user", session.user());
        body.put("csrfToken", session.csrfToken());
        return body;
    }

    private void page(HttpExchange exchange, String name) throws IOException {
        Optional<ConsoleAssets.Asset> asset = assets.get(name);
        if (asset.isEmpty()) {
            json(exchange, 404, error(404, "no such console file: " + name));
            return;
        }
        ConsoleResponses.asset(exchange, asset.get());
    }
}
