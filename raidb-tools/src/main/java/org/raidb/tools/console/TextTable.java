package org.raidb.tools.console;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Rows under headers, each column as wide as its widest cell, for people reading a terminal. */
final class TextTable {
    private static final String GAP = "  ";

    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    TextTable(String... headers) {
        this.headers = List.of(headers);
    }

    /** Null cells show as "-" so that an empty column still reads as a column. */
    TextTable row(Object... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException(cells.length + " cells for " + headers.size() + " columns");
        }
        rows.add(Arrays.stream(cells).map(c -> c == null ? "-" : c.toString()).toList());
        return this;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    String render() {
        int[] widths = new int[headers.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = headers.get(i).length();
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, headers, widths);
        for (List<String> row : rows) {
            line(out, row, widths);
        }
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> cells, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            line.append(i == 0 ? "" : GAP).append(cells.get(i));
            // The last column is not padded: no trailing spaces.
            if (i < cells.size() - 1) {
                line.append(" ".repeat(widths[i] - cells.get(i).length()));
            }
        }
        out.append(line).append('\n');
    }
}
