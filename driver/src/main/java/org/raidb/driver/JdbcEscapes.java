package org.raidb.driver;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.driver.sql.SqlLexer;
import org.raidb.driver.sql.SqlSyntax;
import org.raidb.driver.sql.TokenKind;

/**
 * JDBC escape syntax translated the way pgjdbc translates it (its {@code Parser.replaceProcessing}),
 * so that the controller and the backends see the SQL pgjdbc would have sent: the controller's
 * analysis then recognizes {@code {fn now()}} as {@code now()}, for example, and makes it
 * deterministic.
 *
 * <ul>
 *   <li>{@code {d '...'}}, {@code {t '...'}}, {@code {ts '...'}} become {@code DATE '...'},
 *       {@code TIME '...'}, {@code TIMESTAMP '...'};
 *   <li>{@code {escape '\'}} becomes {@code ESCAPE '\'}; {@code {oj ...}} loses its braces;
 *   <li>{@code {fn f(args)}} becomes the PostgreSQL form of f ({@link EscapedFunctions}), or
 *       {@code f(args)} for a function not in the JDBC list.
 * </ul>
 *
 * Literals, quoted identifiers and comments are skipped with {@link SqlLexer}. A call escape
 * ({@code {call ...}}) is not translated here: {@link CallEscape} does, for CallableStatement.
 */
final class JdbcEscapes {
    /** The escapes pgjdbc knows, in the order it tries them, with what must follow the keyword. */
    private enum Escape {
        DATE("d", "'", "DATE "),
        TIME("t", "'", "TIME "),
        TIMESTAMP("ts", "'", "TIMESTAMP "),
        FUNCTION("fn", "\"a", null),
        OUTER_JOIN("oj", "\"a(", null),
        ESCAPE_CHAR("escape", "'", "ESCAPE ");

        final String keyword;
        /** Characters allowed to start the escape's body; 'a' stands for any letter. */
        final String starts;

        final String replacement;

        Escape(String keyword, String starts, String replacement) {
            this.keyword = keyword;
            this.starts = starts;
            this.replacement = replacement;
        }

        /**
         * If this escape's keyword follows the brace at {@code brace}, the offset of its body (spaces
         * skipped); otherwise -1.
         */
        int bodyAt(String sql, int brace) {
            int i = brace + 1;
            if (!sql.regionMatches(true, i, keyword, 0, keyword.length())) {
                return -1;
            }
            i += keyword.length();
            while (i < sql.length() && sql.charAt(i) == ' ') {
                i++;
            }
            if (i >= sql.length()) {
                return -1;
            }
            char c = sql.charAt(i);
            boolean allowed = starts.indexOf(c) >= 0 || (starts.indexOf('a') >= 0 && Character.isLetter(c));
            return allowed ? i : -1;
        }
    }

    /** Escapes inside escapes are translated by recursion, as pgjdbc does; deeper than this is refused. */
    private static final int MAX_NESTING = 100;

    private final String sql;
    private final SqlLexer lexer;
    private final StringBuilder out;
    private int nesting;

    private JdbcEscapes(String sql) {
        this.sql = sql;
        this.lexer = new SqlLexer(sql, SqlSyntax.POSTGRESQL);
        this.out = new StringBuilder(sql.length());
    }

    /** The text with every escape outside literals and comments translated; the text itself if it has none. */
    static String translate(String sql) throws SQLException {
        if (sql.indexOf('{') < 0) {
            return sql;
        }
        JdbcEscapes t = new JdbcEscapes(sql);
        int i = 0;
        while (i < sql.length()) {
            i = t.copy(i, t.out, false);
            if (i < sql.length()) {
                t.out.append(sql.charAt(i)); // an unbalanced ')': kept, so that a syntax error stays one
                i++;
            }
        }
        return t.out.toString();
    }

    /**
     * Copies SQL from {@code i} into {@code to}, translating escapes, until an unbalanced {@code )}, a
     * top-level comma when {@code stopOnComma}, or the end; returns where it stopped.
     */
    private int copy(int i, StringBuilder to, boolean stopOnComma) throws SQLException {
        int depth = 0;
        lexer.reset(i);
        for (TokenKind k = lexer.next(); k != TokenKind.END; k = lexer.next()) {
            int at = lexer.start();
            if (lexer.isSymbol('(')) {
                depth++;
            } else if (lexer.isSymbol(')') && --depth < 0) {
                return at;
            } else if (lexer.isSymbol(',') && stopOnComma && depth == 0) {
                return at;
            } else if (k == TokenKind.ESCAPE_OPEN) {
                int translated = escape(at, to);
                if (translated > at) {
                    lexer.reset(translated);
                    continue;
                }
            }
            to.append(sql, at, lexer.end());
        }
        return sql.length();
    }

    /** Translates the escape whose brace is at {@code brace}; returns the offset after it, or {@code brace} if none starts there. */
    private int escape(int brace, StringBuilder to) throws SQLException {
        for (Escape e : Escape.values()) {
            int body = e.bodyAt(sql, brace);
            if (body < 0) {
                continue;
            }
            if (e.replacement != null) {
                to.append(e.replacement);
            }
            int end = e == Escape.FUNCTION ? function(body, to) : copyUntilBrace(body, to);
            return Math.min(end + 1, sql.length()); // past the closing brace
        }
        return brace;
    }

    /** As pgjdbc does, the body of a {d}, {t}, {ts}, {oj} or {escape} escape is copied as it is up to the first '}'. */
    private int copyUntilBrace(int i, StringBuilder to) {
        int close = sql.indexOf('}', i);
        int end = close < 0 ? sql.length() : close;
        to.append(sql, i, end);
        return end;
    }

    /** {@code {fn name(args)}}: the arguments are translated first (they may hold escapes), then the call. */
    private int function(int i, StringBuilder to) throws SQLException {
        int open = sql.indexOf('(', i);
        if (open >= 0) {
            if (++nesting > MAX_NESTING) {
                throw syntaxError("JDBC escapes nested more than " + MAX_NESTING + " deep");
            }
            String name = sql.substring(i, open).trim();
            List<CharSequence> arguments = new ArrayList<>(3);
            int at = open + 1;
            while (true) {
                StringBuilder argument = new StringBuilder();
                int stop = copy(at, argument, true);
                if (stop != at) {
                    arguments.add(argument);
                }
                at = stop;
                if (at >= sql.length() || sql.charAt(at) != ',') {
                    break;
                }
                at++;
            }
            nesting--;
            EscapedFunctions.append(to, name, arguments);
            i = at + 1; // past the closing parenthesis
        }
        int close = sql.indexOf('}', Math.min(i, sql.length()));
        int end = close < 0 ? sql.length() : close;
        if (i < end) {
            to.append(sql, i, end); // whatever follows the call inside the braces, as pgjdbc keeps it
        }
        return end;
    }

    static SQLException syntaxError(String message) {
        return DriverErrors.of(message, SqlStates.SYNTAX_ERROR);
    }
}
