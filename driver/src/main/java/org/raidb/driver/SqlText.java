package org.raidb.driver;

import java.util.ArrayList;
import java.util.List;
import org.raidb.driver.sql.SqlLexer;
import org.raidb.driver.sql.SqlSyntax;
import org.raidb.driver.sql.TokenKind;

/**
 * The driver's reading of SQL text through {@link SqlLexer} (PostgreSQL rules): the {@code ?}
 * placeholders and top-level commas in code. As in pgjdbc, {@code ??} stands for a literal {@code
 * ?} operator and is not a placeholder; it is sent unchanged for the backend's driver to unescape.
 */
final class SqlText {
    private SqlText() {}

    static int countParameters(String sql) {
        int count = 0;
        SqlLexer lexer = new SqlLexer(sql, SqlSyntax.POSTGRESQL);
        for (TokenKind k = lexer.next(); k != TokenKind.END; k = lexer.next()) {
            if (k == TokenKind.PARAMETER) {
                count++;
            }
        }
        return count;
    }

    /**
     * The text as pgjdbc's {@code nativeSQL} gives it, which is what a PostgreSQL server receives: in
     * each statement the placeholders become {@code $1, $2...} and {@code ??} becomes {@code ?};
     * statements are split at top-level semicolons and joined again with {@code ;}, blank ones dropped.
     */
    static String numberPlaceholders(String sql) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder(sql.length() + 8);
        int placeholders = 0;
        int depth = 0;
        boolean blank = true;
        SqlLexer lexer = new SqlLexer(sql, SqlSyntax.POSTGRESQL);
        for (TokenKind k = lexer.next(); k != TokenKind.END; k = lexer.next()) {
            if (k == TokenKind.PARAMETER) {
                current.append('$').append(++placeholders);
            } else if (k == TokenKind.OPERATOR
                    && lexer.end() - lexer.start() == 2
                    && sql.charAt(lexer.start()) == '?') {
                current.append('?');
            } else if (lexer.isSymbol(';') && depth == 0) {
                if (!blank) {
                    statements.add(current.toString());
                }
                current.setLength(0);
                placeholders = 0;
                blank = true;
                continue;
            } else {
                depth += lexer.isSymbol('(') ? 1 : lexer.isSymbol(')') ? -1 : 0;
                current.append(sql, lexer.start(), lexer.end());
            }
            blank &= k == TokenKind.WHITESPACE;
        }
        if (current.length() > 0 && (statements.isEmpty() || !blank)) {
            statements.add(current.toString());
        }
        return String.join(";", statements);
    }

    /** Splits on commas in code outside parentheses and brackets; each part keeps its whitespace. */
    static List<String> splitTopLevel(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        SqlLexer lexer = new SqlLexer(text, SqlSyntax.POSTGRESQL);
        for (TokenKind k = lexer.next(); k != TokenKind.END; k = lexer.next()) {
            if (lexer.isSymbol('(') || lexer.isSymbol('[')) {
                depth++;
            } else if (lexer.isSymbol(')') || lexer.isSymbol(']')) {
                depth--;
            } else if (lexer.isSymbol(',') && depth == 0) {
                parts.add(text.substring(start, lexer.start()));
                start = lexer.end();
            }
        }
        parts.add(text.substring(start));
        return parts;
    }
}
