package org.raidb.driver;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.SqlStates;

/**
 * A parsed {@code jdbc:raidb://host[:port][,host[:port]...]/vdb[?key=value&...]} URL.
 *
 * <p>IPv6 literals go in brackets ({@code [::1]:25322}); the port defaults to
 * {@link Protocol#DEFAULT_PORT}. Query keys and values are URL-decoded. Every malformed URL is an
 * SQLException with SQLState 08001 whose message says what is wrong, because "invalid URL" alone
 * leaves the user guessing.
 */
public record RaidbUrl(List<HostAndPort> controllers, String virtualDatabase, Map<String, String> parameters) {
    public static final String PREFIX = "jdbc:raidb:";
    private static final String FULL_PREFIX = PREFIX + "//";

    /** True for every URL of our scheme, well-formed or not, so that a malformed one gets our error rather than "no suitable driver". */
    public static boolean accepts(String url) {
        return url != null && url.startsWith(PREFIX);
    }

    public static RaidbUrl parse(String url) throws SQLException {
        if (!accepts(url)) {
            throw malformed(url, "it does not start with " + FULL_PREFIX);
        }
        if (!url.startsWith(FULL_PREFIX)) {
            throw malformed(url, "'//' must follow '" + PREFIX + "'");
        }
        String rest = url.substring(FULL_PREFIX.length());
        String query = null;
        int q = rest.indexOf('?');
        if (q >= 0) {
            query = rest.substring(q + 1);
            rest = rest.substring(0, q);
        }
        int slash = rest.indexOf('/');
        if (slash < 0) {
            throw malformed(url, "the virtual database name is missing (expected " + FULL_PREFIX + "host[:port]/vdb)");
        }
        String vdb = rest.substring(slash + 1);
        if (vdb.isEmpty()) {
            throw malformed(url, "the virtual database name after '/' is empty");
        }
        if (vdb.indexOf('/') >= 0) {
            throw malformed(url, "the virtual database name '" + vdb + "' contains '/'");
        }
        vdb = decode(url, vdb, "virtual database name");
        List<HostAndPort> controllers = parseControllers(url, rest.substring(0, slash));
        Map<String, String> parameters = query == null ? Map.of() : parseQuery(url, query);
        return new RaidbUrl(List.copyOf(controllers), vdb, parameters);
    }

    private static List<HostAndPort> parseControllers(String url, String hostList) throws SQLException {
        if (hostList.isEmpty()) {
            throw malformed(url, "no controller host before '/'");
        }
        List<HostAndPort> controllers = new ArrayList<>();
        String[] entries = hostList.split(",", -1);
        for (int i = 0; i < entries.length; i++) {
            controllers.add(parseController(url, entries[i], i + 1));
        }
        return controllers;
    }

    private static HostAndPort parseController(String url, String entry, int position) throws SQLException {
        if (entry.isEmpty()) {
            throw malformed(url, "controller #" + position + " of the host list is empty");
        }
        String host;
        String portText;
        if (entry.startsWith("[")) {
            int close = entry.indexOf(']');
            if (close < 0) {
                throw malformed(url, "the IPv6 address '" + entry + "' has no closing ']'");
            }
            host = entry.substring(1, close);
            String after = entry.substring(close + 1);
            if (!after.isEmpty() && !after.startsWith(":")) {
                throw malformed(url, "unexpected '" + after + "' after the IPv6 address [" + host + "]");
            }
            portText = after.isEmpty() ? null : after.substring(1);
        } else {
            int colon = entry.indexOf(':');
            if (colon >= 0 && entry.indexOf(':', colon + 1) >= 0) {
                throw malformed(
                        url, "the IPv6 address '" + entry + "' must be written in brackets, as [" + entry + "]");
            }
            host = colon < 0 ? entry : entry.substring(0, colon);
            portText = colon < 0 ? null : entry.substring(colon + 1);
        }
        if (host.isEmpty()) {
            throw malformed(url, "controller #" + position + " ('" + entry + "') has an empty host name");
        }
        return new HostAndPort(host, portText == null ? Protocol.DEFAULT_PORT : parsePort(url, host, portText));
    }

    private static int parsePort(String url, String host, String portText) throws SQLException {
        if (portText.isEmpty()) {
            throw malformed(url, "the port after '" + host + ":' is empty");
        }
        int port = -1;
        if (portText.length() <= 5 && portText.chars().allMatch(c -> c >= '0' && c <= '9')) {
            port = Integer.parseInt(portText);
        }
        if (port < 1 || port > 65535) {
            throw malformed(
                    url, "the port '" + portText + "' of host '" + host + "' is not a number between 1 and 65535");
        }
        return port;
    }

    private static Map<String, String> parseQuery(String url, String query) throws SQLException {
        Map<String, String> parameters = new LinkedHashMap<>();
        if (query.isEmpty()) {
            return parameters; // a bare trailing '?' is harmless
        }
        for (String pair : query.split("&", -1)) {
            if (pair.isEmpty()) {
                throw malformed(
                        url, "the query has an empty parameter (two '&' in a row, or a leading or trailing '&')");
            }
            int eq = pair.indexOf('=');
            if (eq < 0) {
                throw malformed(url, "the query parameter '" + pair + "' has no '=value'");
            }
            if (eq == 0) {
                throw malformed(url, "the query parameter '" + pair + "' has no name before '='");
            }
            String key = decode(url, pair.substring(0, eq), "query parameter name");
            parameters.put(key, decode(url, pair.substring(eq + 1), "value of query parameter '" + key + "'"));
        }
        return parameters;
    }

    private static String decode(String url, String text, String what) throws SQLException {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw malformed(url, "the " + what + " '" + text + "' has a bad %-escape");
        }
    }

    private static SQLException malformed(String url, String problem) {
        // The URL may hold a password in its query: mask it in the message.
        String shown = url == null ? "null" : url.replaceAll("(?i)(password=)[^&]*", "$1***");
        return SqlStates.exception("Malformed RAIDb URL " + shown + ": " + problem, SqlStates.CONNECTION_UNABLE, 0);
    }
}
