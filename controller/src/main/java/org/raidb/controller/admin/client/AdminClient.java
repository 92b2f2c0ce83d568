package org.raidb.controller.admin.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;

/** A client of the controller's admin HTTP API (docs/admin.md), used by the console and by tests. */
public final class AdminClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final URI base;
    private final String authorization;
    private final HttpClient http;

    /** @param base the API's address, e.g. {@code http://127.0.0.1:25380} */
    public AdminClient(URI base, String user, String password) {
        this(base, user, password, null);
    }

    /**
     * @param base the API's address, e.g. {@code https://controller.example:25380}
     * @param trust for https://, the certificates to trust ({@link TrustedCertificates}); null: the JVM's trust
     *     store. The host name in {@code base} must be one the certificate names either way.
     */
    public AdminClient(URI base, String user, String password, SSLContext trust) {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(TIMEOUT);
        if (trust != null) {
            builder.sslContext(trust);
        }
        this.http = builder.build();
        String b = base.toString();
        this.base = URI.create(b.endsWith("/") ? b.substring(0, b.length() - 1) : b);
        this.authorization = "Basic "
                + Base64.getEncoder()
                        .encodeToString(
                                (user + ":" + (password == null ? "" : password)).getBytes(StandardCharsets.UTF_8));
    }

    public URI base() {
        return base;
    }

    public JsonNode get(String path) throws AdminCallException {
        return send(HttpRequest.newBuilder(uri(path)).GET(), TIMEOUT);
    }

    public JsonNode post(String path) throws AdminCallException {
        return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()), TIMEOUT);
    }

    /**
     * A POST with its parameters as a JSON object body rather than the query string: a new backend's password must
     * not end up in access logs.
     */
    public JsonNode post(String path, Map<String, String> parameters) throws AdminCallException {
        return post(path, parameters, TIMEOUT);
    }

    /** As {@link #post(String, Map)}, waiting up to {@code timeout} for the answer (a request that runs long). */
    public JsonNode post(String path, Map<String, String> parameters, Duration timeout) throws AdminCallException {
        String body;
        try {
            body = JSON.writeValueAsString(parameters);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings is always JSON", e);
        }
        return send(
                HttpRequest.newBuilder(uri(path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)),
                timeout);
    }

    /** One path segment, escaped: names come from users and may hold any character. */
    public static String segment(String name) {
        return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private URI uri(String path) {
        return URI.create(base + path);
    }

    private JsonNode send(HttpRequest.Builder request, Duration timeout) throws AdminCallException {
        HttpResponse<String> response;
        try {
            response = http.send(
                    request.header("Authorization", authorization)
                            .header("Accept", "application/json")
                            .timeout(timeout)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (SSLHandshakeException e) {
            throw new AdminCallException(AdminCallException.UNREACHABLE, untrusted(e));
        } catch (IOException e) {
            if ("http".equals(base.getScheme()) && !(e instanceof java.net.ConnectException)) {
                throw new AdminCallException(
                        AdminCallException.UNREACHABLE,
                        "the controller at " + base + " closed the connection without an answer (" + describe(e)
                                + "): if its configuration has <tls>, its admin port speaks HTTPS only: use "
                                + base.toString().replaceFirst("^http:", "https:")
                                + " and trust its certificate (--cacert FILE)");
            }
            throw new AdminCallException(
                    AdminCallException.UNREACHABLE,
                    "cannot reach the controller's admin API at " + base + " (" + describe(e)
                            + "): is the controller running, and is this its adminPort?");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdminCallException(AdminCallException.UNREACHABLE, "interrupted while calling " + base);
        }
        JsonNode body = parse(response.body());
        if (response.statusCode() == 401) {
            throw new AdminCallException(
                    401,
                    "the controller at " + base + " refused these credentials: give the user and "
                            + "password of a virtual database's <admin> (--user, --password or RAIDB_ADMIN_PASSWORD)");
        }
        if (response.statusCode() >= 300) {
            String error = body != null && body.hasNonNull("error")
                    ? body.get("error").asText()
                    : "HTTP " + response.statusCode() + " from " + base;
            throw new AdminCallException(response.statusCode(), error);
        }
        if (body == null) {
            throw new AdminCallException(
                    response.statusCode(),
                    "the answer from " + base + " is not JSON: is this the " + "controller's adminPort?");
        }
        return body;
    }

    private static JsonNode parse(String text) {
        try {
            return text == null || text.isBlank() ? null : JSON.readTree(text);
        } catch (IOException notJson) {
            return null;
        }
    }

    /** Why TLS with the controller failed, and what to give instead. */
    private String untrusted(SSLHandshakeException e) {
        String m = String.valueOf(e.getMessage());
        String cause = "TLS with the controller at " + base + " failed (" + m + ")";
        if (m.contains("No subject alternative") || m.contains("doesn't match")) {
            return cause + ": its certificate is for another host name; connect by a name the certificate lists";
        }
        if (m.contains("PKIX") || m.contains("certification path")) {
            return cause + ": its certificate is not trusted; give the certificate (PEM) with --cacert FILE";
        }
        return cause + ": is this the controller's adminPort, and does it serve HTTPS (<tls> in its configuration)?";
    }

    private static String describe(IOException e) {
        if (e instanceof java.net.ConnectException) {
            return "connection refused";
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName().replace("Exception", " failed") : m;
    }
}
