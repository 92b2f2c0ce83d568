package org.raidb.controller.pgwire;

import java.util.ArrayList;
import java.util.List;
import org.raidb.controller.session.SqlPreparedStatements;
import org.raidb.driver.sql.SqlLexer;
import org.raidb.driver.sql.SqlSyntax;
import org.raidb.driver.sql.TokenKind;

/**
 * PostgreSQL's SQL text as the request path takes it. The request path runs statements through the backends'
 * JDBC drivers, which number parameters by {@code ?}: a {@code $n} becomes a {@code ?} and the Bind's values
 * are put in the order of the markers ({@code $2 … $1 … $2} binds the second, first and second value); a
 * {@code ?} that was an operator ({@code jsonb ? 'key'}) becomes pgjdbc's escape {@code ??}. Strings, quoted
 * names, comments and dollar quotes are left alone ({@link SqlLexer}).
 *
 * @param sql the text with {@code ?} markers
 * @param markers for each marker in order, the 1-based number of the Bind value it takes
 * @param parameterCount the highest {@code $n}: how many values a Bind must carry
 */
@SuppressWarnings("ArrayRecordComponent") // never compared; read-only once built
record PgSqlText(String sql, int[] markers, int parameterCount) {

    static PgSqlText of(String pgSql) {
        if (SqlPreparedStatements.isPrepare(pgSql)) {
            // The $n of a PREPARE belong to the statement it prepares, bound by each EXECUTE: a Bind carries none.
            return new PgSqlText(pgSql, new int[0], 0);
        }
        SqlLexer lexer = new SqlLexer(pgSql, SqlSyntax.POSTGRESQL);
        StringBuilder sb = null;
        int copied = 0;
        List<Integer> markers = new ArrayList<>();
        int max = 0;
        for (TokenKind k = lexer.next(); k != TokenKind.END; k = lexer.next()) {
            String replacement;
            if (k == TokenKind.POSITIONAL_PARAMETER) {
                int n = number(lexer.text());
                markers.add(n);
                max = Math.max(max, n);
                replacement = "?";
            } else if (k == TokenKind.PARAMETER) {
                replacement = "??";
            } else {
                continue;
            }
            if (sb == null) {
                sb = new StringBuilder(pgSql.length() + 8);
            }
            sb.append(pgSql, copied, lexer.start()).append(replacement);
            copied = lexer.end();
        }
        String sql =
                sb == null ? pgSql : sb.append(pgSql, copied, pgSql.length()).toString();
        return new PgSqlText(sql, markers.stream().mapToInt(Integer::intValue).toArray(), max);
    }

    private static int number(String token) {
        try {
            return Integer.parseInt(token.substring(1));
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE; // $99999999999: no Bind carries that many, so it is refused there
        }
    }

    /**
     * The statements of a simple Query, split at each semicolon in code outside parentheses; parts with no code
     * (only whitespace or comments) are left out.
     */
    static List<String> split(String text) {
        SqlLexer lexer = new SqlLexer(text, SqlSyntax.POSTGRESQL);
        List<String> parts = new ArrayList<>();
        int start = 0;
        int depth = 0;
        boolean code = false;
        for (TokenKind k = lexer.next(); k != TokenKind.END; k = lexer.next()) {
            if (!k.isCode()) {
                continue;
            }
            if (lexer.isSymbol('(')) {
                depth++;
            } else if (lexer.isSymbol(')')) {
                depth = Math.max(0, depth - 1);
            } else if (lexer.isSymbol(';') && depth == 0) {
                if (code) {
                    parts.add(text.substring(start, lexer.start()).strip());
                }
                start = lexer.end();
                code = false;
                continue;
            }
            code = true;
        }
        if (code) {
            parts.add(text.substring(start).strip());
        }
        return parts;
    }
}
