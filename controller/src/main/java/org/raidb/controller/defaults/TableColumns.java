package org.raidb.controller.defaults;

import java.util.List;
import java.util.Locale;

/**
 * A table that has volatile columns, as the catalogue describes it: every column in order (an
 * INSERT without a column list fills them by position) and the volatile ones.
 *
 * @param caseInsensitive MariaDB compares column names without regard to case; PostgreSQL folds
 *     unquoted names, so names given here must already be folded
 */
public record TableColumns(
        String table, List<String> columns, List<VolatileColumn> volatileColumns, boolean caseInsensitive) {

    public TableColumns {
        columns = List.copyOf(columns);
        volatileColumns = List.copyOf(volatileColumns);
    }

    /** The column's position (0-based) in the table, or -1. */
    int position(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (sameName(columns.get(i), column)) {
                return i;
            }
        }
        return -1;
    }

    /** The volatile column of that name, or null. */
    VolatileColumn volatileColumn(String column) {
        for (VolatileColumn c : volatileColumns) {
            if (sameName(c.name(), column)) {
                return c;
            }
        }
        return null;
    }

    boolean sameName(String a, String b) {
        return caseInsensitive ? a.toLowerCase(Locale.ROOT).equals(b.toLowerCase(Locale.ROOT)) : a.equals(b);
    }
}
