package org.raidb.controller.defaults;

import java.util.List;
import org.raidb.controller.determinism.SqlTokens;

/** Reads {@code c = v, …} lists (SET, ON DUPLICATE KEY UPDATE) and names from code tokens. */
final class Assignments {
    /** Words that end an assignment list at its own depth. */
    private static final String[] END = {"ON", "RETURNING", "WHERE", "ORDER", "LIMIT"};

    /**
     * One item of a VALUES row or one assignment.
     *
     * @param column the assigned column (folded), null for a VALUES item
     * @param qualifier the table or alias before the column ({@code t.c = …}), else null
     */
    record Item(String column, String qualifier, int start, int end, boolean isDefault) {}

    private Assignments() {}

    /** Reads assignments from token {@code i} into {@code out}; the token after the last one, or -1. */
    static int read(SqlTokens tokens, int i, List<Item> out) {
        int depth = tokens.depth(i);
        while (true) {
            int nameEnd = endOfName(tokens, i);
            if (nameEnd < 0 || !tokens.isSymbol(nameEnd + 1, '=')) {
                return -1;
            }
            int valueStart = nameEnd + 2;
            int t = valueStart;
            while (t < tokens.size()
                    && !(tokens.depth(t) == depth
                            && (tokens.isSymbol(t, ',') || tokens.isSymbol(t, ';') || tokens.isAnyWord(t, END)))) {
                t++;
            }
            if (t == valueStart) {
                return -1;
            }
            String qualifier = nameEnd > i ? tokens.name(nameEnd - 2) : null;
            out.add(item(tokens, tokens.name(nameEnd), qualifier, valueStart, t - 1));
            if (!tokens.isSymbol(t, ',')) {
                return t;
            }
            i = t + 1;
        }
    }

    static Item item(SqlTokens tokens, String column, String qualifier, int first, int last) {
        return new Item(
                column,
                qualifier,
                tokens.start(first),
                tokens.end(last),
                first == last && tokens.isWord(first, "DEFAULT"));
    }

    /** The last token of a possibly qualified name starting at {@code i}, or -1. */
    static int endOfName(SqlTokens tokens, int i) {
        if (!isName(tokens, i)) {
            return -1;
        }
        while (tokens.isSymbol(i + 1, '.') && isName(tokens, i + 2)) {
            i += 2;
        }
        return i;
    }

    static boolean isName(SqlTokens tokens, int i) {
        return i < tokens.size()
                && (tokens.kind(i) == SqlTokens.Kind.WORD || tokens.kind(i) == SqlTokens.Kind.QUOTED_NAME);
    }
}
