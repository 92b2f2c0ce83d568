package org.raidb.controller.admin.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.Map;

/** How the console answers: its files, JSON (errors as the admin API writes them) and redirects. */
final class ConsoleResponses {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ConsoleResponses() {}

    static void asset(HttpExchange exchange, ConsoleAssets.Asset asset) throws IOException {
        Headers h = exchange.getResponseHeaders();
        securityHeaders(h);
        h.set("Content-Type", asset.contentType());
        send(exchange, 200, asset.bytes());
    }

    static void json(HttpExchange exchange, int status, Object body) throws IOException {
        Headers h = exchange.getResponseHeaders();
        securityHeaders(h);
        h.set("Content-Type", "application/json; charset=utf-8");
        send(exchange, status, JSON.writeValueAsBytes(body));
    }

    static void redirect(HttpExchange exchange, String location) throws IOException {
        exchange.getResponseHeaders().set("Location", location);
        exchange.sendResponseHeaders(302, -1);
        exchange.close();
    }

    /** The admin API's error body: {@code {"error": message, "status": status}}. */
    static Map<String, Object> error(int status, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", message);
        body.put("status", status);
        return body;
    }

    /**
     * Scripts and styles from this server only (no inline script an injected value could become), no framing (a
     * page of another site cannot overlay the console's buttons), no caching of what an administrator saw.
     */
    private static void securityHeaders(Headers h) {
        h.set(
                "Content-Security-Policy",
                "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
                        + " frame-ancestors 'none'; form-action 'self'; base-uri 'none'");
        h.set("X-Frame-Options", "DENY");
        h.set("X-Content-Type-Options", "nosniff");
        h.set("Referrer-Policy", "no-referrer");
        h.set("Cache-Control", "no-store");
    }

    private static void send(HttpExchange exchange, int status, byte[] bytes) throws IOException {
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
