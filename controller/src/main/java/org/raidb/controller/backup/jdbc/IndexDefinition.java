package org.raidb.controller.backup.jdbc;

import java.util.List;

/**
 * A secondary index on plain columns (expression and partial indexes are not copied).
 *
 * @param columns in index order
 */
public record IndexDefinition(String name, boolean unique, List<IndexColumn> columns) {

    /** One column of an index. */
    public record IndexColumn(String name, boolean descending) {}

    public IndexDefinition {
        columns = List.copyOf(columns);
    }
}
