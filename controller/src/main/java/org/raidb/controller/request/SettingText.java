package org.raidb.controller.request;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.raidb.controller.determinism.SqlDialect;
import org.raidb.controller.determinism.SqlTokens;
import org.raidb.driver.protocol.SqlStates;

/**
 * The text of a session setting as the session's borrowed connections replay it (see {@link
 * org.raidb.controller.transaction.SessionState#prepare}). A setting sent with parameters ({@code SELECT
 * set_config('search_path', ?, false)}) is replayed without them, so its values are written in.
 */
final class SettingText {
    /**
     * Settings a session may keep at once. Each is replayed on every connection it borrows, so their
     * number is a cost on every statement; an application sets a few, a loop setting a new custom
     * parameter each time would otherwise grow the list without end.
     */
    static final int MAX_REMEMBERED = 500;

    /** SET and RESET forms whose parameter is written as words, with the parameter they set. */
    private static final String[][] SPECIAL_FORMS = {
        {"TIME", "ZONE", "timezone"},
        {"SESSION", "AUTHORIZATION", "session_authorization"},
        {"ROLE", null, "role"},
        {"NAMES", null, "client_encoding"},
        {"SCHEMA", null, "search_path"},
        {"XML", "OPTION", "xmloption"},
    };

    private SettingText() {}

    /**
     * Adds a setting to those a session replays: a later setting of a parameter replaces the earlier
     * ones of that parameter (a session that sets {@code search_path} at every request replays one),
     * and texts that may set several parameters or whose parameter cannot be told are kept in order.
     *
     * @throws SQLException 54000 past {@link #MAX_REMEMBERED} settings; the session's settings are
     *     then as they were
     */
    static void remember(List<String> settings, String text) throws SQLException {
        String parameter = parameter(text);
        List<String> kept = new ArrayList<>(settings.size() + 1);
        for (String earlier : settings) {
            if (parameter == null || !parameter.equals(parameter(earlier))) {
                kept.add(earlier);
            }
        }
        kept.add(text);
        if (kept.size() > MAX_REMEMBERED) {
            throw new SQLException(
                    "this session already keeps " + MAX_REMEMBERED + " settings, which the controller replays on every"
                            + " backend connection it uses; RESET ALL (or RESET the parameters no longer needed) before"
                            + " setting more",
                    SqlStates.PROGRAM_LIMIT_EXCEEDED);
        }
        settings.clear();
        settings.addAll(kept);
    }

    /**
     * The parameter a SET, RESET or {@code set_config(…, false)} sets, lower-case ({@code search_path},
     * {@code timezone}); null when the text may set several (MariaDB's {@code SET a = 1, b = 2}), sets a
     * user variable, or its parameter cannot be told.
     */
    static String parameter(String text) {
        SqlTokens t = SqlTokens.of(text, SqlDialect.POSTGRESQL);
        if (t.isWord(0, "SELECT")
                && t.isWord(1, "set_config")
                && t.isSymbol(2, '(')
                && t.kind(3) == SqlTokens.Kind.LITERAL) {
            String literal = t.text(3);
            return literal.startsWith("'") && literal.endsWith("'") && literal.length() >= 2
                    ? literal.substring(1, literal.length() - 1)
                            .replace("''", "'")
                            .toLowerCase(Locale.ROOT)
                    : null;
        }
        boolean set = t.isWord(0, "SET");
        if (!set && !t.isWord(0, "RESET")) {
            return null;
        }
        int at = 1;
        if (set && t.isWord(at, "SESSION") && !t.isAnyWord(at + 1, "CHARACTERISTICS", "AUTHORIZATION")) {
            at++;
        }
        if (t.isAnyWord(at, "LOCAL", "TRANSACTION", "CHARACTERISTICS", "ALL") || t.isWord(at + 1, "CHARACTERISTICS")) {
            return null;
        }
        for (String[] form : SPECIAL_FORMS) {
            if (t.isWord(at, form[0]) && (form[1] == null || t.isWord(at + 1, form[1]))) {
                return form[2];
            }
        }
        if (at >= t.size() || (t.kind(at) != SqlTokens.Kind.WORD && t.kind(at) != SqlTokens.Kind.QUOTED_NAME)) {
            return null; // MariaDB's @variables, or nothing readable
        }
        StringBuilder name = new StringBuilder(t.name(at));
        at++;
        while (t.isSymbol(at, '.') && at + 1 < t.size()) {
            name.append('.').append(t.name(at + 1)); // a custom parameter, app.user_id
            at += 2;
        }
        if (set) {
            if (!t.isWord(at, "TO") && !t.isSymbol(at, '=')) {
                return null;
            }
            for (int i = at + 1; i < t.size(); i++) {
                if (t.isSymbol(i, '=') || t.isSymbol(i, ':')) {
                    return null; // another assignment follows: MariaDB's SET a = 1, b = 2 (or := )
                }
            }
        } else if (at < t.size() && !t.isSymbol(at, ';')) {
            return null;
        }
        return name.toString();
    }

    /**
     * Refuses a setting the controller's own connections to the backends cannot live with: pgjdbc closes a
     * connection whose DateStyle stops beginning with ISO or whose client_encoding stops being UTF8, so the
     * setting, run on each backend, would look like every backend failing at once and disable them all.
     */
    static void refuseWhatBackendConnectionsCannotTake(String text) throws SQLException {
        String parameter = parameter(text.replaceFirst("(?i)^\\s*SET\\s+LOCAL\\s+", "SET "));
        if (parameter == null || !(parameter.equals("datestyle") || parameter.equals("client_encoding"))) {
            return;
        }
        java.util.regex.Matcher m = SET_VALUE.matcher(text);
        if (!m.matches()) {
            return; // RESET, or SET … DEFAULT: back to what the connection started with
        }
        String value = m.group(1).trim().toUpperCase(Locale.ROOT);
        if (parameter.equals("datestyle") && !value.startsWith("ISO") && !value.equals("DEFAULT")) {
            throw new SQLException(
                    "DateStyle " + m.group(1).trim() + " is not supported through RAIDb: the controller reads the"
                            + " backends with ISO dates; set a style that begins with ISO (ISO, DMY)",
                    SqlStates.FEATURE_NOT_SUPPORTED);
        }
        if (parameter.equals("client_encoding") && !value.matches("UTF-?8|UNICODE|DEFAULT")) {
            throw new SQLException(
                    "client_encoding " + m.group(1).trim() + " is not supported through RAIDb: the controller talks"
                            + " to the backends in UTF8; convert text in the client instead",
                    SqlStates.FEATURE_NOT_SUPPORTED);
        }
    }

    /** The value of a SET (TO, =, SET NAMES) or of set_config's second argument, quotes and ; left out. */
    private static final java.util.regex.Pattern SET_VALUE = java.util.regex.Pattern.compile(
            "(?is)\\s*(?:SET\\b.*?(?:\\bTO\\b|=|\\bNAMES\\b)|SELECT\\s+set_config\\s*\\(\\s*'[^']*'\\s*,)"
                    + "\\s*'?([^';]*?)'?\\s*(?:,.*)?;?\\s*");

    static String replayable(String sql, List<Object> parameters) {
        if (parameters == null || parameters.isEmpty()) {
            return sql;
        }
        SqlTokens tokens = SqlTokens.of(sql, SqlDialect.POSTGRESQL);
        StringBuilder out = new StringBuilder(sql.length() + 32);
        int copied = 0;
        int next = 0;
        for (int t = 0; t < tokens.size(); t++) {
            if (tokens.kind(t) == SqlTokens.Kind.PARAMETER && next < parameters.size()) {
                out.append(sql, copied, tokens.start(t));
                Object value = parameters.get(next++);
                out.append(value == null ? "NULL" : "'" + String.valueOf(value).replace("'", "''") + "'");
                copied = tokens.end(t);
            }
        }
        return out.append(sql, copied, sql.length()).toString();
    }

    /**
     * Whether the setting starts the session's settings afresh: {@code RESET ALL} and {@code DISCARD
     * ALL}. {@code RESET name} is not: it undoes one parameter and is replayed in its place after the
     * settings before it, which keeps the others ({@code SET search_path …; RESET statement_timeout}
     * leaves the search path set on the next connection borrowed).
     */
    static boolean resetsAll(String sql) {
        String[] words = sql.trim().toUpperCase(Locale.ROOT).split("\\s+", 3);
        return words.length >= 2
                && (words[0].equals("RESET") || words[0].equals("DISCARD"))
                && words[1].replace(";", "").equals("ALL");
    }
}
