package org.raidb.controller.defaults;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Insertions and replacements at offsets of the original text, applied at once so that offsets stay valid. */
final class TextEdits {
    private record Edit(int start, int end, String text, int order) {}

    private final String sql;
    private final List<Edit> edits = new ArrayList<>();

    TextEdits(String sql) {
        this.sql = sql;
    }

    void insert(int at, String text) {
        edits.add(new Edit(at, at, text, edits.size()));
    }

    void replace(int start, int end, String text) {
        edits.add(new Edit(start, end, text, edits.size()));
    }

    boolean isEmpty() {
        return edits.isEmpty();
    }

    /** The text with every edit made; insertions at one offset keep the order they were asked in. */
    String apply() {
        if (edits.isEmpty()) {
            return sql;
        }
        List<Edit> sorted = new ArrayList<>(edits);
        sorted.sort(Comparator.comparingInt(Edit::start).thenComparingInt(Edit::order));
        StringBuilder out = new StringBuilder(sql.length() + 64);
        int copied = 0;
        for (Edit e : sorted) {
            out.append(sql, copied, e.start).append(e.text);
            copied = Math.max(copied, e.end);
        }
        return out.append(sql, copied, sql.length()).toString();
    }
}
