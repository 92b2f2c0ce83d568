package org.raidb.controller.defaults;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.raidb.controller.determinism.SqlTokens;
import org.raidb.driver.protocol.SqlStates;

/**
 * PostgreSQL's MERGE: a {@code WHEN NOT MATCHED THEN INSERT} action inserts one row per source row
 * it does not match, as many as the controller cannot know, so a volatile default it leaves out
 * cannot be given values computed here. Such a MERGE is refused; one whose INSERT actions name
 * every volatile column runs as written (its calls become literals like any write's).
 */
final class MergeDefaults {
    private MergeDefaults() {}

    /** The token naming the merged table ({@code MERGE INTO name}), or -1. */
    static int target(SqlTokens tokens) {
        return tokens.isWord(0, "MERGE") && tokens.isWord(1, "INTO") ? Assignments.endOfName(tokens, 2) : -1;
    }

    static void refuseIfRelying(SqlTokens tokens, TableColumns table) throws SQLException {
        for (int t = 1; t < tokens.size(); t++) {
            if (tokens.depth(t) != 0 || !tokens.isWord(t, "INSERT") || !tokens.isWord(t - 1, "THEN")) {
                continue;
            }
            List<String> columns = new ArrayList<>();
            if (tokens.isSymbol(t + 1, '(')) {
                for (int c = t + 2; c < tokens.size() && !tokens.isSymbol(c, ')'); c++) {
                    if (Assignments.isName(tokens, c)) {
                        columns.add(tokens.name(c));
                    }
                }
            }
            for (VolatileColumn c : table.volatileColumns()) {
                if (c.insertDefault() != null && columns.stream().noneMatch(n -> table.sameName(n, c.name()))) {
                    throw new SQLException(
                            "MERGE into " + table.table() + " inserts rows that leave column " + c.name() + " to its"
                                    + " default " + c.insertDefault()
                                    + ", which each backend would compute for itself, for as many rows as the"
                                    + " controller cannot know: name " + c.name()
                                    + " in the INSERT action and give it a value",
                            SqlStates.FEATURE_NOT_SUPPORTED);
                }
            }
        }
    }
}
