package org.raidb.controller.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.raidb.driver.sql.SqlLexer;
import org.raidb.driver.sql.SqlSyntax;
import org.raidb.driver.sql.TokenKind;

/**
 * A statement's text with its plain literals replaced by parameter markers: its shape. Applications
 * that do not prepare their statements (pgbench's default mode, psql scripts, ORMs that inline
 * values) send a new text for every value, and parsing each anew is the most expensive part of
 * analysing it. Texts of one shape are analysed once ({@link ShapeAnalyses}); each text's literals
 * then stand where the shape's parameters stood.
 *
 * <p>Only what cannot change what the analyser reads is masked: unsigned numbers, with a minus sign
 * where it can only be unary (right before the digits, after an operator or an opening parenthesis), and plain {@code '…'}
 * strings without backslashes (which the dialects read differently). A string directly after a type
 * name ({@code DATE '…'}, {@code INTERVAL '…'}) or as the first argument of a call ({@code
 * nextval('s')}, where it names a sequence) stays in the shape. Texts holding parameters of their own,
 * JDBC escapes or several statements are not masked: they are prepared statements, rare or analysed
 * part by part.
 *
 * @param shape the text with each masked literal replaced by {@code ?}
 * @param literals the masked literals as written, in the order of their markers
 */
record LiteralMask(String shape, List<String> literals) {
    /** The statements worth masking: the DML and queries that carry values. */
    private static final Set<String> MASKED_STATEMENTS = Set.of("SELECT", "INSERT", "UPDATE", "DELETE", "WITH");
    /** Words a string literal after which is a typed literal, not a value a marker may stand for. */
    private static final Set<String> TYPE_WORDS =
            Set.of("DATE", "TIME", "TIMESTAMP", "TIMESTAMPTZ", "INTERVAL", "JSON", "JSONB", "UUID", "INET");
    /** Words before an opening parenthesis that make it a list of values, not a call's arguments. */
    private static final Set<String> LIST_WORDS = Set.of("VALUES", "IN", "ANY", "ALL", "AND", "OR", "NOT", "WHERE");

    /**
     * The mask of {@code sql} as lexed by {@code syntax}, or null when the text is not masked: it holds
     * no literal to mask, or something listed above that keeps it whole.
     */
    static LiteralMask of(String sql, SqlSyntax syntax) {
        SqlLexer lexer = new SqlLexer(sql, syntax);
        StringBuilder shape = null;
        List<String> literals = new ArrayList<>();
        int copied = 0; // sql[0, copied) is in shape
        TokenKind previous = TokenKind.END;
        String previousWord = null; // the previous code token when it is a word
        String wordBeforeParenthesis = null; // the word before the previous token, when that is '('
        boolean previousOpensValue = true; // the previous code token is one after which '-' is unary
        int pendingMinus = -1; // where a unary minus is, when the previous code token is one
        boolean first = true;
        for (TokenKind k = lexer.nextCode(); k != TokenKind.END; k = lexer.nextCode()) {
            if (first) {
                if (k != TokenKind.WORD || !MASKED_STATEMENTS.contains(SqlAnalyzer.upper(lexer.text()))) {
                    return null;
                }
                first = false;
            }
            switch (k) {
                case PARAMETER, POSITIONAL_PARAMETER, ESCAPE_OPEN, ESCAPE_CLOSE -> {
                    return null;
                }
                default -> {}
            }
            if (lexer.isSymbol(';')) {
                return trailingOnly(lexer) ? finish(sql, shape, copied, literals) : null;
            }
            boolean masked = false;
            if (k == TokenKind.NUMBER && isPlainNumber(sql, lexer.start(), lexer.end())) {
                masked = true;
            } else if (k == TokenKind.STRING && isPlainString(sql, lexer.start(), lexer.end())) {
                boolean typed = previous == TokenKind.WORD && TYPE_WORDS.contains(SqlAnalyzer.upper(previousWord));
                boolean callArgument = previous == TokenKind.OPERATOR
                        && wordBeforeParenthesis != null
                        && !LIST_WORDS.contains(SqlAnalyzer.upper(wordBeforeParenthesis));
                masked = !typed && !callArgument;
            }
            if (masked) {
                boolean signed = k == TokenKind.NUMBER && pendingMinus >= 0 && pendingMinus + 1 == lexer.start();
                int from = signed ? pendingMinus : lexer.start();
                if (shape == null) {
                    shape = new StringBuilder(sql.length());
                }
                shape.append(sql, copied, from).append('?');
                literals.add(sql.substring(from, lexer.end()));
                copied = lexer.end();
            }
            pendingMinus = previousOpensValue && lexer.isSymbol('-') ? lexer.start() : -1;
            wordBeforeParenthesis = lexer.isSymbol('(') && previous == TokenKind.WORD ? previousWord : null;
            previousOpensValue = k == TokenKind.OPERATOR && !lexer.isSymbol(')') && !lexer.isSymbol('-');
            previousWord = k == TokenKind.WORD ? lexer.text() : null;
            previous = k;
        }
        return first ? null : finish(sql, shape, copied, literals);
    }

    private static LiteralMask finish(String sql, StringBuilder shape, int copied, List<String> literals) {
        if (shape == null) {
            return null; // nothing masked: the text is its own shape
        }
        return new LiteralMask(shape.append(sql, copied, sql.length()).toString(), List.copyOf(literals));
    }

    /** Whether nothing but whitespace and comments follows the semicolon the lexer is on. */
    private static boolean trailingOnly(SqlLexer lexer) {
        return lexer.nextCode() == TokenKind.END;
    }

    /** Digits, at most one point, an optional exponent: not MySQL's {@code 0x1F} or {@code 1abc}. */
    private static boolean isPlainNumber(String sql, int start, int end) {
        boolean point = false;
        boolean digits = false;
        for (int i = start; i < end; i++) {
            char c = sql.charAt(i);
            if (c >= '0' && c <= '9') {
                digits = true;
            } else if (c == '.' && !point) {
                point = true;
            } else if ((c == 'e' || c == 'E') && digits && i + 1 < end) {
                return isExponent(sql, i + 1, end);
            } else {
                return false;
            }
        }
        return digits;
    }

    private static boolean isExponent(String sql, int start, int end) {
        int i = start;
        if (sql.charAt(i) == '+' || sql.charAt(i) == '-') {
            i++;
        }
        if (i == end) {
            return false;
        }
        for (; i < end; i++) {
            if (sql.charAt(i) < '0' || sql.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** {@code '…'} closed, without prefix or backslash, on one line. */
    private static boolean isPlainString(String sql, int start, int end) {
        if (end - start < 2 || sql.charAt(start) != '\'' || sql.charAt(end - 1) != '\'') {
            return false;
        }
        for (int i = start + 1; i < end - 1; i++) {
            char c = sql.charAt(i);
            if (c == '\\' || c == '\n' || c == '\r') {
                return false;
            }
        }
        return true;
    }
}
