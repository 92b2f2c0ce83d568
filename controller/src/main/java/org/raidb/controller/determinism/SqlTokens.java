package org.raidb.controller.determinism;

import java.util.Arrays;
import java.util.Locale;

/**
 * The code tokens of one SQL text with their places and parenthesis depths, for rewriters that add
 * to a statement without re-spelling it (JSqlParser 5.0 keeps no offsets, and printing its tree
 * back would send the backends a text the client never wrote). Literals, quoted identifiers and
 * comments are read the way {@link SqlLexer} reads them for the call scanner, so a keyword inside
 * a string is never taken for one.
 */
public final class SqlTokens {
  /** What a token is. */
  public enum Kind {
    /** A keyword or an unquoted name. */
    WORD,
    /** {@code "name"} (PostgreSQL) or {@code `name`} (MariaDB). */
    QUOTED_NAME,
    /** A string, including prefixed ones ({@code E'…'}, {@code _utf8mb4'…'}) and dollar quotes. */
    LITERAL,
    NUMBER,
    /** A JDBC parameter marker {@code ?}. */
    PARAMETER,
    /** Any other single character: parentheses, commas, operators. */
    SYMBOL
  }

  private final String sql;
  private int size;
  private int[] starts = new int[32];
  private int[] ends = new int[32];
  private int[] depths = new int[32];
  private Kind[] kinds = new Kind[32];

  private SqlTokens(String sql) {
    this.sql = sql;
  }

  public static SqlTokens of(String sql, SqlDialect dialect) {
    SqlTokens t = new SqlTokens(sql);
    t.scan(new SqlLexer(sql, dialect), dialect.lexesLikeMySql());
    return t;
  }

  private void scan(SqlLexer lexer, boolean mysql) {
    int n = sql.length();
    int depth = 0;
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (SqlLexer.isIdentifierStart(c)) {
        int end = lexer.endOfWord(i);
        if (end < n && sql.charAt(end) == '\'') {
          // E'…', B'…', N'…', _utf8mb4'…', TIMESTAMP'…': one literal; PostgreSQL's E strings escape with backslashes.
          boolean escapes = !mysql && end == i + 1 && (c == 'e' || c == 'E');
          int close = escapes ? lexer.endOfEscapeString(i, end) : lexer.skipNonCode(end);
          add(i, close, Kind.LITERAL, depth);
          i = close;
        } else {
          add(i, end, Kind.WORD, depth);
          i = end;
        }
      } else if (c >= '0' && c <= '9') {
        int end = endOfNumber(i);
        add(i, end, Kind.NUMBER, depth);
        i = end;
      } else if (c == '?') {
        boolean escaped = i + 1 < n && sql.charAt(i + 1) == '?'; // pgjdbc's ?? is the operator, not a marker
        add(i, escaped ? i + 2 : i + 1, escaped ? Kind.SYMBOL : Kind.PARAMETER, depth);
        i += escaped ? 2 : 1;
      } else if (c == '(') {
        add(i, i + 1, Kind.SYMBOL, depth++);
        i++;
      } else if (c == ')') {
        depth = Math.max(0, depth - 1);
        add(i, i + 1, Kind.SYMBOL, depth);
        i++;
      } else {
        int end = lexer.skipNonCode(i);
        if (end == i) {
          add(i, i + 1, Kind.SYMBOL, depth);
          i++;
        } else if (c == '\'' || c == '$' || c == '"' && mysql) {
          add(i, end, Kind.LITERAL, depth);
          i = end;
        } else if (c == '"' || c == '`') {
          add(i, end, Kind.QUOTED_NAME, depth);
          i = end;
        } else {
          i = end; // a comment; an executable MariaDB comment's marker
        }
      }
    }
  }

  private int endOfNumber(int i) {
    int n = sql.length();
    while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '.' || sql.charAt(i) == '_'
        || (sql.charAt(i) == '+' || sql.charAt(i) == '-') && (sql.charAt(i - 1) == 'e' || sql.charAt(i - 1) == 'E'))) {
      i++;
    }
    return i;
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
    return token >= 0 && token < size && kinds[token] == Kind.WORD && ends[token] - starts[token] == word.length()
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
    return token >= 0 && token < size && kinds[token] == Kind.SYMBOL && ends[token] - starts[token] == 1
        && sql.charAt(starts[token]) == symbol;
  }

  /** A name as the database folds it: quoted names as written, unquoted ones in lower case (upper-case for none). */
  public String name(int token) {
    if (kinds[token] == Kind.QUOTED_NAME) {
      String quoted = text(token);
      String quote = quoted.substring(0, 1);
      return quoted.substring(1, quoted.length() - 1).replace(quote + quote, quote);
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
