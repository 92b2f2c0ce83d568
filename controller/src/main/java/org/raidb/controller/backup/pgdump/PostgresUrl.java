package org.raidb.controller.backup.pgdump;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.raidb.controller.backup.BackendEndpoint;

/**
 * A pgjdbc URL taken apart, so that pg_dump and pg_restore reach the same server and database as
 * the backend's JDBC connections. The forms pgjdbc accepts:
 *
 * <pre>
 * jdbc:postgresql:database
 * jdbc:postgresql:/
 * jdbc:postgresql://host[:port][,host[:port]...]/[database][?key=value&amp;...]
 * jdbc:postgresql://[::1]:5432/database
 * </pre>
 *
 * Host defaults to localhost, port to 5432; an empty database means the user's name, as both
 * pgjdbc and libpq default it. Database and parameter values are percent-decoded, as pgjdbc does.
 *
 * @param database empty when the URL names none
 */
public record PostgresUrl(List<HostPort> hosts, String database, Map<String, String> parameters) {

    static final String PREFIX = "jdbc:postgresql:";
    static final String DEFAULT_HOST = "localhost";
    static final int DEFAULT_PORT = 5432;

    /** One server of a (possibly multi-host) URL. */
    public record HostPort(String host, int port) {}

    public PostgresUrl {
        hosts = List.copyOf(hosts);
        parameters = Map.copyOf(parameters);
    }

    /**
     * Reads a pgjdbc URL: its hosts and ports, database and parameters.
     *
     * @throws IllegalArgumentException when {@code url} is not a pgjdbc URL; the message says why
     */
    public static PostgresUrl parse(String url) {
        if (url == null || !url.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a PostgreSQL JDBC URL (jdbc:postgresql:...): " + url);
        }
        String rest = url.substring(PREFIX.length());
        int query = rest.indexOf('?');
        Map<String, String> parameters = query < 0 ? Map.of() : parameters(rest.substring(query + 1));
        String path = query < 0 ? rest : rest.substring(0, query);
        if (!path.startsWith("//")) {
            // jdbc:postgresql:database and jdbc:postgresql:/ have no host part.
            String database = path.startsWith("/") ? path.substring(1) : path;
            return new PostgresUrl(List.of(new HostPort(DEFAULT_HOST, DEFAULT_PORT)), decode(database), parameters);
        }
        String authorityAndDatabase = path.substring(2);
        int slash = authorityAndDatabase.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException(
                    "no '/' after the host list in " + url + " (expected jdbc:postgresql://host:port/database)");
        }
        List<HostPort> hosts = hosts(authorityAndDatabase.substring(0, slash), url);
        return new PostgresUrl(hosts, decode(authorityAndDatabase.substring(slash + 1)), parameters);
    }

    /**
     * The libpq environment for pg_dump or pg_restore: server, database, user and password (never on
     * the command line, where {@code ps} would show it), plus the URL parameters libpq understands.
     * User and password come from the endpoint, or else from the URL's parameters.
     */
    public Map<String, String> libpqEnvironment(BackendEndpoint endpoint) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PGHOST", hosts.stream().map(HostPort::host).collect(Collectors.joining(",")));
        env.put("PGPORT", hosts.stream().map(h -> Integer.toString(h.port())).collect(Collectors.joining(",")));
        if (!database.isEmpty()) {
            env.put("PGDATABASE", database);
        }
        String user = endpoint.user().isEmpty() ? parameters.getOrDefault("user", "") : endpoint.user();
        String password = endpoint.password().isEmpty() ? parameters.getOrDefault("password", "") : endpoint.password();
        if (!user.isEmpty()) {
            env.put("PGUSER", user);
        }
        if (!password.isEmpty()) {
            env.put("PGPASSWORD", password);
        }
        String sslMode = parameters.get("sslmode");
        if (sslMode != null) {
            env.put("PGSSLMODE", sslMode);
        } else if ("true".equalsIgnoreCase(parameters.get("ssl"))) {
            env.put("PGSSLMODE", "require"); // pgjdbc's ssl=true without sslmode verifies nothing more than require
        }
        if (parameters.containsKey("connectTimeout")) {
            env.put("PGCONNECT_TIMEOUT", parameters.get("connectTimeout")); // seconds in both
        }
        if (parameters.containsKey("options")) {
            env.put("PGOPTIONS", parameters.get("options"));
        }
        return env;
    }

    private static List<HostPort> hosts(String authority, String url) {
        if (authority.isEmpty()) {
            return List.of(new HostPort(DEFAULT_HOST, DEFAULT_PORT));
        }
        List<HostPort> hosts = new ArrayList<>();
        for (String part : authority.split(",", -1)) {
            hosts.add(hostPort(part, url));
        }
        return hosts;
    }

    private static HostPort hostPort(String part, String url) {
        String host;
        String port;
        if (part.startsWith("[")) { // IPv6 literal: [::1] or [::1]:5432
            int close = part.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("unclosed '[' in host '" + part + "' of " + url);
            }
            host = part.substring(1, close);
            String after = part.substring(close + 1);
            if (!after.isEmpty() && !after.startsWith(":")) {
                throw new IllegalArgumentException("unexpected '" + after + "' after host '" + part + "' of " + url);
            }
            port = after.isEmpty() ? "" : after.substring(1);
        } else {
            int colon = part.lastIndexOf(':');
            host = colon < 0 ? part : part.substring(0, colon);
            port = colon < 0 ? "" : part.substring(colon + 1);
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("empty host in '" + part + "' of " + url);
        }
        return new HostPort(host, port.isEmpty() ? DEFAULT_PORT : port(port, url));
    }

    private static int port(String port, String url) {
        try {
            int value = Integer.parseInt(port);
            if (value >= 1 && value <= 65535) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("port '" + port + "' of " + url + " is not a number from 1 to 65535");
    }

    private static Map<String, String> parameters(String query) {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String pair : query.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String key = equals < 0 ? pair : pair.substring(0, equals);
            parameters.put(decode(key), equals < 0 ? "" : decode(pair.substring(equals + 1)));
        }
        return parameters;
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }
}
