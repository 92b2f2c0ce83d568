package org.raidb.tpcw.play;

import java.util.Locale;

/** The first keyword of a statement, the category latencies are reported by. */
final class StatementKeyword {

    private StatementKeyword() {}

    static String of(String sql) {
        String s = sql.stripLeading();
        int end = 0;
        while (end < s.length() && Character.isLetter(s.charAt(end))) {
            end++;
        }
        return end == 0 ? "OTHER" : s.substring(0, end).toUpperCase(Locale.ROOT);
    }
}
