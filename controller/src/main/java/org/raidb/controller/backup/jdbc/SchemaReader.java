package org.raidb.controller.backup.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.raidb.controller.backup.BackupException;
import org.raidb.controller.backup.jdbc.IndexDefinition.IndexColumn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the schema of the connection's current schema (PostgreSQL, H2) or database (MariaDB)
 * through {@link DatabaseMetaData}. Every column type is checked before anything is returned, so a
 * copy that cannot be done fails before the target is touched. What is left out on purpose
 * (expression and partial indexes, expression defaults) is logged.
 */
final class SchemaReader {

    private static final Logger log = LoggerFactory.getLogger(SchemaReader.class);
    private static final Set<String> SYSTEM_SCHEMAS =
            Set.of("pg_catalog", "information_schema", "pg_toast", "mysql", "performance_schema", "sys");
    /** Unsupported columns named in the error at most; the rest are counted. */
    private static final int NAMED_PROBLEMS = 10;

    private final Dialect dialect;
    private final Predicate<String> tableFilter;

    /** @param tableFilter true for the names of the tables to copy */
    SchemaReader(Dialect dialect, Predicate<String> tableFilter) {
        this.dialect = dialect;
        this.tableFilter = tableFilter;
    }

    DatabaseSchema read(Connection c) throws SQLException {
        DatabaseMetaData meta = c.getMetaData();
        Dialect.MetadataScope scope = dialect.scope(c);
        List<String> problems = new ArrayList<>();
        List<TableDefinition> tables = new ArrayList<>();
        for (String table : tableNames(meta, scope)) {
            tables.add(table(c, meta, scope, table, problems));
        }
        if (!problems.isEmpty()) {
            String named = String.join("; ", problems.subList(0, Math.min(problems.size(), NAMED_PROBLEMS)));
            String more =
                    problems.size() > NAMED_PROBLEMS ? " and " + (problems.size() - NAMED_PROBLEMS) + " more" : "";
            throw new BackupException(
                    "backuper jdbcCopy cannot copy these " + dialect.productName() + " columns: " + named + more
                            + ". Nothing was written. Use pgDump between PostgreSQL servers, or change these columns to a type listed in docs/backup.md.",
                    BackupException.UNSUPPORTED);
        }
        return new DatabaseSchema(tables, dialect.sequences(c));
    }

    private List<String> tableNames(DatabaseMetaData meta, Dialect.MetadataScope scope) throws SQLException {
        List<String> names = new ArrayList<>();
        try (ResultSet rs =
                meta.getTables(scope.catalog(), escaped(meta, scope.schema()), "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                String name = rs.getString("TABLE_NAME");
                if (!isSystem(rs.getString("TABLE_SCHEM"))
                        && !isSystem(rs.getString("TABLE_CAT"))
                        && tableFilter.test(name)) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    private TableDefinition table(
            Connection c, DatabaseMetaData meta, Dialect.MetadataScope scope, String table, List<String> problems)
            throws SQLException {
        List<ColumnDefinition> columns = new ArrayList<>();
        try (ResultSet rs =
                meta.getColumns(scope.catalog(), escaped(meta, scope.schema()), escaped(meta, table), "%")) {
            while (rs.next()) {
                if (!table.equals(rs.getString("TABLE_NAME"))) {
                    continue; // drivers that treat an escaped name as a pattern all the same
                }
                String name = rs.getString("COLUMN_NAME");
                String typeName = rs.getString("TYPE_NAME");
                Optional<ColumnType> type =
                        dialect.columnType(typeName, rs.getInt("COLUMN_SIZE"), rs.getInt("DECIMAL_DIGITS"));
                if (type.isEmpty()) {
                    problems.add(table + "." + name + " (" + typeName + ")");
                    continue;
                }
                boolean nullable = rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls;
                boolean auto = "YES".equalsIgnoreCase(rs.getString("IS_AUTOINCREMENT"));
                String columnDef = rs.getString("COLUMN_DEF");
                if (!auto && ColumnDefault.isExpression(columnDef)) {
                    log.warn(
                            "jdbcCopy: default of {}.{} is not a literal and is not copied: {}",
                            table,
                            name,
                            columnDef);
                }
                columns.add(new ColumnDefinition(
                        name,
                        type.get(),
                        nullable,
                        auto ? OptionalLong.of(0) : OptionalLong.empty(),
                        auto ? Optional.empty() : ColumnDefault.parse(columnDef)));
            }
        }
        columns = withAutoIncrementValues(c, table, columns);
        List<String> primaryKey = primaryKey(meta, scope, table);
        return new TableDefinition(
                table,
                columns,
                primaryKey,
                indexes(meta, scope, table, columns, primaryKey),
                foreignKeys(meta, scope, table));
    }

    /** The product's next value, or one past the largest key when it does not say. */
    private List<ColumnDefinition> withAutoIncrementValues(Connection c, String table, List<ColumnDefinition> columns)
            throws SQLException {
        List<ColumnDefinition> result = new ArrayList<>();
        for (ColumnDefinition column : columns) {
            if (column.isAutoIncrement()) {
                OptionalLong next = dialect.autoIncrementNext(c, table, column.name());
                long value = next.isPresent() ? next.getAsLong() : largest(c, table, column.name()) + 1;
                column = new ColumnDefinition(
                        column.name(), column.type(), column.nullable(), OptionalLong.of(value), column.defaultValue());
            }
            result.add(column);
        }
        return result;
    }

    private long largest(Connection c, String table, String column) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery("SELECT max(" + dialect.quote(column) + ") FROM " + dialect.quote(table))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private List<String> primaryKey(DatabaseMetaData meta, Dialect.MetadataScope scope, String table)
            throws SQLException {
        Map<Integer, String> bySequence = new TreeMap<>();
        try (ResultSet rs = meta.getPrimaryKeys(scope.catalog(), scope.schema(), table)) {
            while (rs.next()) {
                bySequence.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
            }
        }
        return List.copyOf(bySequence.values());
    }

    private List<IndexDefinition> indexes(
            DatabaseMetaData meta,
            Dialect.MetadataScope scope,
            String table,
            List<ColumnDefinition> columns,
            List<String> primaryKey)
            throws SQLException {
        Set<String> columnNames =
                new HashSet<>(columns.stream().map(ColumnDefinition::name).toList());
        Map<String, IndexBuilder> byName = new LinkedHashMap<>();
        try (ResultSet rs = meta.getIndexInfo(scope.catalog(), scope.schema(), table, false, true)) {
            while (rs.next()) {
                if (rs.getShort("TYPE") == DatabaseMetaData.tableIndexStatistic) {
                    continue;
                }
                String name = rs.getString("INDEX_NAME");
                IndexBuilder index = byName.computeIfAbsent(name, IndexBuilder::new);
                index.unique = !rs.getBoolean("NON_UNIQUE");
                index.filtered |= rs.getString("FILTER_CONDITION") != null;
                String column = rs.getString("COLUMN_NAME");
                index.expression |= column == null || !columnNames.contains(column);
                index.columns.put(
                        rs.getInt("ORDINAL_POSITION"),
                        new IndexColumn(column, "D".equals(rs.getString("ASC_OR_DESC"))));
            }
        }
        List<IndexDefinition> indexes = new ArrayList<>();
        for (IndexBuilder index : byName.values()) {
            IndexDefinition definition =
                    new IndexDefinition(index.name, index.unique, List.copyOf(index.columns.values()));
            if (index.unique
                    && definition.columns().stream()
                            .map(IndexColumn::name)
                            .toList()
                            .equals(primaryKey)) {
                continue; // the primary key's own index
            }
            if (index.filtered || index.expression) {
                log.warn(
                        "jdbcCopy: index {} on {} is partial or on an expression and is not copied", index.name, table);
                continue;
            }
            indexes.add(definition);
        }
        return indexes;
    }

    private List<ForeignKeyDefinition> foreignKeys(DatabaseMetaData meta, Dialect.MetadataScope scope, String table)
            throws SQLException {
        Map<String, ForeignKeyBuilder> byName = new LinkedHashMap<>();
        try (ResultSet rs = meta.getImportedKeys(scope.catalog(), scope.schema(), table)) {
            while (rs.next()) {
                String referenced = rs.getString("PKTABLE_NAME");
                String reported = rs.getString("FK_NAME");
                String name = reported != null ? reported : table + "_" + referenced + "_fkey";
                ForeignKeyBuilder key = byName.computeIfAbsent(name, k -> new ForeignKeyBuilder(name, referenced));
                int sequence = rs.getInt("KEY_SEQ");
                key.columns.put(sequence, rs.getString("FKCOLUMN_NAME"));
                key.referencedColumns.put(sequence, rs.getString("PKCOLUMN_NAME"));
                key.onUpdate = rule(rs.getShort("UPDATE_RULE"));
                key.onDelete = rule(rs.getShort("DELETE_RULE"));
            }
        }
        List<ForeignKeyDefinition> keys = new ArrayList<>();
        for (ForeignKeyBuilder key : byName.values()) {
            if (!tableFilter.test(key.referencedTable)) {
                log.warn(
                        "jdbcCopy: foreign key {} of {} references {}, which is not copied; the key is left out",
                        key.name,
                        table,
                        key.referencedTable);
                continue;
            }
            keys.add(new ForeignKeyDefinition(
                    key.name,
                    List.copyOf(key.columns.values()),
                    key.referencedTable,
                    List.copyOf(key.referencedColumns.values()),
                    key.onUpdate,
                    key.onDelete));
        }
        return keys;
    }

    private static String rule(short rule) {
        return switch (rule) {
            case DatabaseMetaData.importedKeyCascade -> "CASCADE";
            case DatabaseMetaData.importedKeySetNull -> "SET NULL";
            case DatabaseMetaData.importedKeySetDefault -> "SET DEFAULT";
            case DatabaseMetaData.importedKeyRestrict -> "RESTRICT";
            default -> "NO ACTION";
        };
    }

    /** A name as a metadata pattern that matches only itself: '_' and '%' escaped. */
    private static String escaped(DatabaseMetaData meta, String name) throws SQLException {
        if (name == null) {
            return null;
        }
        String escape = meta.getSearchStringEscape();
        if (escape == null || escape.isEmpty()) {
            return name;
        }
        return name.replace(escape, escape + escape).replace("_", escape + "_").replace("%", escape + "%");
    }

    private static boolean isSystem(String schema) {
        return schema != null && SYSTEM_SCHEMAS.contains(schema.toLowerCase(Locale.ROOT));
    }

    /** Rows of getIndexInfo gathered per index. */
    private static final class IndexBuilder {
        final String name;
        final Map<Integer, IndexColumn> columns = new TreeMap<>();
        boolean unique;
        boolean filtered;
        boolean expression;

        IndexBuilder(String name) {
            this.name = name;
        }
    }

    /** Rows of getImportedKeys gathered per foreign key. */
    private static final class ForeignKeyBuilder {
        final String name;
        final String referencedTable;
        final Map<Integer, String> columns = new TreeMap<>();
        final Map<Integer, String> referencedColumns = new TreeMap<>();
        String onUpdate;
        String onDelete;

        ForeignKeyBuilder(String name, String referencedTable) {
            this.name = name;
            this.referencedTable = referencedTable;
        }
    }
}
