package org.raidb.controller.backup.jdbc;

import java.util.List;

/** A base table as jdbcCopy recreates it: columns, primary key, indexes, foreign keys. */
public record TableDefinition(
        String name,
        List<ColumnDefinition> columns,
        List<String> primaryKey,
        List<IndexDefinition> indexes,
        List<ForeignKeyDefinition> foreignKeys) {

    public TableDefinition {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        indexes = List.copyOf(indexes);
        foreignKeys = List.copyOf(foreignKeys);
    }

    /** Whether the column is in the primary key or in an index: some products cannot index every type. */
    public boolean isIndexed(String columnName) {
        return primaryKey.contains(columnName)
                || indexes.stream()
                        .anyMatch(
                                i -> i.columns().stream().anyMatch(c -> c.name().equals(columnName)));
    }

    public ColumnDefinition column(String columnName) {
        return columns.stream()
                .filter(c -> c.name().equals(columnName))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(name + " has no column " + columnName));
    }
}
