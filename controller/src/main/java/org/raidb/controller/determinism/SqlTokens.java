package org.raidb.controller.determinism;

import java.util.Arrays;
import java.util.Locale;
import org.raidb.driver.sql.SqlLexer;
import org.raidb.driver.sql.SqlSyntax;
import org.raidb.driver.sql.TokenKind;

/**
 * The code tokens of one SQL text with their places and parenthesis depths, for rewriters that add
 * to a statement without re-spelling it (JSqlParser 5.0 keeps no offsets, and printing its tree
 * back would send the backends a text the client never wrote): a view of {@link SqlLexer}'s code
 * tokens, so a keyword inside a string is never taken for one, with a parenthesis depth each.
 */
public final class SqlTokens {
    /** What a token is. */
    public enum Kind {
        /** A keyword or an unquoted name. */
        WORD,
        /** {@code "name"} (PostgreSQL) or {@code `name`} (MariaDB). */
        QUOTED_NAME,
        /** A string with its prefix if any ({@code E'…'}, {@code TIMESTAMP'…'}, {@code _utf8mb4'…'}), or a dollar quote. */
        LITERAL,
        NUMBER,
        /** A JDBC parameter marker {@code ?}. */
        PARAMETER,
        /** Parentheses, commas, operators: one character, but for {@code ::}, {@code ??} and PostgreSQL's {@code $1}. */
        SYMBOL
    }

    private final String sql;
    private final SqlSyntax syntax;
    private int size;
    private int[] starts = new int[32];
    private int[] ends = new int[32];
    private int[] depths = new int[32];
    private Kind[] kinds = new Kind[32];

    private SqlTokens(String sql, SqlSyntax syntax) {
        this.sql = sql;
        this.syntax = syntax;
    }

    public static SqlTokens of(String sql, SqlDialect dialect) {
        SqlTokens t = new SqlTokens(sql, dialect.syntax());
        t.scan(new SqlLexer(sql, t.syntax));
        return t;
    }

    private void scan(SqlLexer lexer) {
        int depth = 0;
        for (TokenKind k = lexer.nextCode(); k != TokenKind.END; k = lexer.nextCode()) {
            int start = lexer.start();
            switch (k) {
                case WORD -> {
                    boolean prefix = lexer.end() < sql.length() && sql.charAt(lexer.end()) == '\'';
                    if (prefix) {
                        lexer.next(); // the string the word types: TIMESTAMP'…'
                    }
                    add(start, lexer.end(), prefix ? Kind.LITERAL : Kind.WORD, depth);
                }
                case QUOTED_IDENTIFIER -> add(start, lexer.end(), Kind.QUOTED_NAME, depth);
                case STRING -> add(start, lexer.end(), Kind.LITERAL, depth);
                case NUMBER -> add(start, lexer.end(), Kind.NUMBER, depth);
                case PARAMETER -> add(start, lexer.end(), Kind.PARAMETER, depth);
                default -> {
                    if (lexer.isSymbol('(')) {
                        add(start, lexer.end(), Kind.SYMBOL, depth++);
                    } else {
                        depth = lexer.isSymbol(')') ? Math.max(0, depth - 1) : depth;
                        add(start, lexer.end(), Kind.SYMBOL, depth);
                    }
                }
            }
        }
    }

    private void add(int start, int end, Kind kind, int depth) {
        if (size == starts.length) {
            starts = Arrays.copyOf(starts, size * 2);
            ends = Arrays.copyOf(ends, size * 2);
            depths = Arrays.copyOf(depths, size * 2);
            kinds = Arrays.copyOf(kinds, size * 2);
        }
        starts[size] = start;
        ends[size] = end;
        depths[size] = depth;
        kinds[size] = kind;
        size++;
    }

    public String sql() {
        return sql;
    }

    public int size() {
        return size;
    }

    public int start(int token) {
        return starts[token];
    }

    public int end(int token) {
        return ends[token];
    }

    /** Parentheses around the token: an opening parenthesis has the depth outside it, as its closing one. */
    public int depth(int token) {
        return depths[token];
    }

    public Kind kind(int token) {
        return kinds[token];
    }

    public String text(int token) {
        return sql.substring(starts[token], ends[token]);
    }

    /** Whether the token is the keyword or unquoted name {@code word}, in any case. */
    public boolean isWord(int token, String word) {
        return token >= 0
                && token < size
                && kinds[token] == Kind.WORD
                && ends[token] - starts[token] == word.length()
                && sql.regionMatches(true, starts[token], word, 0, word.length());
    }

    /** Whether the token is one of the words, in any case. */
    public boolean isAnyWord(int token, String... words) {
        for (String w : words) {
            if (isWord(token, w)) {
                return true;
            }
        }
        return false;
    }

    public boolean isSymbol(int token, char symbol) {
        return token >= 0
                && token < size
                && kinds[token] == Kind.SYMBOL
                && ends[token] - starts[token] == 1
                && sql.charAt(starts[token]) == symbol;
    }

    /** A name as the database folds it: quoted names as written, unquoted ones in lower case (upper-case for none). */
    public String name(int token) {
        if (kinds[token] == Kind.QUOTED_NAME) {
            SqlLexer lexer = new SqlLexer(sql, syntax);
            lexer.reset(starts[token]);
            lexer.next();
            return lexer.identifier();
        }
        return text(token).toLowerCase(Locale.ROOT);
    }

    /** The token's index of the parenthesis that closes the one opened at {@code open}; -1 when unbalanced. */
    public int closing(int open) {
        for (int i = open + 1; i < size; i++) {
            if (depths[i] == depths[open] && isSymbol(i, ')')) {
                return i;
            }
        }
        return -1;
    }
}
