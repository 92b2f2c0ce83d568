package org.raidb.controller.jdbcurl;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A JDBC URL read the way the controller must read it before connecting: its driver family and every
 * {@code key=value} it carries. Each driver has its own syntax (pgjdbc and MariaDB a query string,
 * H2 {@code ;KEY=value}, MariaDB also {@code address=(key=value)}), so the URL is cut at every one of
 * those separators: a parameter hidden from one reading is seen by another, and a value cut in two
 * is at worst a harmless extra token.
 */
public record JdbcUrl(String text, Optional<DriverFamily> family, List<Parameter> parameters) {

    private static final Pattern SEPARATORS = Pattern.compile("[?&;()]");
    // A parameter named like a password (password, PASSWORD, sslpassword, keyStorePassword, pwd) in any of those forms.
    private static final Pattern SECRET_PARAMETER =
            Pattern.compile("(?i)([?&;(][^=?&;()]*(?:password|pwd)[^=?&;()]*=)[^&;()]*");
    private static final Pattern PASSWORD_IN_AUTHORITY = Pattern.compile("(//[^/:@]+):[^/@]*@");

    /** One {@code key=value}; the key as written, trimmed. */
    public record Parameter(String key, String value) {

        /**
         * The names a driver could take this key for: as written and percent-decoded. Drivers compare
         * names ignoring case, so callers compare these the same way.
         */
        List<String> names() {
            try {
                String decoded = URLDecoder.decode(key, StandardCharsets.UTF_8).trim();
                return decoded.equals(key) ? List.of(key) : List.of(key, decoded);
            } catch (IllegalArgumentException notEncoded) {
                return List.of(key);
            }
        }
    }

    public static JdbcUrl parse(String url) {
        String[] tokens = SEPARATORS.split(url, -1);
        List<Parameter> parameters = new ArrayList<>();
        // tokens[0] is the driver prefix, host and database: no parameter there.
        for (int i = 1; i < tokens.length; i++) {
            int eq = tokens[i].indexOf('=');
            if (eq > 0) {
                parameters.add(new Parameter(tokens[i].substring(0, eq).trim(), tokens[i].substring(eq + 1)));
            } else if (!tokens[i].isBlank()) {
                parameters.add(new Parameter(tokens[i].trim(), "")); // a flag such as ?permitMysqlScheme
            }
        }
        return new JdbcUrl(url, DriverFamily.of(url), List.copyOf(parameters));
    }

    /**
     * The URL with every password replaced by {@code ***}: in a parameter whose name says password, and
     * in a {@code //user:password@host} authority. For answers and messages read by people who may not
     * know the backend's login.
     */
    public static String withoutSecrets(String url) {
        String noParameter = SECRET_PARAMETER.matcher(url).replaceAll("$1***");
        return PASSWORD_IN_AUTHORITY.matcher(noParameter).replaceAll("$1:***@");
    }
}
