package org.raidb.controller.backup.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Collectors;
import org.raidb.controller.backup.BackendEndpoint;
import org.raidb.controller.backup.BackupException;

/**
 * What jdbcCopy needs to know of one product: how its metadata names types, where it keeps
 * sequence and auto-increment values, and the SQL that creates a schema in it. Standard SQL is
 * written here; each product overrides where it differs. The type mapping is in {@link TypeKind}.
 */
public abstract class Dialect {

    /** Where in {@link java.sql.DatabaseMetaData} the connection's own tables are. */
    public record MetadataScope(String catalog, String schema) {}

    /** The dialect of a JDBC URL's product. */
    public static Dialect forUrl(String jdbcUrl) throws BackupException {
        if (jdbcUrl.startsWith("jdbc:postgresql:")) {
            return new PostgresDialect();
        }
        if (jdbcUrl.startsWith("jdbc:mariadb:") || jdbcUrl.startsWith("jdbc:mysql:")) {
            return new MariaDbDialect();
        }
        if (jdbcUrl.startsWith("jdbc:h2:")) {
            return new H2Dialect();
        }
        throw new BackupException(
                "backuper jdbcCopy knows PostgreSQL (jdbc:postgresql:), MariaDB and MySQL (jdbc:mariadb:, "
                        + "jdbc:mysql:) and H2 (jdbc:h2:), not " + jdbcUrl,
                BackupException.UNSUPPORTED);
    }

    /** For messages: "PostgreSQL". */
    public abstract String productName();

    /** Credentials plus what makes bulk loading fast with this product's driver. */
    public Properties connectionProperties(BackendEndpoint endpoint) {
        return endpoint.credentials();
    }

    // ---- reading a schema

    public abstract MetadataScope scope(Connection c) throws SQLException;

    /**
     * Fixes the snapshot of the source's read transaction (auto-commit off, REPEATABLE READ set): true when
     * everything read in it from now on shows the database as it was at this call. False when the product
     * promises no such moment, and a dump must then keep the source's writes held until it ends.
     */
    public boolean fixSnapshot(Connection source) throws SQLException {
        return false;
    }

    /**
     * Keeps the definition of {@code tables} from changing until the source's read transaction ends, where a
     * change would not show as such in the snapshot: a dump of a source that takes writes from the snapshot on.
     */
    public void holdDefinitions(Connection source, List<String> tables) throws SQLException {}

    /**
     * The kind of a column as {@link java.sql.DatabaseMetaData#getColumns} describes it, or empty when
     * jdbcCopy cannot carry that type.
     */
    public abstract Optional<ColumnType> columnType(String typeName, int size, int scale);

    /** The value the next insert without a key gets in an auto-increment column, when the product says. */
    public abstract OptionalLong autoIncrementNext(Connection c, String table, String column) throws SQLException;

    /** The sequences of the connection's schema that belong to no column. */
    public abstract List<SequenceDefinition> sequences(Connection c) throws SQLException;

    /** One value of a row being copied, as the Java object every dialect's {@link #bind} accepts. */
    public Object read(ResultSet rs, int column, TypeKind kind) throws SQLException {
        Object value = switch (kind) {
            case SMALLINT, INTEGER -> rs.getInt(column);
            case BIGINT -> rs.getLong(column);
            case DECIMAL -> rs.getBigDecimal(column);
            case REAL -> rs.getFloat(column);
            case DOUBLE -> rs.getDouble(column);
            case BOOLEAN -> rs.getBoolean(column);
            case CHAR, VARCHAR, TEXT -> rs.getString(column);
            case BINARY -> rs.getBytes(column);
            case DATE -> rs.getObject(column, LocalDate.class);
            case TIME -> rs.getObject(column, LocalTime.class);
            case TIMESTAMP -> rs.getObject(column, LocalDateTime.class);
            case TIMESTAMPTZ -> rs.getObject(column, OffsetDateTime.class);
            case UUID -> uuid(rs.getObject(column));
        };
        // getInt, getBoolean... give 0 and false for NULL
        return rs.wasNull() ? null : value;
    }

    // ---- writing a schema and its data

    /** Standard SQL's double quotes; MariaDB overrides. */
    public String quote(String identifier) {
        return quoteWith('"', identifier);
    }

    /** The product's type for a column of {@code type}. */
    protected abstract String typeSql(ColumnType type);

    /** What makes a column take the next value when an insert leaves it out; empty when its type does. */
    protected String autoIncrementSql() {
        return "GENERATED BY DEFAULT AS IDENTITY";
    }

    /** The type a column is created with; products that cannot index every type look at {@code table}. */
    protected String columnTypeSql(TableDefinition table, ColumnDefinition column) {
        return typeSql(column.type());
    }

    /**
     * Whether DDL takes part in transactions, so that a whole restore can be one transaction that
     * either replaces the tables or leaves them as they were.
     */
    public boolean hasTransactionalDdl() {
        return false;
    }

    /** Statements to run on a target connection before anything is written. */
    public List<String> targetSessionSetup() {
        return List.of();
    }

    /** Statements to run on a target connection after everything is written. */
    public List<String> targetSessionEnd() {
        return List.of();
    }

    /** Drops those of {@code tables} that exist, in one statement so that foreign keys among them do not block it. */
    public String dropTablesIfExist(List<String> tables) {
        return "DROP TABLE IF EXISTS " + tables.stream().map(this::quote).collect(Collectors.joining(", "));
    }

    public String dropSequenceIfExists(String sequence) {
        return "DROP SEQUENCE IF EXISTS " + quote(sequence);
    }

    public String createSequence(SequenceDefinition sequence) {
        StringBuilder sql = new StringBuilder("CREATE SEQUENCE ")
                .append(quote(sequence.name()))
                .append(" INCREMENT BY ")
                .append(sequence.increment())
                .append(" START WITH ")
                .append(sequence.nextValue());
        // The default bounds (1 up, -1 down) would refuse a start beyond them.
        if (sequence.increment() > 0 && sequence.nextValue() < 1) {
            sql.append(" MINVALUE ").append(sequence.nextValue());
        } else if (sequence.increment() < 0 && sequence.nextValue() > -1) {
            sql.append(" MAXVALUE ").append(sequence.nextValue());
        }
        return sql.toString();
    }

    /** Columns, primary key; indexes and foreign keys come after the data. */
    public String createTable(TableDefinition table) {
        StringBuilder sql =
                new StringBuilder("CREATE TABLE ").append(quote(table.name())).append(" (");
        String separator = "";
        for (ColumnDefinition column : table.columns()) {
            sql.append(separator).append(quote(column.name())).append(' ').append(columnTypeSql(table, column));
            if (column.isAutoIncrement()) {
                String clause = autoIncrementSql();
                sql.append(clause.isEmpty() ? "" : " " + clause);
            } else if (column.defaultValue().isPresent()) {
                sql.append(" DEFAULT ").append(literal(column.defaultValue().get(), column.type()));
            }
            if (!column.nullable()) {
                sql.append(" NOT NULL");
            }
            separator = ", ";
        }
        if (!table.primaryKey().isEmpty()) {
            sql.append(", PRIMARY KEY (").append(quotedList(table.primaryKey())).append(')');
        }
        return sql.append(')').append(tableOptions()).toString();
    }

    /** After the closing parenthesis of CREATE TABLE. */
    protected String tableOptions() {
        return "";
    }

    /** Makes the next insert without a key into {@code column} get {@code next}. */
    public List<String> restartAutoIncrement(String table, String column, long next) {
        return List.of("ALTER TABLE " + quote(table) + " ALTER COLUMN " + quote(column) + " RESTART WITH " + next);
    }

    /** {@code name} is the one to create, already made unique among the target's index names. */
    public String createIndex(TableDefinition table, IndexDefinition index, String name) {
        String columns = index.columns().stream()
                .map(c ->
                        indexColumnSql(table, table.column(c.name()), index.unique()) + (c.descending() ? " DESC" : ""))
                .collect(Collectors.joining(", "));
        return "CREATE " + (index.unique() ? "UNIQUE " : "") + "INDEX " + quote(name) + " ON " + quote(table.name())
                + " (" + columns + ")";
    }

    /** A column in an index; products that index long values by prefix only override this. */
    protected String indexColumnSql(TableDefinition table, ColumnDefinition column, boolean unique) {
        return quote(column.name());
    }

    public String addForeignKey(TableDefinition table, ForeignKeyDefinition key) {
        return "ALTER TABLE " + quote(table.name()) + " ADD CONSTRAINT " + quote(key.name())
                + " FOREIGN KEY (" + quotedList(key.columns()) + ") REFERENCES " + quote(key.referencedTable())
                + " (" + quotedList(key.referencedColumns()) + ") ON UPDATE " + key.onUpdate() + " ON DELETE "
                + key.onDelete();
    }

    /** A default as SQL; booleans as TRUE/FALSE whatever the source reported (MariaDB says 1). */
    protected String literal(ColumnDefault value, ColumnType type) {
        if (type.kind() == TypeKind.BOOLEAN) {
            return value.isTrue() ? "TRUE" : "FALSE";
        }
        return switch (value.kind()) {
            case NUMBER -> value.value();
            case BOOLEAN -> value.value().toUpperCase(Locale.ROOT);
            case STRING -> stringLiteral(value.value());
        };
    }

    protected String stringLiteral(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    /** Sets an insert parameter to a value that {@link #read} (of any dialect) returned. */
    public void bind(PreparedStatement insert, int parameter, TypeKind kind, Object value) throws SQLException {
        if (value == null) {
            insert.setNull(parameter, kind.jdbcType());
        } else if (value instanceof byte[] bytes) {
            insert.setBytes(parameter, bytes);
        } else {
            insert.setObject(parameter, value);
        }
    }

    protected String quotedList(List<String> identifiers) {
        return identifiers.stream().map(this::quote).collect(Collectors.joining(", "));
    }

    /** Quotes with {@code quote}, doubling it inside the name, as PostgreSQL, H2 and MariaDB all read it. */
    protected static String quoteWith(char quote, String identifier) {
        String q = String.valueOf(quote);
        return q + identifier.replace(q, q + q) + q;
    }

    /** The first column of the first row of a query with string parameters; empty for no row or NULL. */
    protected static OptionalLong firstLong(Connection c, String sql, String... parameters) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                p.setString(i + 1, parameters[i]);
            }
            try (ResultSet rs = p.executeQuery()) {
                if (!rs.next()) {
                    return OptionalLong.empty();
                }
                long value = rs.getLong(1);
                return rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(value);
            }
        }
    }

    private static UUID uuid(Object value) {
        if (value == null || value instanceof UUID) {
            return (UUID) value;
        }
        return UUID.fromString(value.toString().trim());
    }
}
