package org.raidb.controller.pgwire;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.raidb.driver.protocol.SqlStates;

/**
 * The settings a client asks for in its startup packet: every parameter that is a run-time setting
 * ({@code search_path}, which pgjdbc's {@code currentSchema} sends, {@code statement_timeout}, …) and each
 * {@code -c name=value} or {@code --name=value} of {@code options} (libpq's {@code PGOPTIONS}). They become
 * the session's {@code SET} statements, run through the request path at login as if the client had sent
 * them, so that every backend connection the session uses carries them.
 *
 * <p>Parameters this front end answers for itself are not passed on: the text formats of its own output
 * ({@code client_encoding}, {@code DateStyle}, {@code IntervalStyle}, {@code extra_float_digits}: values are
 * encoded here, in UTF-8 and ISO dates, as the ParameterStatus messages say) and {@code application_name}.
 * {@code TimeZone} is passed on (the backends read text without an offset in it) and also kept by the session,
 * which writes timestamptz values in it ({@link PgTimeZone}). A replication connection is refused: RAIDb is no server to replicate
 * from.
 */
final class PgStartupSettings {
    /** Startup parameters that are not settings, or that this front end answers for itself. */
    private static final Set<String> NOT_PASSED_ON = Set.of(
            "user",
            "database",
            "options",
            "application_name",
            "client_encoding",
            "datestyle",
            "intervalstyle",
            "extra_float_digits");

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.$]{0,62}");

    private PgStartupSettings() {}

    /**
     * The {@code SET} statements for a startup packet's parameters, in the order sent ({@code options} last,
     * as PostgreSQL applies them over the others); a SQLException (FATAL at login) for what cannot be one.
     */
    static List<String> of(Map<String, String> parameters) throws SQLException {
        String replication = parameters.get("replication");
        if (replication != null && !replication.equalsIgnoreCase("false") && !replication.equals("0")) {
            throw new SQLException(
                    "replication connections are not supported by RAIDb's PostgreSQL front end: replicate from a"
                            + " backend server itself",
                    "08P01");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        for (Map.Entry<String, String> p : parameters.entrySet()) {
            String name = p.getKey().toLowerCase(java.util.Locale.ROOT);
            if (!NOT_PASSED_ON.contains(name) && !name.equals("replication")) {
                settings.put(name, p.getValue());
            }
        }
        String options = parameters.get("options");
        if (options != null) {
            options(options, settings);
        }
        List<String> out = new ArrayList<>(settings.size());
        for (Map.Entry<String, String> s : settings.entrySet()) {
            if (!NAME.matcher(s.getKey()).matches()) {
                throw new SQLException(
                        "invalid configuration parameter name \"" + s.getKey() + "\" in the startup packet",
                        SqlStates.SYNTAX_ERROR);
            }
            if (!NOT_PASSED_ON.contains(s.getKey())) {
                out.add("SET " + s.getKey() + " TO '" + s.getValue().replace("'", "''") + "'");
            }
        }
        return out;
    }

    /**
     * The {@code options} parameter as PostgreSQL reads it: arguments separated by spaces (a backslash keeps
     * the next character, space included), each {@code -c name=value}, {@code -cname=value} or {@code
     * --name=value}; any other switch is refused.
     */
    private static void options(String options, Map<String, String> settings) throws SQLException {
        List<String> args = arguments(options);
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String pair;
            if (a.equals("-c") && i + 1 < args.size()) {
                pair = args.get(++i);
            } else if (a.startsWith("-c") && a.length() > 2) {
                pair = a.substring(2);
            } else if (a.startsWith("--") && a.length() > 2) {
                pair = a.substring(2);
            } else {
                throw new SQLException(
                        "invalid command-line argument \"" + a + "\" in the startup packet's options: RAIDb takes"
                                + " -c name=value and --name=value only",
                        "08P01");
            }
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new SQLException("-c " + pair + " requires a value: write -c name=value", SqlStates.SYNTAX_ERROR);
            }
            settings.put(
                    pair.substring(0, eq).replace('-', '_').toLowerCase(java.util.Locale.ROOT), pair.substring(eq + 1));
        }
    }

    private static List<String> arguments(String options) {
        List<String> args = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean escaped = false;
        for (int i = 0; i < options.length(); i++) {
            char c = options.charAt(i);
            if (escaped) {
                current.append(c);
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (Character.isWhitespace(c)) {
                if (current.length() > 0) {
                    args.add(current.toString());
                    current.setLength(0);
                }
            } else {
                current.append(c);
            }
        }
        if (current.length() > 0) {
            args.add(current.toString());
        }
        return args;
    }
}
