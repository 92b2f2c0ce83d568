package org.raidb.controller.analysis;

import java.util.Locale;
import java.util.regex.Pattern;

/** Lexical helpers on raw SQL text: skipping comments, reading leading keywords. */
final class SqlText {
  private static final Pattern ROW_LOCK = Pattern.compile("\\bFOR\\s+(NO\\s+KEY\\s+)?(UPDATE|SHARE|KEY\\s+SHARE)\\b",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern SEQUENCE_CALL = Pattern.compile("\\b(NEXTVAL|SETVAL)\\s*\\(|\\bNEXT\\s+VALUE\\s+FOR\\b",
      Pattern.CASE_INSENSITIVE);

  private SqlText() {}

  /** Index of the first character that is neither whitespace nor inside a leading comment. */
  static int start(String sql) {
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c) || c == '(') {
        i++;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int eol = sql.indexOf('\n', i);
        i = eol < 0 ? n : eol + 1;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else {
        break;
      }
    }
    return i;
  }

  /** The first {@code count} words, upper-cased; missing words are empty strings. */
  static String[] firstWords(String sql, int count) {
    String[] words = new String[count];
    int i = start(sql);
    int n = sql.length();
    for (int w = 0; w < count; w++) {
      while (i < n && Character.isWhitespace(sql.charAt(i))) {
        i++;
      }
      int begin = i;
      while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_')) {
        i++;
      }
      words[w] = sql.substring(begin, i).toUpperCase(Locale.ROOT);
      if (i == begin) {
        for (int rest = w + 1; rest < count; rest++) {
          words[rest] = "";
        }
        break;
      }
    }
    return words;
  }

  /** The identifier following the keyword, as written (quotes kept out). */
  static String wordAfter(String sql, String keyword) {
    int k = sql.toUpperCase(Locale.ROOT).indexOf(keyword);
    if (k < 0) {
      return null;
    }
    int i = k + keyword.length();
    int n = sql.length();
    while (i < n && Character.isWhitespace(sql.charAt(i))) {
      i++;
    }
    if (i < n && sql.charAt(i) == '"') {
      int end = sql.indexOf('"', i + 1);
      return end < 0 ? sql.substring(i + 1) : sql.substring(i + 1, end);
    }
    int begin = i;
    while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_')) {
      i++;
    }
    return begin == i ? null : sql.substring(begin, i);
  }

  /** Whether a comma appears outside quotes: TRUNCATE a, b names several tables. */
  static boolean namesSeveralTables(String sql) {
    boolean quoted = false;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        return true;
      }
    }
    return false;
  }

  static boolean locksRows(String sql) {
    return ROW_LOCK.matcher(sql).find();
  }

  static boolean callsSequenceFunction(String sql) {
    return SEQUENCE_CALL.matcher(sql).find();
  }

  static String abbreviate(String sql) {
    String oneLine = sql.replaceAll("\\s+", " ").trim();
    return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "…";
  }
}
