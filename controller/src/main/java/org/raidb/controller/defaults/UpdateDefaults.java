package org.raidb.controller.defaults;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.raidb.controller.determinism.SqlTokens;
import org.raidb.driver.protocol.SqlStates;

/**
 * MariaDB's {@code ON UPDATE CURRENT_TIMESTAMP}: an UPDATE that does not set such a column gets
 * {@code col = CURRENT_TIMESTAMP} added to its SET list, which the call rewriter then turns into
 * one literal. MariaDB refreshes the column only in rows whose values change; the added assignment
 * refreshes it in every row the UPDATE matches (docs/determinism.md).
 */
final class UpdateDefaults {
    private UpdateDefaults() {}

    /**
     * The UPDATE with the ON UPDATE columns of {@code table} it leaves out assigned; the same String
     * when it sets them all.
     *
     * @param tableToken the token of the updated table's name, as found by {@link #target}
     */
    static String fill(SqlTokens tokens, TableColumns table, int tableToken) throws SQLException {
        int set = tableToken + 1;
        while (set < tokens.size() && !(tokens.depth(set) == 0 && tokens.isWord(set, "SET"))) {
            set++;
        }
        List<Assignments.Item> assignments = new ArrayList<>();
        int end = set < tokens.size() ? Assignments.read(tokens, set + 1, assignments) : -1;
        List<VolatileColumn> missing = new ArrayList<>();
        for (VolatileColumn c : table.volatileColumns()) {
            if (c.onUpdate() != null && assignments.stream().noneMatch(a -> table.sameName(a.column(), c.name()))) {
                missing.add(c);
            }
        }
        if (missing.isEmpty()) {
            return tokens.sql();
        }
        if (end < 0 || !singleTable(tokens, tableToken, set)) {
            throw new SQLException(
                    "this UPDATE of " + table.table() + " leaves column "
                            + missing.get(0).name() + " to MariaDB's ON"
                            + " UPDATE " + missing.get(0).onUpdate()
                            + ", which each backend would compute for itself, and the controller"
                            + " cannot add the column to it (several tables, or a SET list it cannot read): set "
                            + missing.get(0).name()
                            + " in the UPDATE, or update " + table.table() + " on its own",
                    SqlStates.FEATURE_NOT_SUPPORTED);
        }
        TextEdits edits = new TextEdits(tokens.sql());
        for (VolatileColumn c : missing) {
            edits.insert(
                    tokens.end(end - 1),
                    ", " + InsertDefaults.quoteName(c.name(), org.raidb.controller.determinism.SqlDialect.MARIADB)
                            + " = " + c.onUpdate());
        }
        return edits.apply();
    }

    /** The token naming the updated table (the first after UPDATE and its modifiers), or -1. */
    static int target(SqlTokens tokens) {
        int i = 0;
        if (!tokens.isWord(i, "UPDATE")) {
            return -1;
        }
        i++;
        while (tokens.isAnyWord(i, "LOW_PRIORITY", "IGNORE")) {
            i++;
        }
        return Assignments.endOfName(tokens, i);
    }

    /** Between the table and SET there is at most an alias: no JOIN and no second table. */
    private static boolean singleTable(SqlTokens tokens, int tableToken, int set) {
        int between = set - tableToken - 1;
        return between == 0
                || (between == 1 && Assignments.isName(tokens, tableToken + 1))
                || (between == 2 && tokens.isWord(tableToken + 1, "AS") && Assignments.isName(tokens, tableToken + 2));
    }
}
