package org.raidb.controller.request;

import java.util.List;
import java.util.Locale;
import org.raidb.controller.determinism.SqlDialect;
import org.raidb.controller.determinism.SqlTokens;

/**
 * The text of a session setting as the session's borrowed connections replay it (see {@link
 * org.raidb.controller.transaction.SessionState#prepare}). A setting sent with parameters ({@code SELECT
 * set_config('search_path', ?, false)}) is replayed without them, so its values are written in.
 */
final class SettingText {
    private SettingText() {}

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
