package org.raidb.controller.determinism;

import org.raidb.driver.sql.SqlLexer;
import org.raidb.driver.sql.TokenKind;

/**
 * Walks the code tokens of a SQL text ({@link SqlLexer}) once, left to right, stopping at each
 * non-deterministic call (not in a literal, quoted identifier or comment). A cursor rather than a
 * list of matches so that the common case, a statement without such calls, allocates nothing but
 * the scanner itself.
 *
 * <p>A name is a call only as a whole identifier, not qualified ({@code t.now} is a column; {@code
 * pg_catalog.now()} is the built-in and is matched with its qualifier), not a label after {@code
 * AS}, and with the argument list its rule allows.
 */
final class CallScanner {
    /** No precision argument was written: the dialect's default applies. */
    static final int NO_PRECISION = -1;
    /** Neither dialect keeps more than microseconds; larger precisions are clamped, as PostgreSQL does. */
    private static final int MAX_PRECISION = 6;

    private final String sql;
    private final SqlLexer lexer;
    private final DialectCalls calls;
    private final boolean mysql;

    private int matchStart;
    private int matchEnd;
    private int precision;
    private CallRule rule;

    /** The last two code tokens before the position, for "t.now", "pg_catalog.now()" and "AS current_date". */
    private int lastStart = -1;

    private int lastEnd = -1;
    private int earlierStart = -1;
    private int earlierEnd = -1;

    CallScanner(String sql, SqlDialect dialect) {
        this.sql = sql;
        this.lexer = new SqlLexer(sql, dialect.syntax());
        this.calls = DialectCalls.of(dialect);
        this.mysql = dialect == SqlDialect.MARIADB;
    }

    /** Advances to the next call; false when there is none left. */
    boolean next() {
        // Comments are no tokens: "t. /* x */ now" is still qualified.
        for (TokenKind k = lexer.nextCode(); k != TokenKind.END; k = lexer.nextCode()) {
            int start = lexer.start();
            int end = lexer.end();
            if (k == TokenKind.WORD && matches(start, end)) {
                pushToken(matchStart, matchEnd);
                lexer.reset(matchEnd);
                return true;
            }
            pushToken(start, end);
        }
        return false;
    }

    int matchStart() {
        return matchStart;
    }

    int matchEnd() {
        return matchEnd;
    }

    CallRule rule() {
        return rule;
    }

    /** The precision written in the call, or {@link #NO_PRECISION}. */
    int precision() {
        return precision;
    }

    /** Whether the word at {@code [start, end)} is a call; the lexer is left after the word when it is not. */
    private boolean matches(int start, int end) {
        CallRule candidate = calls.lookup(sql, start, end);
        if (candidate == null) {
            return false;
        }
        int callStart = start;
        if (lastTokenIs('.')) {
            if (mysql || !tokenIsWord(earlierStart, earlierEnd, "pg_catalog")) {
                return false; // t.now is a column, my_schema.now() a user's function
            }
            callStart = earlierStart;
        }
        if (candidate.adjacentParenthesis()) {
            lexer.next();
        } else {
            lexer.nextCode();
        }
        boolean found =
                lexer.isSymbol('(') ? matchesArguments(candidate, callStart) : matchesBare(candidate, callStart, end);
        if (!found) {
            lexer.reset(end);
        }
        return found;
    }

    private boolean matchesBare(CallRule candidate, int callStart, int end) {
        if (!candidate.syntax().bare || tokenIsWord(lastStart, lastEnd, "as")) {
            return false; // SELECT 1 AS current_date: a column label
        }
        return found(candidate, callStart, end, NO_PRECISION);
    }

    /** {@code ()} or {@code (digits)} after the opening parenthesis under the lexer, comments allowed inside. */
    private boolean matchesArguments(CallRule candidate, int callStart) {
        int digits = 0;
        int value = 0;
        if (lexer.nextCode() == TokenKind.NUMBER) {
            for (int i = lexer.start(); i < lexer.end(); i++) {
                char c = sql.charAt(i);
                if (c < '0' || c > '9') {
                    return false;
                }
                value = Math.min(MAX_PRECISION, value * 10 + (c - '0'));
                digits++;
            }
            lexer.nextCode();
        }
        if (!lexer.isSymbol(')')) {
            return false;
        }
        if (digits == 0 ? !candidate.syntax().emptyParentheses : !candidate.syntax().precision) {
            return false;
        }
        return found(candidate, callStart, lexer.end(), digits == 0 ? NO_PRECISION : value);
    }

    private boolean found(CallRule candidate, int start, int end, int writtenPrecision) {
        rule = candidate;
        matchStart = start;
        matchEnd = end;
        precision = writtenPrecision;
        return true;
    }

    private void pushToken(int start, int end) {
        earlierStart = lastStart;
        earlierEnd = lastEnd;
        lastStart = start;
        lastEnd = end;
    }

    private boolean lastTokenIs(char c) {
        return lastEnd == lastStart + 1 && sql.charAt(lastStart) == c;
    }

    private boolean tokenIsWord(int start, int end, String word) {
        return end - start == word.length() && sql.regionMatches(true, start, word, 0, word.length());
    }
}
