package org.raidb.controller.determinism;

/**
 * Walks SQL text once, left to right, stopping at each non-deterministic call written in code
 * (not in a literal, quoted identifier or comment). A cursor rather than a list of matches so that
 * the common case, a statement without such calls, allocates nothing but the scanner itself.
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
  private int position;

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
    this.lexer = new SqlLexer(sql, dialect);
    this.calls = DialectCalls.of(dialect);
    this.mysql = dialect.lexesLikeMySql();
  }

  /** Advances to the next call; false when there is none left. */
  boolean next() {
    int n = lexer.length();
    int i = position;
    while (i < n) {
      char c = sql.charAt(i);
      int tokenEnd;
      if (SqlLexer.isIdentifierStart(c)) {
        int end = lexer.endOfWord(i);
        int escapeString = lexer.endOfEscapeString(i, end);
        if (escapeString >= 0) {
          tokenEnd = escapeString;
        } else if (matches(i, end)) {
          pushToken(matchStart, matchEnd);
          position = matchEnd;
          return true;
        } else {
          tokenEnd = end;
        }
      } else if (c != '$' && SqlLexer.isIdentifierPart(c)) {
        tokenEnd = lexer.endOfWord(i); // a number, or a MySQL name starting with a digit: never a call
      } else if (Character.isWhitespace(c)) {
        i++;
        continue;
      } else {
        int end = lexer.skipNonCode(i);
        if (end > i && !opensLiteral(c)) {
          i = end; // a comment is not a token: "t. /* x */ now" is still qualified
          continue;
        }
        tokenEnd = end > i ? end : i + 1;
      }
      pushToken(i, tokenEnd);
      i = tokenEnd;
    }
    position = n;
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
    int afterName = candidate.adjacentParenthesis() ? end : lexer.skipSpaceAndComments(end);
    if (afterName < lexer.length() && sql.charAt(afterName) == '(') {
      return matchesArguments(candidate, callStart, afterName);
    }
    if (!candidate.syntax().bare || tokenIsWord(lastStart, lastEnd, "as")) {
      return false; // SELECT 1 AS current_date: a column label
    }
    return found(candidate, callStart, end, NO_PRECISION);
  }

  /** {@code ()} or {@code (digits)}, spaces and comments allowed inside. */
  private boolean matchesArguments(CallRule candidate, int callStart, int open) {
    int i = lexer.skipSpaceAndComments(open + 1);
    int n = lexer.length();
    int digits = 0;
    int value = 0;
    while (i < n && sql.charAt(i) >= '0' && sql.charAt(i) <= '9') {
      value = Math.min(MAX_PRECISION, value * 10 + (sql.charAt(i) - '0'));
      digits++;
      i++;
    }
    i = lexer.skipSpaceAndComments(i);
    if (i >= n || sql.charAt(i) != ')') {
      return false;
    }
    if (digits == 0 ? !candidate.syntax().emptyParentheses : !candidate.syntax().precision) {
      return false;
    }
    return found(candidate, callStart, i + 1, digits == 0 ? NO_PRECISION : value);
  }

  private boolean found(CallRule candidate, int start, int end, int writtenPrecision) {
    rule = candidate;
    matchStart = start;
    matchEnd = end;
    precision = writtenPrecision;
    return true;
  }

  private static boolean opensLiteral(char c) {
    return c == '\'' || c == '"' || c == '`' || c == '$';
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
