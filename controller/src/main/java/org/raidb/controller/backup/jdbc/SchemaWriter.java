package org.raidb.controller.backup.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.raidb.controller.backup.BackupException;

/**
 * Creates a {@link DatabaseSchema} in the target in two halves around the data: {@link #replace}
 * before it (tables and sequences, older versions dropped), {@link #complete} after it (indexes,
 * auto-increment values, foreign keys), because loading is faster without indexes and foreign keys
 * do not then dictate a loading order.
 */
final class SchemaWriter {

    private final Dialect dialect;
    private final Connection target;
    /** Index names must be unique per schema in PostgreSQL and H2, but only per table in MariaDB. */
    private final Set<String> indexNames = new HashSet<>();

    SchemaWriter(Dialect dialect, Connection target) {
        this.dialect = dialect;
        this.target = target;
    }

    void replace(DatabaseSchema schema) throws SQLException {
        for (String sql : dialect.targetSessionSetup()) {
            execute(sql);
        }
        List<String> tables =
                schema.tables().stream().map(TableDefinition::name).toList();
        if (!tables.isEmpty()) {
            execute(dialect.dropTablesIfExist(tables));
        }
        for (SequenceDefinition sequence : schema.sequences()) {
            execute(dialect.dropSequenceIfExists(sequence.name()));
        }
        for (TableDefinition table : schema.tables()) {
            execute(dialect.createTable(table));
            indexNames.add(table.name().toLowerCase(Locale.ROOT)); // tables and indexes share PostgreSQL's namespace
        }
        for (SequenceDefinition sequence : schema.sequences()) {
            execute(dialect.createSequence(sequence));
        }
    }

    void complete(DatabaseSchema schema) throws SQLException {
        for (TableDefinition table : schema.tables()) {
            for (IndexDefinition index : table.indexes()) {
                execute(dialect.createIndex(table, index, uniqueIndexName(table, index)));
            }
            for (ColumnDefinition column : table.columns()) {
                if (column.isAutoIncrement()) {
                    for (String sql : dialect.restartAutoIncrement(
                            table.name(),
                            column.name(),
                            column.autoIncrementNext().getAsLong())) {
                        execute(sql);
                    }
                }
            }
        }
        for (TableDefinition table : schema.tables()) {
            for (ForeignKeyDefinition key : table.foreignKeys()) {
                execute(dialect.addForeignKey(table, key));
            }
        }
        for (String sql : dialect.targetSessionEnd()) {
            execute(sql);
        }
    }

    /** MariaDB's per-table index names may repeat across tables: the second one gets its table's name in front. */
    private String uniqueIndexName(TableDefinition table, IndexDefinition index) {
        String name = index.name();
        if (!indexNames.add(name.toLowerCase(Locale.ROOT))) {
            name = table.name() + "_" + index.name();
            for (int n = 2; !indexNames.add(name.toLowerCase(Locale.ROOT)); n++) {
                name = table.name() + "_" + index.name() + "_" + n;
            }
        }
        return name;
    }

    private void execute(String sql) throws SQLException {
        try (Statement s = target.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new BackupException(
                    dialect.productName() + " target refused " + sql + ": " + e.getMessage(), e.getSQLState(), e);
        }
    }
}
