package org.raidb.controller.analysis;

import java.util.Arrays;
import java.util.Locale;
import org.raidb.driver.sql.SqlLexer;
import org.raidb.driver.sql.SqlSyntax;
import org.raidb.driver.sql.TokenKind;

/**
 * What the analyser reads from a statement's code tokens ({@link SqlLexer}) rather than from its
 * parse: the leading keywords of the statements it recognises before parsing, a savepoint's name,
 * and the few facts JSqlParser's tree does not keep (row locks, sequence calls, a list of tables).
 * Words in literals, quoted names and comments never count.
 */
final class StatementWords {
    private StatementWords() {}

    /**
     * The first {@code count} words of the statement, upper-cased, opening parentheses before them
     * skipped; missing words, and those after any other token, are empty strings.
     */
    static String[] first(String sql, SqlSyntax syntax, int count) {
        String[] words = new String[count];
        Arrays.fill(words, "");
        SqlLexer lexer = new SqlLexer(sql, syntax);
        TokenKind k = lexer.nextCode();
        while (lexer.isSymbol('(')) {
            k = lexer.nextCode();
        }
        for (int w = 0; w < count && (k == TokenKind.WORD || k == TokenKind.NUMBER); w++) {
            words[w] = lexer.text().toUpperCase(Locale.ROOT);
            k = lexer.nextCode();
        }
        return words;
    }

    /** The name following the first {@code keyword} of the statement, as written (quotes taken off); null if none. */
    static String nameAfter(String sql, SqlSyntax syntax, String keyword) {
        SqlLexer lexer = new SqlLexer(sql, syntax);
        for (TokenKind k = lexer.nextCode(); k != TokenKind.END; k = lexer.nextCode()) {
            if (lexer.isWord(keyword)) {
                k = lexer.nextCode();
                if (k == TokenKind.QUOTED_IDENTIFIER) {
                    return lexer.identifier();
                }
                return k == TokenKind.WORD || k == TokenKind.NUMBER ? lexer.text() : null;
            }
        }
        return null;
    }

    /** {@code FOR UPDATE}, {@code FOR NO KEY UPDATE}, {@code FOR SHARE}, {@code FOR KEY SHARE}. */
    static boolean locksRows(String sql, SqlSyntax syntax) {
        SqlLexer lexer = new SqlLexer(sql, syntax);
        for (TokenKind k = lexer.nextCode(); k != TokenKind.END; k = lexer.nextCode()) {
            if (lexer.isWord("FOR")) {
                int after = lexer.end();
                if (followedBy(lexer, after, "UPDATE")
                        || followedBy(lexer, after, "SHARE")
                        || followedBy(lexer, after, "KEY", "SHARE")
                        || followedBy(lexer, after, "NO", "KEY", "UPDATE")) {
                    return true;
                }
                lexer.reset(after);
            }
        }
        return false;
    }

    /**
     * A call of {@code nextval} or {@code setval} (qualified or not, its name quoted or not), or
     * {@code NEXT VALUE FOR}: the statement draws from a sequence.
     */
    static boolean callsSequenceFunction(String sql, SqlSyntax syntax) {
        SqlLexer lexer = new SqlLexer(sql, syntax);
        for (TokenKind k = lexer.nextCode(); k != TokenKind.END; k = lexer.nextCode()) {
            int after = lexer.end();
            boolean sequenceFunction = lexer.isWord("nextval")
                    || lexer.isWord("setval")
                    || (k == TokenKind.QUOTED_IDENTIFIER && isSequenceFunction(lexer.identifier()));
            if ((sequenceFunction && followedByParenthesis(lexer))
                    || (lexer.isWord("NEXT") && followedBy(lexer, after, "VALUE", "FOR"))) {
                return true;
            }
            lexer.reset(after);
        }
        return false;
    }

    private static boolean isSequenceFunction(String name) {
        return name.equalsIgnoreCase("nextval") || name.equalsIgnoreCase("setval");
    }

    /** Whether a comma stands in code: TRUNCATE a, b names several tables. */
    static boolean namesSeveralTables(String sql, SqlSyntax syntax) {
        SqlLexer lexer = new SqlLexer(sql, syntax);
        for (TokenKind k = lexer.nextCode(); k != TokenKind.END; k = lexer.nextCode()) {
            if (lexer.isSymbol(',')) {
                return true;
            }
        }
        return false;
    }

    /** Whether the code tokens from {@code position} are {@code words}; the lexer is left somewhere after it. */
    private static boolean followedBy(SqlLexer lexer, int position, String... words) {
        lexer.reset(position);
        for (String word : words) {
            lexer.nextCode();
            if (!lexer.isWord(word)) {
                return false;
            }
        }
        return true;
    }

    private static boolean followedByParenthesis(SqlLexer lexer) {
        lexer.nextCode();
        return lexer.isSymbol('(');
    }
}
