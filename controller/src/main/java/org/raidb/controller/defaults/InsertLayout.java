package org.raidb.controller.defaults;

import java.util.ArrayList;
import java.util.List;
import org.raidb.controller.determinism.SqlTokens;

/**
 * Where the parts of an INSERT (or MariaDB REPLACE) are in its text, as far as adding columns to it
 * needs them. Read from the code tokens:
 *
 * <pre>
 * [WITH …] INSERT [modifiers] [INTO] table [AS alias] [(columns)] [OVERRIDING … VALUE]
 *   { DEFAULT VALUES | VALUES (…), … | SET c = v, … | query }
 *   [ON CONFLICT … | ON DUPLICATE KEY UPDATE c = v, …] [RETURNING …]
 * </pre>
 *
 * Null from {@link #of} when the text has another shape; the caller then refuses rather than guess.
 */
final class InsertLayout {
    enum Source {
        DEFAULT_VALUES,
        VALUES,
        SET,
        QUERY
    }

    /** A VALUES row: its items and the offset of its closing parenthesis. */
    record Row(List<Assignments.Item> items, int close) {}

    /**
     * One SELECT of the query: where its select list ends (just after SELECT when it is empty), how
     * many items it has (-1 when one is a {@code *}).
     */
    record SelectList(int end, int width) {}

    /** Words that end a select list at its own depth (unless they follow AS, as a column label). */
    private static final String[] SELECT_LIST_END = {
        "FROM",
        "INTO",
        "WHERE",
        "GROUP",
        "HAVING",
        "WINDOW",
        "ORDER",
        "LIMIT",
        "OFFSET",
        "FETCH",
        "FOR",
        "UNION",
        "EXCEPT",
        "INTERSECT",
        "MINUS",
        "ON",
        "RETURNING",
        "LOCK"
    };

    String table;
    /** Where a column list goes when the statement has none: just after the table name or alias. */
    int afterTarget;
    /** The columns written, folded as the database folds them; null when there is no column list. */
    List<String> columns;
    /** The offset of the column list's closing parenthesis, or -1. */
    int columnListClose = -1;

    Source source;
    int defaultValuesStart;
    int defaultValuesEnd;
    final List<Row> rows = new ArrayList<>();
    final List<Assignments.Item> assignments = new ArrayList<>();
    /** The offset just after the last SET assignment. */
    int assignmentsEnd;

    final List<SelectList> selects = new ArrayList<>();
    /** MariaDB's ON DUPLICATE KEY UPDATE assignments, and the offset just after the last one (-1 when none). */
    final List<Assignments.Item> duplicateUpdates = new ArrayList<>();

    int duplicateUpdatesEnd = -1;

    private final SqlTokens tokens;

    private InsertLayout(SqlTokens tokens) {
        this.tokens = tokens;
    }

    static InsertLayout of(SqlTokens tokens) {
        InsertLayout layout = new InsertLayout(tokens);
        return layout.read() ? layout : null;
    }

    private boolean read() {
        int i = 0;
        while (i < tokens.size() && !(tokens.depth(i) == 0 && tokens.isAnyWord(i, "INSERT", "REPLACE"))) {
            i++; // past a WITH clause, whose bodies are in parentheses
        }
        i++;
        while (tokens.isAnyWord(i, "LOW_PRIORITY", "DELAYED", "HIGH_PRIORITY", "IGNORE")) {
            i++;
        }
        if (tokens.isWord(i, "INTO")) {
            i++;
        }
        int nameEnd = endOfName(i);
        if (nameEnd < 0) {
            return false;
        }
        table = tokens.name(nameEnd);
        i = nameEnd + 1;
        if (tokens.isWord(i, "AS") && isName(i + 1)) {
            i += 2;
        }
        afterTarget = tokens.end(i - 1);
        if (tokens.isWord(i, "PARTITION")) {
            return false;
        }
        if (tokens.isSymbol(i, '(') && !startsQuery(i + 1)) {
            int close = tokens.closing(i);
            if (close < 0 || !readColumnList(i + 1, close)) {
                return false;
            }
            columnListClose = tokens.start(close);
            i = close + 1;
        }
        if (tokens.isWord(i, "OVERRIDING")) {
            i += 3;
        }
        int next;
        if (tokens.isWord(i, "DEFAULT") && tokens.isWord(i + 1, "VALUES")) {
            source = Source.DEFAULT_VALUES;
            defaultValuesStart = tokens.start(i);
            defaultValuesEnd = tokens.end(i + 1);
            next = i + 2;
        } else if (tokens.isAnyWord(i, "VALUES", "VALUE")) {
            source = Source.VALUES;
            next = readRows(i + 1);
        } else if (tokens.isWord(i, "SET")) {
            source = Source.SET;
            next = Assignments.read(tokens, i + 1, assignments);
            assignmentsEnd = next < 0 ? -1 : tokens.end(next - 1);
        } else if (startsQuery(i)) {
            source = Source.QUERY;
            next = readQuery(i);
        } else {
            return false;
        }
        if (next < 0) {
            return false;
        }
        if (tokens.isWord(next, "ON") && tokens.isWord(next + 1, "DUPLICATE")) {
            int end = Assignments.read(tokens, next + 4, duplicateUpdates);
            if (end < 0) {
                return false;
            }
            duplicateUpdatesEnd = tokens.end(end - 1);
        }
        return true;
    }

    private int endOfName(int i) {
        return Assignments.endOfName(tokens, i);
    }

    private boolean isName(int i) {
        return Assignments.isName(tokens, i);
    }

    private boolean startsQuery(int i) {
        return tokens.isAnyWord(i, "SELECT", "WITH", "TABLE") || tokens.isSymbol(i, '(');
    }

    /** Plain column names between the parentheses (MariaDB allows none); a subfield or subscript is another shape. */
    private boolean readColumnList(int from, int close) {
        columns = new ArrayList<>();
        for (int i = from; i < close; i += 2) {
            if (!isName(i) || !(i + 1 == close || tokens.isSymbol(i + 1, ','))) {
                return false;
            }
            columns.add(tokens.name(i));
        }
        return true;
    }

    /** VALUES rows from {@code i}; the token after the last row, or -1. */
    private int readRows(int i) {
        while (tokens.isSymbol(i, '(')) {
            int close = tokens.closing(i);
            if (close < 0) {
                return -1;
            }
            List<Assignments.Item> items = new ArrayList<>();
            int start = i + 1;
            for (int t = i + 1; t <= close; t++) {
                if (t == close || (tokens.depth(t) == tokens.depth(i) + 1 && tokens.isSymbol(t, ','))) {
                    if (t > start) {
                        items.add(Assignments.item(tokens, null, null, start, t - 1));
                    } else if (t < close || !items.isEmpty()) {
                        return -1; // an empty item
                    }
                    start = t + 1;
                }
            }
            rows.add(new Row(items, tokens.start(close)));
            i = close + 1;
            if (!tokens.isSymbol(i, ',')) {
                return i;
            }
            i++;
        }
        return -1;
    }

    /**
     * The SELECTs of a query made of one SELECT or a chain of set operations between SELECTs, possibly
     * in parentheses as a whole, possibly after a WITH clause; the token after the query, or -1 for any
     * other query (a parenthesised branch, VALUES, TABLE).
     */
    private int readQuery(int i) {
        int end = tokens.size();
        int depth = tokens.depth(i);
        int after = -1;
        if (tokens.isSymbol(i, '(')) {
            int close = tokens.closing(i);
            if (close < 0) {
                return -1;
            }
            after = close + 1;
            end = close;
            depth++;
            i++;
        }
        boolean expectSelect = true;
        int t = i;
        if (tokens.isWord(t, "WITH")) {
            while (t < end && !(tokens.depth(t) == depth && tokens.isWord(t, "SELECT"))) {
                t++;
            }
        }
        while (t < end) {
            if (tokens.depth(t) < depth || (tokens.depth(t) == depth && tokens.isSymbol(t, ';'))) {
                break;
            }
            if (tokens.depth(t) == depth && tokens.isAnyWord(t, "UNION", "EXCEPT", "INTERSECT", "MINUS")) {
                expectSelect = true;
                t++;
                if (tokens.isAnyWord(t, "ALL", "DISTINCT")) {
                    t++;
                }
                continue;
            }
            if (expectSelect) {
                if (!tokens.isWord(t, "SELECT") || tokens.depth(t) != depth) {
                    return -1;
                }
                t = readSelectList(t + 1, depth);
                expectSelect = false;
                continue;
            }
            if (tokens.depth(t) == depth
                    && after < 0
                    && (tokens.isWord(t, "RETURNING")
                            || (tokens.isWord(t, "ON") && tokens.isAnyWord(t + 1, "CONFLICT", "DUPLICATE")))) {
                break; // the INSERT's own clauses; any other ON is a join's
            }
            t++;
        }
        if (expectSelect || selects.isEmpty()) {
            return -1;
        }
        return after >= 0 ? after : t;
    }

    /** One select list from {@code i} (after SELECT); the token where it ends. */
    private int readSelectList(int i, int depth) {
        if (tokens.isAnyWord(i, "DISTINCT", "ALL")) {
            i++;
            if (tokens.isWord(i, "ON") && tokens.isSymbol(i + 1, '(')) {
                i = tokens.closing(i + 1) + 1;
            }
        }
        int items = 0;
        boolean star = false;
        int itemStart = i;
        int t = i;
        for (; t < tokens.size(); t++) {
            if (tokens.depth(t) < depth
                    || (tokens.depth(t) == depth
                            && (tokens.isSymbol(t, ';')
                                    || (tokens.isAnyWord(t, SELECT_LIST_END) && !tokens.isWord(t - 1, "AS"))))) {
                break;
            }
            if (tokens.depth(t) == depth && tokens.isSymbol(t, ',')) {
                items++;
                itemStart = t + 1;
            } else if (tokens.depth(t) == depth
                    && tokens.isSymbol(t, '*')
                    && (t == itemStart || tokens.isSymbol(t - 1, '.'))) {
                star = true;
            }
        }
        selects.add(new SelectList(tokens.end(t - 1), star ? -1 : t == i ? 0 : items + 1));
        return t;
    }
}
