package org.raidb.controller.admin.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The user and password a login posts: a JSON object (the login page's script) or an HTML form's url-encoded body.
 * A body that is neither gives empty fields, refused as a wrong password.
 */
record LoginForm(String user, String password) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_BYTES = 1 << 16;

    static LoginForm read(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readNBytes(MAX_BYTES);
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        Map<String, String> fields =
                type != null && type.startsWith("application/json") ? json(body) : urlEncoded(body);
        return new LoginForm(fields.getOrDefault("user", ""), fields.getOrDefault("password", ""));
    }

    private static Map<String, String> json(byte[] body) {
        Map<String, String> out = new HashMap<>();
        JsonNode json;
        try {
            json = JSON.readTree(body);
        } catch (IOException e) {
            return out;
        }
        if (json != null && json.isObject()) {
            json.fields().forEachRemaining(f -> out.put(f.getKey(), f.getValue().asText()));
        }
        return out;
    }

    private static Map<String, String> urlEncoded(byte[] body) {
        Map<String, String> out = new HashMap<>();
        for (String pair : new String(body, StandardCharsets.UTF_8).split("&", -1)) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                out.put(
                        URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return out;
    }
}
