package org.raidb.driver;

import java.util.ArrayList;
import java.util.List;

/**
 * Just enough SQL lexing to find the {@code ?} placeholders and top-level commas: it skips
 * PostgreSQL string literals ({@code '..'}, {@code E'..'}, dollar quotes), quoted identifiers and
 * comments. As in pgjdbc, {@code ??} stands for a literal {@code ?} operator and is not a
 * placeholder; it is sent unchanged for the backend's driver to unescape.
 */
final class SqlText {
  private SqlText() {}

  static int countParameters(String sql) {
    return parameterPositions(sql).size();
  }

  /** Offsets of the placeholders in {@code sql}. */
  static List<Integer> parameterPositions(String sql) {
    List<Integer> positions = new ArrayList<>();
    int i = 0;
    int n = sql.length();
    while (i < n) {
      int skipped = skipLiteralOrComment(sql, i);
      if (skipped > i) {
        i = skipped;
        continue;
      }
      if (sql.charAt(i) == '?') {
        if (i + 1 < n && sql.charAt(i + 1) == '?') {
          i += 2;
          continue;
        }
        positions.add(i);
      }
      i++;
    }
    return positions;
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
    int i = 0;
    int n = sql.length();
    while (i < n) {
      int skipped = skipLiteralOrComment(sql, i);
      if (skipped > i) {
        current.append(sql, i, skipped);
        blank = false;
        i = skipped;
        continue;
      }
      char c = sql.charAt(i);
      if (c == '?') {
        boolean doubled = i + 1 < n && sql.charAt(i + 1) == '?';
        current.append(doubled ? "?" : "$" + ++placeholders);
        blank = false;
        i += doubled ? 2 : 1;
        continue;
      }
      if (c == ';' && depth == 0) {
        if (!blank) {
          statements.add(current.toString());
        }
        current.setLength(0);
        placeholders = 0;
        blank = true;
        i++;
        continue;
      }
      depth += c == '(' ? 1 : c == ')' ? -1 : 0;
      blank &= Character.isWhitespace(c);
      current.append(c);
      i++;
    }
    if (current.length() > 0 && (statements.isEmpty() || !blank)) {
      statements.add(current.toString());
    }
    return String.join(";", statements);
  }

  /** Splits on commas outside literals, comments and parentheses; each part keeps its whitespace. */
  static List<String> splitTopLevel(String text) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    int i = 0;
    while (i < text.length()) {
      int skipped = skipLiteralOrComment(text, i);
      if (skipped > i) {
        i = skipped;
        continue;
      }
      char c = text.charAt(i);
      if (c == '(' || c == '[') {
        depth++;
      } else if (c == ')' || c == ']') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(text.substring(start, i));
        start = i + 1;
      }
      i++;
    }
    parts.add(text.substring(start));
    return parts;
  }

  /**
   * If a literal, quoted identifier or comment starts at {@code i}, the offset just after it (or the
   * end of the text if it is unterminated); otherwise {@code i}.
   */
  static int skipLiteralOrComment(String s, int i) {
    char c = s.charAt(i);
    int n = s.length();
    switch (c) {
      case '\'': {
        boolean backslashEscapes = i > 0 && (s.charAt(i - 1) == 'E' || s.charAt(i - 1) == 'e')
            && (i < 2 || !isIdentifierChar(s.charAt(i - 2)));
        return skipQuoted(s, i, '\'', backslashEscapes);
      }
      case '"':
        return skipQuoted(s, i, '"', false);
      case '-':
        if (i + 1 < n && s.charAt(i + 1) == '-') {
          int eol = s.indexOf('\n', i);
          return eol < 0 ? n : eol + 1;
        }
        return i;
      case '/':
        return i + 1 < n && s.charAt(i + 1) == '*' ? skipBlockComment(s, i) : i;
      case '$':
        return skipDollarQuoted(s, i);
      default:
        return i;
    }
  }

  private static int skipQuoted(String s, int i, char quote, boolean backslashEscapes) {
    int j = i + 1;
    while (j < s.length()) {
      char c = s.charAt(j);
      if (backslashEscapes && c == '\\') {
        j += 2;
        continue;
      }
      if (c == quote) {
        if (j + 1 < s.length() && s.charAt(j + 1) == quote) {
          j += 2; // doubled quote inside the literal
          continue;
        }
        return j + 1;
      }
      j++;
    }
    return s.length();
  }

  /** PostgreSQL block comments nest. */
  private static int skipBlockComment(String s, int i) {
    int depth = 0;
    int j = i;
    while (j < s.length() - 1) {
      if (s.charAt(j) == '/' && s.charAt(j + 1) == '*') {
        depth++;
        j += 2;
      } else if (s.charAt(j) == '*' && s.charAt(j + 1) == '/') {
        depth--;
        j += 2;
        if (depth == 0) {
          return j;
        }
      } else {
        j++;
      }
    }
    return s.length();
  }

  /** {@code $tag$...$tag$}; a {@code $} inside an identifier or followed by a digit ($1) starts no quote. */
  private static int skipDollarQuoted(String s, int i) {
    if (i > 0 && isIdentifierChar(s.charAt(i - 1))) {
      return i;
    }
    int j = i + 1;
    if (j < s.length() && Character.isDigit(s.charAt(j))) {
      return i;
    }
    while (j < s.length() && s.charAt(j) != '$') {
      if (!isIdentifierChar(s.charAt(j))) {
        return i;
      }
      j++;
    }
    if (j >= s.length()) {
      return i;
    }
    String tag = s.substring(i, j + 1);
    int close = s.indexOf(tag, j + 1);
    return close < 0 ? s.length() : close + tag.length();
  }

  private static boolean isIdentifierChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }
}
