package org.raidb.controller.analysis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.raidb.controller.determinism.SqlDialect;
import org.raidb.driver.sql.SqlLexer;
import org.raidb.driver.sql.TokenKind;

/**
 * Splits a text into the statements a backend runs, as its driver and server split it: at each
 * semicolon in code ({@link SqlLexer}'s tokens: not in a literal, quoted identifier, comment or
 * dollar-quoted body) outside parentheses, as pgjdbc does. A {@code CREATE … BEGIN ATOMIC}
 * (PostgreSQL) and a MariaDB {@code CREATE …} with a {@code BEGIN … END} body, or a top-level
 * {@code BEGIN NOT ATOMIC}, hold semicolons of their own: such a statement runs to the end of the
 * text, as pgjdbc sends it.
 *
 * <p>In the same pass it notes, per statement, the names written as calls: a name (or quoted name)
 * followed by an opening parenthesis, except where that is a column list (after {@code AS}, after a
 * closing parenthesis, a {@code WITH} name before {@code AS (}). The list errs on the side of names
 * that are not calls: a function that may write must never be missed.
 *
 * <p>Linear in the text, but for the bounded look-ahead past a {@code WITH} name.
 */
final class StatementSplitter {
    /** How far past a WITH name the look-ahead for its {@code AS (} goes; beyond, the name counts as a call. */
    private static final int COLUMN_LIST_LOOKAHEAD = 10_000;

    private enum Token {
        NONE,
        WORD,
        OPEN,
        CLOSE,
        COMMA,
        OTHER
    }

    private final String sql;
    private final SqlLexer lexer;
    private final boolean mysql;
    private final int length;
    private final List<TextPart> parts = new ArrayList<>();

    // The statement being read.
    private int partStart;
    private int depth;
    private boolean hasCode;
    private boolean toEnd;
    private Set<String> calls = new LinkedHashSet<>();
    private int words;
    private String firstWord = "";
    private String secondWord = "";

    // The previous code token, for the column-list rules and BEGIN ATOMIC.
    private Token previous = Token.NONE;
    private String previousWord = "";

    private StatementSplitter(String sql, SqlDialect dialect) {
        this.sql = sql;
        this.lexer = new SqlLexer(sql, dialect.syntax());
        this.mysql = dialect == SqlDialect.MARIADB;
        this.length = sql.length();
    }

    /** The statements of {@code sql} that hold code, in order; empty for a text of only comments. */
    static List<TextPart> split(String sql, SqlDialect dialect) {
        return new StatementSplitter(sql, dialect).run();
    }

    private List<TextPart> run() {
        for (TokenKind k = lexer.nextCode(); k != TokenKind.END; k = lexer.nextCode()) {
            if (lexer.isSymbol(';') && depth <= 0 && !toEnd) {
                endPart(lexer.start());
                partStart = lexer.end();
            } else {
                token(k);
            }
        }
        endPart(length);
        return parts;
    }

    /** Reads the code token under the lexer, which it may move past but leaves at the token's end. */
    private void token(TokenKind k) {
        int start = lexer.start();
        int end = lexer.end();
        if (k == TokenKind.WORD || k == TokenKind.NUMBER) {
            // A number is read as a word: MariaDB names may start with a digit, and no number stands before "(".
            word(start, end);
        } else if (k == TokenKind.QUOTED_IDENTIFIER || (k == TokenKind.STRING && sql.charAt(start) == '"')) {
            quotedName(end); // a MariaDB "…" too: a name under ANSI_QUOTES
        } else if (lexer.isSymbol('(') || lexer.isSymbol(')')) {
            boolean open = lexer.isSymbol('(');
            depth += open ? 1 : -1;
            code(open ? Token.OPEN : Token.CLOSE, "");
        } else {
            code(lexer.isSymbol(',') ? Token.COMMA : Token.OTHER, "");
        }
    }

    private void word(int start, int end) {
        String word = sql.substring(start, end);
        if (followedByCall(end)) {
            calls.add(word.toLowerCase(Locale.ROOT));
        }
        String upper = word.toUpperCase(Locale.ROOT);
        if (words == 0) {
            firstWord = upper;
        } else if (words == 1) {
            secondWord = upper;
        }
        words++;
        if (opensBody(upper)) {
            toEnd = true;
        }
        code(Token.WORD, upper);
    }

    /** Whether the code token after {@code end} is a parenthesis opening a call; the lexer goes back to {@code end}. */
    private boolean followedByCall(int end) {
        lexer.nextCode();
        boolean call = lexer.isSymbol('(') && isCall(lexer.start());
        lexer.reset(end);
        return call;
    }

    /** {@code "f"(…)} or {@code `f`(…)}: a call of a quoted name. */
    private void quotedName(int end) {
        String name = lexer.identifier();
        if (end - lexer.start() >= 2 && followedByCall(end)) {
            calls.add(name.toLowerCase(Locale.ROOT));
        }
        code(Token.OTHER, "");
    }

    /**
     * Whether a name before the parenthesis at {@code open} is a call: not a column list after {@code
     * AS} ({@code AS t(a, b)}) or after a closing parenthesis ({@code f(1) t(a)}), nor a WITH query's
     * name ({@code WITH r(n) AS (…)}). No call can stand in those places in valid SQL.
     */
    private boolean isCall(int open) {
        if (previous == Token.CLOSE || (previous == Token.WORD && previousWord.equals("AS"))) {
            return false;
        }
        boolean withName = previous == Token.COMMA
                || (previous == Token.WORD && (previousWord.equals("WITH") || previousWord.equals("RECURSIVE")));
        return !(withName && columnListBeforeQuery(open));
    }

    /** The parentheses at {@code open} close before {@code AS (}, {@code AS MATERIALIZED} or {@code AS NOT MATERIALIZED}. */
    private boolean columnListBeforeQuery(int open) {
        int limit = Math.min(length, open + COLUMN_LIST_LOOKAHEAD);
        int nesting = 0;
        lexer.reset(open, limit);
        for (TokenKind k = lexer.nextCode(); k != TokenKind.END; k = lexer.nextCode()) {
            if (lexer.isSymbol('(')) {
                nesting++;
            } else if (lexer.isSymbol(')') && --nesting == 0) {
                lexer.nextCode();
                if (!lexer.isWord("AS")) {
                    return false;
                }
                lexer.nextCode();
                return lexer.isSymbol('(') || lexer.isWord("MATERIALIZED") || lexer.isWord("NOT");
            }
        }
        return false;
    }

    /**
     * Whether this word opens a body holding semicolons of its own: PostgreSQL's {@code CREATE …
     * BEGIN ATOMIC} (where pgjdbc stops splitting), MariaDB's {@code CREATE …} with a {@code BEGIN}
     * body, or its {@code BEGIN NOT ATOMIC} compound statement.
     */
    private boolean opensBody(String upper) {
        if (!mysql) {
            return firstWord.equals("CREATE")
                    && upper.equals("ATOMIC")
                    && previousWord.equals("BEGIN")
                    && previous == Token.WORD;
        }
        if (firstWord.equals("CREATE") && words > 1 && upper.equals("BEGIN")) {
            return true;
        }
        return words == 3 && firstWord.equals("BEGIN") && secondWord.equals("NOT") && upper.equals("ATOMIC");
    }

    private void code(Token token, String word) {
        hasCode = true;
        previous = token;
        previousWord = word;
    }

    private void endPart(int end) {
        if (hasCode) {
            parts.add(new TextPart(partStart, end, toEnd, Set.copyOf(calls)));
        }
        depth = 0;
        hasCode = false;
        toEnd = false;
        calls = new LinkedHashSet<>();
        words = 0;
        firstWord = "";
        secondWord = "";
        previous = Token.NONE;
        previousWord = "";
    }
}
