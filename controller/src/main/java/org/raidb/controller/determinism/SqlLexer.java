package org.raidb.controller.determinism;

/**
 * Finds where string literals, quoted identifiers and comments end, so that the call scanner (and
 * the analyser's statement splitter) only look at code. Works on indexes into the caller's String:
 * no token objects, no substrings, and every character is looked at a bounded number of times, so a
 * scan is linear in the text.
 *
 * <p>Unterminated literals and comments run to the end of the text: nothing after an unbalanced
 * quote is treated as code, and the backend reports the syntax error itself.
 */
public final class SqlLexer {
  private final String sql;
  private final int length;
  private final boolean mysql;

  public SqlLexer(String sql, SqlDialect dialect) {
    this.sql = sql;
    this.length = sql.length();
    this.mysql = dialect.lexesLikeMySql();
  }

  public int length() {
    return length;
  }

  /**
   * If a literal, quoted identifier or comment starts at {@code i}, the index just after it;
   * otherwise {@code i}. An executable MySQL comment {@code /*!50100 … *}{@code /} is code: only
   * its opening marker is skipped.
   */
  public int skipNonCode(int i) {
    char c = sql.charAt(i);
    switch (c) {
      case '\'':
        return endOfQuoted(i, '\'', mysql);
      case '"':
        return endOfQuoted(i, '"', mysql);
      case '`':
        return mysql ? endOfQuoted(i, '`', false) : i;
      case '#':
        return mysql ? endOfLine(i) : i;
      case '-':
        return startsDashDashComment(i) ? endOfLine(i) : i;
      case '/':
        return i + 1 < length && sql.charAt(i + 1) == '*' ? endOfBlockComment(i) : i;
      case '$':
        return mysql ? i : endOfDollarQuoted(i);
      default:
        return i;
    }
  }

  /**
   * If the word at {@code [word, wordEnd)} is the {@code E} of a PostgreSQL {@code E'…'} string
   * (whose backslashes escape), the index just after that string; otherwise -1.
   */
  public int endOfEscapeString(int word, int wordEnd) {
    char c = sql.charAt(word);
    if (mysql || wordEnd != word + 1 || c != 'e' && c != 'E' || wordEnd >= length || sql.charAt(wordEnd) != '\'') {
      return -1;
    }
    return endOfQuoted(wordEnd, '\'', true);
  }

  /** The first index at or after {@code i} that is neither whitespace nor inside a comment. */
  public int skipSpaceAndComments(int i) {
    while (i < length) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '-' || c == '/' || c == '#') {
        int end = skipNonCode(i);
        if (end == i || sql.charAt(i) == '/' && isExecutableComment(i)) {
          return i;
        }
        i = end;
      } else {
        return i;
      }
    }
    return i;
  }

  /** Letters, digits, underscore and dollar continue an identifier in both families. */
  public static boolean isIdentifierPart(char c) {
    if (c < 128) {
      return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$';
    }
    return Character.isLetterOrDigit(c);
  }

  public static boolean isIdentifierStart(char c) {
    if (c < 128) {
      return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
    }
    return Character.isLetter(c);
  }

  /** The end of the run of identifier characters starting at {@code i}. */
  public int endOfWord(int i) {
    while (i < length && isIdentifierPart(sql.charAt(i))) {
      i++;
    }
    return i;
  }

  /** A doubled quote stands for itself; with backslash escapes, a backslash hides the next character. */
  private int endOfQuoted(int open, char quote, boolean backslashEscapes) {
    int i = open + 1;
    while (i < length) {
      char c = sql.charAt(i);
      if (c == '\\' && backslashEscapes) {
        i += 2;
      } else if (c == quote) {
        if (i + 1 < length && sql.charAt(i + 1) == quote) {
          i += 2;
        } else {
          return i + 1;
        }
      } else {
        i++;
      }
    }
    return length;
  }

  /** In MySQL {@code --} starts a comment only when followed by whitespace: {@code 1--1} is 2. */
  private boolean startsDashDashComment(int i) {
    if (i + 1 >= length || sql.charAt(i + 1) != '-') {
      return false;
    }
    return !mysql || i + 2 >= length || Character.isWhitespace(sql.charAt(i + 2)) || sql.charAt(i + 2) < ' ';
  }

  private int endOfLine(int i) {
    int eol = sql.indexOf('\n', i);
    return eol < 0 ? length : eol + 1;
  }

  /** PostgreSQL block comments nest; MySQL's end at the first close, and {@code /*!} ones are code. */
  private int endOfBlockComment(int open) {
    if (mysql) {
      if (isExecutableComment(open)) {
        return skipExecutableCommentMarker(open);
      }
      int close = sql.indexOf("*/", open + 2);
      return close < 0 ? length : close + 2;
    }
    int depth = 1;
    int i = open + 2;
    while (i < length) {
      char c = sql.charAt(i);
      if (c == '*' && i + 1 < length && sql.charAt(i + 1) == '/') {
        if (--depth == 0) {
          return i + 2;
        }
        i += 2;
      } else if (c == '/' && i + 1 < length && sql.charAt(i + 1) == '*') {
        depth++;
        i += 2;
      } else {
        i++;
      }
    }
    return length;
  }

  /** {@code /*!} or {@code /*M!}: MariaDB runs what is inside. */
  private boolean isExecutableComment(int open) {
    if (!mysql || open + 2 >= length) {
      return false;
    }
    char c = sql.charAt(open + 2);
    return c == '!' || c == 'M' && open + 3 < length && sql.charAt(open + 3) == '!';
  }

  /** Past {@code /*!} or {@code /*M!} and the optional version number. */
  private int skipExecutableCommentMarker(int open) {
    int i = sql.charAt(open + 2) == '!' ? open + 3 : open + 4;
    while (i < length && sql.charAt(i) >= '0' && sql.charAt(i) <= '9') {
      i++;
    }
    return i;
  }

  /**
   * {@code $$…$$} or {@code $tag$…$tag$}; a {@code $} that does not open a tag (as in the
   * parameter {@code $1}) is code. The scanner consumes identifiers whole, so a {@code $} inside
   * an identifier never reaches here.
   */
  private int endOfDollarQuoted(int open) {
    int i = open + 1;
    if (i < length && isIdentifierStart(sql.charAt(i))) {
      while (i < length && isIdentifierPart(sql.charAt(i)) && sql.charAt(i) != '$') {
        i++;
      }
    }
    if (i >= length || sql.charAt(i) != '$') {
      return open;
    }
    int tagLength = i + 1 - open;
    for (int k = i + 1; k < length; k++) {
      if (sql.charAt(k) == '$' && sql.regionMatches(k, sql, open, tagLength)) {
        return k + tagLength;
      }
    }
    return length;
  }
}
