package org.raidb.controller.backup.jdbc;

import java.util.List;

/**
 * A foreign key, added after all data is loaded so that tables can be loaded in any order.
 *
 * @param onUpdate the SQL words of the rule: "CASCADE", "SET NULL", "SET DEFAULT", "RESTRICT",
 *     "NO ACTION"
 */
public record ForeignKeyDefinition(
        String name,
        List<String> columns,
        String referencedTable,
        List<String> referencedColumns,
        String onUpdate,
        String onDelete) {

    public ForeignKeyDefinition {
        columns = List.copyOf(columns);
        referencedColumns = List.copyOf(referencedColumns);
    }
}
