package org.raidb.controller.defaults;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.raidb.controller.determinism.DeterministicRewriter;
import org.raidb.controller.determinism.NonDeterministicCalls;
import org.raidb.controller.determinism.SqlDialect;
import org.raidb.controller.determinism.SqlTokens;
import org.raidb.controller.determinism.StatementClock;
import org.raidb.driver.protocol.SqlStates;

/**
 * {@code ALTER TABLE … ADD COLUMN c … DEFAULT now()} fills the rows already there with the default,
 * which each backend computes for itself. The column is added with the default's literal value
 * instead, computed once, and its default is then set back to the expression as written, in the
 * same write, so that later inserts keep calling it (and are filled in by {@link InsertDefaults}).
 *
 * <p>PostgreSQL takes both in one ALTER TABLE (existing rows get the value of the ADD). MariaDB
 * rebuilds the table once after every clause of an ALTER TABLE, with the last default; there the
 * SET DEFAULT is a second statement.
 */
final class AddColumnDefaults {
    /** Words that end a column's DEFAULT expression at its own depth. */
    private static final String[] EXPRESSION_END = {
        "NOT",
        "NULL",
        "CONSTRAINT",
        "CHECK",
        "UNIQUE",
        "PRIMARY",
        "REFERENCES",
        "GENERATED",
        "COLLATE",
        "ON",
        "COMMENT",
        "AUTO_INCREMENT",
        "FIRST",
        "AFTER",
        "INVISIBLE",
        "KEY",
        "DEFERRABLE",
        "INITIALLY",
        "STORAGE",
        "COMPRESSION"
    };
    /** What may follow ADD other than a column. */
    private static final String[] NOT_A_COLUMN = {
        "CONSTRAINT",
        "PRIMARY",
        "UNIQUE",
        "FOREIGN",
        "CHECK",
        "INDEX",
        "KEY",
        "FULLTEXT",
        "SPATIAL",
        "EXCLUDE",
        "PARTITION",
        "PERIOD",
        "SYSTEM"
    };

    /** One added column whose default calls a non-deterministic built-in. */
    private record Added(String column, int start, int end) {}

    private AddColumnDefaults() {}

    /**
     * The statements to run instead of {@code sql}, in order; {@code sql} alone when it adds no column
     * with such a default.
     *
     * @throws SQLException 0A000 when the default gives each row a value of its own (gen_random_uuid()):
     *     the existing rows cannot be given values computed here
     */
    static List<String> rewrite(String sql, SqlDialect dialect, StatementClock clock) throws SQLException {
        SqlTokens tokens = SqlTokens.of(sql, dialect);
        if (!tokens.isWord(0, "ALTER") || !tokens.isWord(1, "TABLE")) {
            return List.of(sql);
        }
        int i = 2;
        while (tokens.isAnyWord(i, "ONLY", "IF", "EXISTS")) {
            i++;
        }
        int nameEnd = Assignments.endOfName(tokens, i);
        if (nameEnd < 0) {
            return List.of(sql);
        }
        String table = sql.substring(tokens.start(i), tokens.end(nameEnd));
        List<Added> added = new ArrayList<>();
        int actionStart = tokens.isSymbol(nameEnd + 1, '*') ? nameEnd + 2 : nameEnd + 1;
        int last = actionStart;
        for (int t = actionStart; t <= tokens.size(); t++) {
            if (t == tokens.size() || (tokens.depth(t) == 0 && (tokens.isSymbol(t, ',') || tokens.isSymbol(t, ';')))) {
                addedColumn(tokens, actionStart, t, dialect, added);
                last = t;
                if (t < tokens.size() && tokens.isSymbol(t, ';')) {
                    break;
                }
                actionStart = t + 1;
            }
        }
        if (added.isEmpty()) {
            return List.of(sql);
        }
        TextEdits literal = new TextEdits(sql);
        StringBuilder setDefaults = new StringBuilder();
        for (Added a : added) {
            String expression = sql.substring(a.start, a.end);
            literal.replace(a.start, a.end, DeterministicRewriter.rewrite(expression, dialect, clock));
            setDefaults
                    .append(setDefaults.length() == 0 ? "" : ", ")
                    .append("ALTER COLUMN ")
                    .append(a.column)
                    .append(" SET DEFAULT ")
                    .append(expression);
        }
        if (dialect == SqlDialect.MARIADB) {
            return List.of(literal.apply(), "ALTER TABLE " + table + " " + setDefaults);
        }
        int end = last < tokens.size() ? tokens.start(last) : sql.length();
        literal.insert(tokens.end(lastCodeToken(tokens, end)), ", " + setDefaults);
        return List.of(literal.apply());
    }

    /** An {@code ADD [COLUMN] [IF NOT EXISTS] c type … DEFAULT expr …} action between tokens {@code from} and {@code to}. */
    private static void addedColumn(SqlTokens tokens, int from, int to, SqlDialect dialect, List<Added> out)
            throws SQLException {
        if (!tokens.isWord(from, "ADD") || tokens.isAnyWord(from + 1, NOT_A_COLUMN)) {
            return;
        }
        int c = from + 1;
        if (tokens.isWord(c, "COLUMN")) {
            c++;
        }
        if (tokens.isWord(c, "IF") && tokens.isWord(c + 1, "NOT") && tokens.isWord(c + 2, "EXISTS")) {
            c += 3;
        }
        if (!Assignments.isName(tokens, c)) {
            return; // MariaDB's ADD (a …, b …): its defaults are not looked at
        }
        for (int d = c + 1; d < to; d++) {
            if (tokens.depth(d) == 0 && tokens.isWord(d, "DEFAULT")) {
                int e = d + 1;
                while (e < to && !(tokens.depth(e) == 0 && tokens.isAnyWord(e, EXPRESSION_END) && e > d + 1)) {
                    e++;
                }
                if (e == d + 1) {
                    return;
                }
                String sql = tokens.sql();
                String expression = sql.substring(tokens.start(d + 1), tokens.end(e - 1));
                if (!NonDeterministicCalls.mayContain(expression, dialect)) {
                    return;
                }
                if (NonDeterministicCalls.mayContainPerCallValue(expression, dialect)) {
                    throw new SQLException(
                            "ADD COLUMN " + tokens.text(c) + " with DEFAULT " + expression + " would give each existing"
                                    + " row a value of its own, drawn by each backend for itself; the controller cannot compute them for rows it"
                                    + " does not see. Add the column without that default (or with a constant one), fill it with an UPDATE that"
                                    + " computes the values from each row, then ALTER COLUMN " + tokens.text(c)
                                    + " SET DEFAULT " + expression,
                            SqlStates.FEATURE_NOT_SUPPORTED);
                }
                out.add(new Added(tokens.text(c), tokens.start(d + 1), tokens.end(e - 1)));
                return;
            }
        }
    }

    /** The last token that ends before {@code offset}. */
    private static int lastCodeToken(SqlTokens tokens, int offset) {
        int t = 0;
        while (t + 1 < tokens.size() && tokens.end(t + 1) <= offset) {
            t++;
        }
        return t;
    }
}
