package org.raidb.controller.defaults;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.raidb.controller.determinism.NonDeterministicCalls;
import org.raidb.controller.determinism.SqlDialect;
import org.raidb.driver.protocol.SqlStates;

/**
 * Writes into an INSERT the volatile defaults it relies on: each column it leaves out (or sets to
 * DEFAULT) whose default calls now(), gen_random_uuid() and the like gets that default expression
 * written in, once per row, so that the call rewriter then replaces the calls with literals computed
 * once: every backend stores the same values. MariaDB's ON DUPLICATE KEY UPDATE gets the ON UPDATE
 * columns it does not set, as an UPDATE does ({@link UpdateDefaults}).
 */
final class InsertDefaults {
    private final InsertLayout layout;
    private final TableColumns table;
    private final SqlDialect dialect;
    private final TextEdits edits;

    private InsertDefaults(String sql, InsertLayout layout, TableColumns table, SqlDialect dialect) {
        this.layout = layout;
        this.table = table;
        this.dialect = dialect;
        this.edits = new TextEdits(sql);
    }

    /** The INSERT with its volatile defaults written in; the same String when it relies on none. */
    static String fill(String sql, InsertLayout layout, TableColumns table, SqlDialect dialect) throws SQLException {
        InsertDefaults d = new InsertDefaults(sql, layout, table, dialect);
        switch (layout.source) {
            case DEFAULT_VALUES -> d.defaultValues();
            case VALUES -> d.values();
            case SET -> d.assignments();
            case QUERY -> d.query();
        }
        d.duplicateUpdates();
        return d.edits.apply();
    }

    private void defaultValues() {
        List<VolatileColumn> omitted = omitted(List.of());
        if (!omitted.isEmpty()) {
            edits.replace(
                    layout.defaultValuesStart,
                    layout.defaultValuesEnd,
                    "(" + names(omitted) + ") VALUES (" + expressions(omitted) + ")");
        }
    }

    private void values() {
        int width = layout.rows.get(0).items().size();
        if (layout.rows.stream().anyMatch(r -> r.items().size() != width)
                || (layout.columns == null && width > table.columns().size())) {
            return; // the backends refuse it alike
        }
        List<String> target = target(width);
        List<VolatileColumn> omitted = omitted(target);
        for (InsertLayout.Row row : layout.rows) {
            for (int p = 0; p < row.items().size() && p < target.size(); p++) {
                replaceDefault(row.items().get(p), table.volatileColumn(target.get(p)));
            }
            if (!omitted.isEmpty()) {
                edits.insert(row.close(), (row.items().isEmpty() ? "" : ", ") + expressions(omitted));
            }
        }
        addColumns(target, omitted);
    }

    private void assignments() {
        List<String> assigned = new ArrayList<>();
        for (Assignments.Item a : layout.assignments) {
            assigned.add(a.column());
            replaceDefault(a, table.volatileColumn(a.column()));
        }
        for (VolatileColumn c : omitted(assigned)) {
            edits.insert(layout.assignmentsEnd, ", " + quote(c.name()) + " = " + c.insertDefault());
        }
    }

    /**
     * INSERT … SELECT: a default that gives every row the same value (now()) is added to each select
     * list; one that gives each row its own (gen_random_uuid()) cannot be computed for rows the
     * controller does not see, so the statement is refused.
     */
    private void query() throws SQLException {
        int width = layout.selects.get(0).width();
        List<String> target;
        if (layout.columns != null) {
            target = layout.columns;
        } else if (width < 0 || layout.selects.stream().anyMatch(s -> s.width() != width)) {
            List<VolatileColumn> all = omitted(List.of());
            if (all.isEmpty()) {
                return;
            }
            throw new SQLException(
                    "INSERT … SELECT into " + table.table() + " without a column list may leave column "
                            + all.get(0).name() + " to its default "
                            + all.get(0).insertDefault() + ", which each backend would compute for"
                            + " itself; the controller cannot tell which columns the SELECT fills: name the columns after the table",
                    SqlStates.FEATURE_NOT_SUPPORTED);
        } else if (width > table.columns().size()) {
            return;
        } else {
            target = table.columns().subList(0, width);
        }
        List<VolatileColumn> omitted = omitted(target);
        for (VolatileColumn c : omitted) {
            if (NonDeterministicCalls.mayContainPerCallValue(c.insertDefault(), dialect)) {
                throw new SQLException(
                        "INSERT … SELECT into " + table.table() + " leaves column " + c.name() + " to its default "
                                + c.insertDefault()
                                + ", which gives each row a value of its own; the controller cannot compute one per row"
                                + " for rows it does not see, and each backend would draw its own. Insert the rows with VALUES (or a JDBC"
                                + " batch), or give " + c.name() + " a value computed from the row in the SELECT",
                        SqlStates.FEATURE_NOT_SUPPORTED);
            }
        }
        if (omitted.isEmpty()) {
            return;
        }
        for (InsertLayout.SelectList s : layout.selects) {
            edits.insert(s.end(), (s.width() == 0 ? " " : ", ") + expressions(omitted));
        }
        addColumns(target, omitted);
    }

    /** MariaDB: a duplicate key turns the INSERT into an UPDATE of the row, which refreshes its ON UPDATE columns. */
    private void duplicateUpdates() {
        if (layout.duplicateUpdatesEnd < 0) {
            return;
        }
        List<String> assigned =
                layout.duplicateUpdates.stream().map(Assignments.Item::column).toList();
        for (VolatileColumn c : table.volatileColumns()) {
            if (c.onUpdate() != null && assigned.stream().noneMatch(a -> table.sameName(a, c.name()))) {
                edits.insert(layout.duplicateUpdatesEnd, ", " + quote(c.name()) + " = " + c.onUpdate());
            }
        }
    }

    private void replaceDefault(Assignments.Item item, VolatileColumn column) {
        if (item.isDefault() && column != null && column.insertDefault() != null) {
            edits.replace(item.start(), item.end(), column.insertDefault());
        }
    }

    /** The columns a statement without a column list fills: the table's first ones, by position. */
    private List<String> target(int width) {
        return layout.columns != null ? layout.columns : table.columns().subList(0, width);
    }

    private List<VolatileColumn> omitted(List<String> target) {
        List<VolatileColumn> out = new ArrayList<>();
        for (VolatileColumn c : table.volatileColumns()) {
            if (c.insertDefault() != null && target.stream().noneMatch(t -> table.sameName(t, c.name()))) {
                out.add(c);
            }
        }
        return out;
    }

    /** Names the added columns: after the written list, or in a list of their own when none was written. */
    private void addColumns(List<String> target, List<VolatileColumn> omitted) {
        if (omitted.isEmpty()) {
            return;
        }
        if (layout.columns != null) {
            edits.insert(layout.columnListClose, (layout.columns.isEmpty() ? "" : ", ") + names(omitted));
        } else {
            StringBuilder list = new StringBuilder(" (");
            target.forEach(t -> list.append(quote(t)).append(", "));
            edits.insert(
                    layout.afterTarget, list.append(names(omitted)).append(')').toString());
        }
    }

    private String names(List<VolatileColumn> columns) {
        return String.join(", ", columns.stream().map(c -> quote(c.name())).toList());
    }

    private static String expressions(List<VolatileColumn> columns) {
        return String.join(
                ", ", columns.stream().map(VolatileColumn::insertDefault).toList());
    }

    /** Quoted as the catalogue spells it, so that case and keywords do not matter. */
    private String quote(String column) {
        return quoteName(column, dialect);
    }

    static String quoteName(String name, SqlDialect dialect) {
        String q = dialect == SqlDialect.MARIADB ? "`" : "\"";
        return q + name.replace(q, q + q) + q;
    }
}
