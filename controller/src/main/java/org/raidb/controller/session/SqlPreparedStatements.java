package org.raidb.controller.session;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.driver.sql.SqlLexer;
import org.raidb.driver.sql.SqlSyntax;
import org.raidb.driver.sql.TokenKind;

/**
 * One session's SQL-level prepared statements: {@code PREPARE name [(types)] AS statement}, {@code EXECUTE
 * name[(arguments)]} and {@code DEALLOCATE [PREPARE] name|ALL}, kept by the controller. Sent to a backend, a
 * PREPARE would live on the one pooled connection that ran it, and the session's next EXECUTE would reach another
 * connection, or every backend's, where it does not exist. Here an EXECUTE becomes its statement with each {@code
 * $n} replaced by its argument (cast to the declared type when PREPARE gave one), and that text takes the request
 * path as any other: ordered, made deterministic, logged, balanced.
 *
 * <p>As on PostgreSQL, the statements outlive transactions (a rollback keeps them) and end with the session or a
 * DEALLOCATE. What differs: a PREPARE's statement is checked when it is executed, not when it is prepared.
 */
public final class SqlPreparedStatements {
    /** What PostgreSQL lets PREPARE take. */
    private static final Set<String> PREPARABLE =
            Set.of("SELECT", "INSERT", "UPDATE", "DELETE", "MERGE", "VALUES", "WITH", "TABLE");

    private final Map<String, Prepared> statements = new HashMap<>();

    private record Prepared(List<String> types, String body, int parameters) {}

    /** Whether the text is a PREPARE of a statement (not a PREPARE TRANSACTION): {@link #prepare} takes it. */
    public static boolean isPrepare(String sql) {
        if (!startsWithWord(sql, "PREPARE")) {
            return false;
        }
        SqlLexer lexer = new SqlLexer(sql, SqlSyntax.POSTGRESQL);
        lexer.nextCode();
        TokenKind name = lexer.nextCode();
        if (name != TokenKind.WORD && name != TokenKind.QUOTED_IDENTIFIER) {
            return false;
        }
        lexer.nextCode();
        return lexer.isWord("AS") || lexer.isSymbol('(');
    }

    /** Whether the text is an EXECUTE of a prepared statement: {@link #expand} rewrites it. */
    public static boolean isExecute(String sql) {
        return startsWithWord(sql, "EXECUTE");
    }

    /** Whether the text is a DEALLOCATE: {@link #deallocate} takes it. */
    public static boolean isDeallocate(String sql) {
        return startsWithWord(sql, "DEALLOCATE");
    }

    /** Keeps {@code PREPARE name [(types)] AS statement}; 42P05 when the session has that name already. */
    public void prepare(String sql) throws SQLException {
        SqlLexer lexer = new SqlLexer(sql, SqlSyntax.POSTGRESQL);
        lexer.nextCode(); // PREPARE
        lexer.nextCode();
        String name = name(lexer);
        List<String> types = List.of();
        lexer.nextCode();
        if (lexer.isSymbol('(')) {
            types = list(lexer, sql, "PREPARE " + name);
            lexer.nextCode();
        }
        if (!lexer.isWord("AS")) {
            throw new SQLException(
                    "syntax error in PREPARE " + name + ": AS and the statement must follow the name (and types)",
                    SqlStates.SYNTAX_ERROR);
        }
        String body = trimmed(sql.substring(lexer.end()));
        String first = firstWord(body);
        if (!PREPARABLE.contains(first)) {
            throw new SQLException(
                    "PREPARE " + name + " takes a SELECT, INSERT, UPDATE, DELETE, MERGE or VALUES, not " + first,
                    SqlStates.SYNTAX_ERROR);
        }
        if (statements.containsKey(name)) {
            throw new SQLException(
                    "prepared statement \"" + name + "\" already exists: DEALLOCATE it first",
                    SqlStates.DUPLICATE_PREPARED_STATEMENT);
        }
        statements.put(name, new Prepared(types, body, Math.max(types.size(), highestParameter(body))));
    }

    /**
     * The statement an {@code EXECUTE name[(arguments)]} runs, its {@code $n} replaced by the arguments; 26000 for
     * a name the session has not prepared, 42601 for a wrong number of arguments.
     *
     * @param withMarkers whether the request carries bound values for {@code ?} markers of its own
     */
    public String expand(String sql, boolean withMarkers) throws SQLException {
        SqlLexer lexer = new SqlLexer(sql, SqlSyntax.POSTGRESQL);
        lexer.nextCode(); // EXECUTE
        lexer.nextCode();
        String name = name(lexer);
        Prepared p = statements.get(name);
        if (p == null) {
            throw new SQLException(
                    "prepared statement \"" + name + "\" does not exist: PREPARE it first in this session",
                    SqlStates.INVALID_SQL_STATEMENT_NAME);
        }
        List<String> arguments = List.of();
        if (lexer.nextCode() != TokenKind.END && lexer.isSymbol('(')) {
            arguments = list(lexer, sql, "EXECUTE " + name);
        }
        if (arguments.size() != p.parameters()) {
            throw new SQLException(
                    "wrong number of parameters for prepared statement \"" + name + "\": expected " + p.parameters()
                            + ", got " + arguments.size(),
                    SqlStates.SYNTAX_ERROR);
        }
        if (withMarkers) {
            throw new SQLException(
                    "EXECUTE " + name + " with bound values (? or $n) in its arguments is not supported: bind them"
                            + " to the statement itself through the driver's prepared statements",
                    SqlStates.FEATURE_NOT_SUPPORTED);
        }
        return substituted(p, arguments);
    }

    /**
     * Ends {@code DEALLOCATE [PREPARE] name} or, for ALL, every statement here. Returns whether it named one
     * kept here (or was ALL): a name this session did not PREPARE may be a protocol-level statement of the
     * caller's.
     */
    public boolean deallocate(String sql) {
        SqlLexer lexer = new SqlLexer(sql, SqlSyntax.POSTGRESQL);
        lexer.nextCode(); // DEALLOCATE
        TokenKind k = lexer.nextCode();
        if (k == TokenKind.WORD && lexer.isWord("PREPARE")) {
            lexer.nextCode();
        }
        if (lexer.kind() == TokenKind.WORD && lexer.isWord("ALL")) {
            statements.clear();
            return true;
        }
        return statements.remove(name(lexer)) != null;
    }

    /** The name of a statement a DEALLOCATE the session does not know ends, for the error it gets. */
    public static String deallocatedName(String sql) {
        SqlLexer lexer = new SqlLexer(sql, SqlSyntax.POSTGRESQL);
        lexer.nextCode();
        if (lexer.nextCode() == TokenKind.WORD && lexer.isWord("PREPARE")) {
            lexer.nextCode();
        }
        return name(lexer);
    }

    /**
     * The statement an {@code EXECUTE} runs, as prepared (its tag is that statement's); the text itself when its
     * name is not prepared here.
     */
    public String statementOf(String executeSql) {
        SqlLexer lexer = new SqlLexer(executeSql, SqlSyntax.POSTGRESQL);
        lexer.nextCode();
        lexer.nextCode();
        Prepared p = statements.get(name(lexer));
        return p == null ? executeSql : p.body();
    }

    /** Ends every statement (DISCARD ALL, the session's end). */
    public void clear() {
        statements.clear();
    }

    private static String substituted(Prepared p, List<String> arguments) {
        SqlLexer lexer = new SqlLexer(p.body(), SqlSyntax.POSTGRESQL);
        StringBuilder out = new StringBuilder(p.body().length() + 16 * arguments.size());
        int copied = 0;
        for (TokenKind k = lexer.next(); k != TokenKind.END; k = lexer.next()) {
            if (k != TokenKind.POSITIONAL_PARAMETER) {
                continue;
            }
            int n = Integer.parseInt(lexer.text().substring(1));
            out.append(p.body(), copied, lexer.start());
            String argument = "(" + arguments.get(n - 1) + ")";
            out.append(
                    n <= p.types().size()
                            ? "CAST(" + argument + " AS " + p.types().get(n - 1) + ")"
                            : argument);
            copied = lexer.end();
        }
        return out.append(p.body(), copied, p.body().length()).toString();
    }

    private static int highestParameter(String body) {
        SqlLexer lexer = new SqlLexer(body, SqlSyntax.POSTGRESQL);
        int highest = 0;
        for (TokenKind k = lexer.next(); k != TokenKind.END; k = lexer.next()) {
            if (k == TokenKind.POSITIONAL_PARAMETER) {
                highest = Math.max(highest, Integer.parseInt(lexer.text().substring(1)));
            }
        }
        return highest;
    }

    /**
     * The comma-separated items of the parenthesised list the lexer stands at the opening of, as written; the
     * lexer ends on its closing parenthesis.
     */
    private static List<String> list(SqlLexer lexer, String sql, String what) throws SQLException {
        List<String> items = new ArrayList<>();
        int depth = 0;
        int from = lexer.end();
        for (TokenKind k = lexer.nextCode(); k != TokenKind.END; k = lexer.nextCode()) {
            if (lexer.isSymbol('(') || lexer.isSymbol('[')) {
                depth++;
            } else if ((lexer.isSymbol(')') || lexer.isSymbol(']')) && depth > 0) {
                depth--;
            } else if (depth == 0 && (lexer.isSymbol(',') || lexer.isSymbol(')'))) {
                String item = sql.substring(from, lexer.start()).strip();
                if (item.isEmpty()) {
                    throw new SQLException(
                            "syntax error in " + what + ": an empty item in its list", SqlStates.SYNTAX_ERROR);
                }
                items.add(item);
                from = lexer.end();
                if (lexer.isSymbol(')')) {
                    return items;
                }
            }
        }
        throw new SQLException(
                "syntax error in " + what + ": its list has no closing parenthesis", SqlStates.SYNTAX_ERROR);
    }

    /** The name the lexer stands at, as PostgreSQL keeps it: folded to lower case unless quoted. */
    private static String name(SqlLexer lexer) {
        return lexer.kind() == TokenKind.QUOTED_IDENTIFIER
                ? lexer.identifier()
                : lexer.text().toLowerCase(Locale.ROOT);
    }

    private static String firstWord(String sql) {
        SqlLexer lexer = new SqlLexer(sql, SqlSyntax.POSTGRESQL);
        return lexer.nextCode() == TokenKind.WORD ? lexer.text().toUpperCase(Locale.ROOT) : "";
    }

    private static String trimmed(String body) {
        String s = body.strip();
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).strip();
        }
        return s;
    }

    /** A cheap look at the first word, skipping whitespace (a text starting with a comment is lexed). */
    private static boolean startsWithWord(String sql, String word) {
        int i = 0;
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        if (sql.startsWith("/*", i) || sql.startsWith("--", i)) {
            return firstWord(sql).equals(word);
        }
        int end = i + word.length();
        return sql.regionMatches(true, i, word, 0, word.length())
                && (end == sql.length() || (!Character.isLetterOrDigit(sql.charAt(end)) && sql.charAt(end) != '_'));
    }
}
