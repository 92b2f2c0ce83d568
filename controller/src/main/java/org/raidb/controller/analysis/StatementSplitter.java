package org.raidb.controller.analysis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.raidb.controller.determinism.SqlDialect;
import org.raidb.controller.determinism.SqlLexer;

/**
 * Splits a text into the statements a backend runs, as its driver and server split it: at each
 * semicolon in code (not in a literal, quoted identifier, comment or dollar-quoted body) outside
 * parentheses, as pgjdbc does. A {@code CREATE … BEGIN ATOMIC} (PostgreSQL) and a MariaDB {@code
 * CREATE …} with a {@code BEGIN … END} body, or a top-level {@code BEGIN NOT ATOMIC}, hold
 * semicolons of their own: such a statement runs to the end of the text, as pgjdbc sends it.
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

  private enum Token { NONE, WORD, OPEN, CLOSE, COMMA, OTHER }

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
    this.lexer = new SqlLexer(sql, dialect);
    this.mysql = dialect.lexesLikeMySql();
    this.length = sql.length();
  }

  /** The statements of {@code sql} that hold code, in order; empty for a text of only comments. */
  static List<TextPart> split(String sql, SqlDialect dialect) {
    return new StatementSplitter(sql, dialect).run();
  }

  private List<TextPart> run() {
    int i = 0;
    while (i < length) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == ';' && depth <= 0 && !toEnd) {
        endPart(i);
        partStart = i + 1;
        i++;
      } else {
        i = token(i, c);
      }
    }
    endPart(length);
    return parts;
  }

  /** Reads the token at {@code i}; returns the index after it. */
  private int token(int i, char c) {
    if (c != '$' && SqlLexer.isIdentifierPart(c)) {
      // A word, or a number: MariaDB names may start with a digit, and no number stands before "(".
      int end = lexer.endOfWord(i);
      int escapeString = lexer.endOfEscapeString(i, end);
      if (escapeString >= 0) {
        code(Token.OTHER, "");
        return escapeString;
      }
      word(i, end);
      return end;
    }
    if (c == '(' || c == ')') {
      depth += c == '(' ? 1 : -1;
      code(c == '(' ? Token.OPEN : Token.CLOSE, "");
      return i + 1;
    }
    int end = lexer.skipNonCode(i);
    if (end == i) {
      code(c == ',' ? Token.COMMA : Token.OTHER, "");
      return i + 1;
    }
    if (c == '"' || c == '`') {
      quotedName(i, end);
    } else if (c == '\'' || c == '$') {
      code(Token.OTHER, "");
    } // else a comment, which is no token (or the opening of a MariaDB executable comment, whose content is code)
    return end;
  }

  private void word(int start, int end) {
    String word = sql.substring(start, end);
    int next = lexer.skipSpaceAndComments(end);
    if (next < length && sql.charAt(next) == '(' && isCall(next)) {
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

  /** {@code "f"(…)} or {@code `f`(…)}: a call of a quoted name. */
  private void quotedName(int start, int end) {
    int next = lexer.skipSpaceAndComments(end);
    if (next < length && sql.charAt(next) == '(' && isCall(next) && end - start >= 2) {
      String quote = sql.substring(start, start + 1);
      calls.add(sql.substring(start + 1, end - 1).replace(quote + quote, quote).toLowerCase(Locale.ROOT));
    }
    code(Token.OTHER, "");
  }

  /**
   * Whether a name before the parenthesis at {@code open} is a call: not a column list after {@code
   * AS} ({@code AS t(a, b)}) or after a closing parenthesis ({@code f(1) t(a)}), nor a WITH query's
   * name ({@code WITH r(n) AS (…)}). No call can stand in those places in valid SQL.
   */
  private boolean isCall(int open) {
    if (previous == Token.CLOSE || previous == Token.WORD && previousWord.equals("AS")) {
      return false;
    }
    boolean withName = previous == Token.COMMA
        || previous == Token.WORD && (previousWord.equals("WITH") || previousWord.equals("RECURSIVE"));
    return !(withName && columnListBeforeQuery(open));
  }

  /** The parentheses at {@code open} close before {@code AS (}, {@code AS MATERIALIZED} or {@code AS NOT MATERIALIZED}. */
  private boolean columnListBeforeQuery(int open) {
    int limit = Math.min(length, open + COLUMN_LIST_LOOKAHEAD);
    int nesting = 0;
    int i = open;
    while (i < limit) {
      char c = sql.charAt(i);
      if (c == '(') {
        nesting++;
      } else if (c == ')' && --nesting == 0) {
        int as = lexer.skipSpaceAndComments(i + 1);
        if (!wordAt(as, "AS")) {
          return false;
        }
        int after = lexer.skipSpaceAndComments(as + 2);
        return after < length && (sql.charAt(after) == '(' || wordAt(after, "MATERIALIZED") || wordAt(after, "NOT"));
      }
      i = skip(i, c);
    }
    return false;
  }

  /** The index after the token at {@code i}, for the look-ahead: words whole, literals and comments skipped. */
  private int skip(int i, char c) {
    if (SqlLexer.isIdentifierPart(c) && c != '$') {
      int end = lexer.endOfWord(i);
      int escapeString = lexer.endOfEscapeString(i, end);
      return escapeString >= 0 ? escapeString : end;
    }
    int end = lexer.skipNonCode(i);
    return end > i ? end : i + 1;
  }

  private boolean wordAt(int i, String word) {
    int end = i + word.length();
    return end <= length && sql.regionMatches(true, i, word, 0, word.length())
        && (end == length || !SqlLexer.isIdentifierPart(sql.charAt(end)));
  }

  /**
   * Whether this word opens a body holding semicolons of its own: PostgreSQL's {@code CREATE …
   * BEGIN ATOMIC} (where pgjdbc stops splitting), MariaDB's {@code CREATE …} with a {@code BEGIN}
   * body, or its {@code BEGIN NOT ATOMIC} compound statement.
   */
  private boolean opensBody(String upper) {
    if (!mysql) {
      return firstWord.equals("CREATE") && upper.equals("ATOMIC") && previousWord.equals("BEGIN") && previous == Token.WORD;
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
