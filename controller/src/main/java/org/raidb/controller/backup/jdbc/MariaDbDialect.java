package org.raidb.controller.backup.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * MariaDB (and MySQL, which lacks sequences): the database is the catalog; AUTO_INCREMENT and
 * SEQUENCE values are read from information_schema and the sequence itself.
 */
final class MariaDbDialect extends Dialect {

    /** Longest VARCHAR that fits a row of utf8mb4 text (65535 bytes, 4 per character). */
    private static final int MAX_VARCHAR = 16_383;

    private static final int MAX_CHAR = 255;
    private static final int MAX_DECIMAL_PRECISION = 65;
    private static final int MAX_DECIMAL_SCALE = 30;
    /** 3072 bytes of index key, 4 bytes per utf8mb4 character. */
    private static final int MAX_KEY_CHARS = 768;
    /** Non-unique indexes on long text or binary columns index this many leading characters or bytes. */
    private static final int INDEX_PREFIX = 255;

    private static final Map<String, TypeKind> KINDS = Map.ofEntries(
            Map.entry("TINYINT", TypeKind.SMALLINT),
            Map.entry("SMALLINT", TypeKind.SMALLINT),
            Map.entry("MEDIUMINT", TypeKind.INTEGER),
            Map.entry("INT", TypeKind.INTEGER),
            Map.entry("INTEGER", TypeKind.INTEGER),
            Map.entry("BIGINT", TypeKind.BIGINT),
            Map.entry("DECIMAL", TypeKind.DECIMAL),
            Map.entry("NUMERIC", TypeKind.DECIMAL),
            Map.entry("FLOAT", TypeKind.REAL),
            Map.entry("DOUBLE", TypeKind.DOUBLE),
            Map.entry("BOOLEAN", TypeKind.BOOLEAN),
            Map.entry("BOOL", TypeKind.BOOLEAN),
            Map.entry("CHAR", TypeKind.CHAR),
            Map.entry("VARCHAR", TypeKind.VARCHAR),
            Map.entry("TINYTEXT", TypeKind.TEXT),
            Map.entry("TEXT", TypeKind.TEXT),
            Map.entry("MEDIUMTEXT", TypeKind.TEXT),
            Map.entry("LONGTEXT", TypeKind.TEXT),
            Map.entry("JSON", TypeKind.TEXT),
            Map.entry("BINARY", TypeKind.BINARY),
            Map.entry("VARBINARY", TypeKind.BINARY),
            Map.entry("TINYBLOB", TypeKind.BINARY),
            Map.entry("BLOB", TypeKind.BINARY),
            Map.entry("MEDIUMBLOB", TypeKind.BINARY),
            Map.entry("LONGBLOB", TypeKind.BINARY),
            Map.entry("DATE", TypeKind.DATE),
            Map.entry("TIME", TypeKind.TIME),
            Map.entry("DATETIME", TypeKind.TIMESTAMP),
            Map.entry("TIMESTAMP", TypeKind.TIMESTAMP),
            Map.entry("UUID", TypeKind.UUID));

    private static final String AUTO_INCREMENT =
            "SELECT AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?";
    private static final String SEQUENCES =
            "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'SEQUENCE' ORDER BY 1";

    @Override
    public String productName() {
        return "MariaDB";
    }

    @Override
    public MetadataScope scope(Connection c) throws SQLException {
        return new MetadataScope(c.getCatalog(), null);
    }

    /**
     * InnoDB takes a REPEATABLE READ transaction's snapshot at its first read of a table, unless the transaction
     * starts WITH CONSISTENT SNAPSHOT. Tables of non-transactional engines (MyISAM, Aria) are read as they are.
     */
    @Override
    public boolean fixSnapshot(Connection source) throws SQLException {
        try (Statement s = source.createStatement()) {
            s.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT");
        }
        return true;
    }

    @Override
    public Optional<ColumnType> columnType(String typeName, int size, int scale) {
        String name = typeName.toUpperCase(Locale.ROOT);
        boolean unsigned = name.contains(" UNSIGNED");
        String base = unsigned ? name.substring(0, name.indexOf(" UNSIGNED")) : name;
        if (base.equals("BIT") && size == 1) {
            return Optional.of(ColumnType.of(TypeKind.BOOLEAN));
        }
        TypeKind kind = KINDS.get(base);
        if (kind == null) {
            return Optional.empty();
        }
        // Unsigned values need the next wider kind to fit.
        return Optional.of(
                switch (kind) {
                    case SMALLINT ->
                        ColumnType.of(unsigned && !base.equals("TINYINT") ? TypeKind.INTEGER : TypeKind.SMALLINT);
                    case INTEGER ->
                        ColumnType.of(unsigned && !base.equals("MEDIUMINT") ? TypeKind.BIGINT : TypeKind.INTEGER);
                    case BIGINT -> unsigned ? ColumnType.decimal(20, 0) : ColumnType.of(kind);
                    case DECIMAL -> ColumnType.decimal(size, scale);
                    case CHAR, VARCHAR -> ColumnType.sized(kind, size);
                    default -> ColumnType.of(kind);
                });
    }

    @Override
    public OptionalLong autoIncrementNext(Connection c, String table, String column) throws SQLException {
        return firstLong(c, AUTO_INCREMENT, table);
    }

    /**
     * A sequence's next_not_cached_value is past the values the server has cached: the copy may skip
     * some numbers, as a MariaDB restart does, but never gives one twice.
     */
    @Override
    public List<SequenceDefinition> sequences(Connection c) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(SEQUENCES)) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        List<SequenceDefinition> sequences = new ArrayList<>();
        for (String name : names) {
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT next_not_cached_value, increment FROM " + quote(name))) {
                rs.next();
                long increment = rs.getLong(2);
                // increment 0 means "as auto_increment_increment", 1 unless the server is configured otherwise
                sequences.add(new SequenceDefinition(name, rs.getLong(1), increment == 0 ? 1 : increment));
            }
        }
        return sequences;
    }

    @Override
    public String quote(String identifier) {
        return quoteWith('`', identifier);
    }

    @Override
    protected String typeSql(ColumnType type) {
        return switch (type.kind()) {
            case SMALLINT -> "SMALLINT";
            case INTEGER -> "INT";
            case BIGINT -> "BIGINT";
            case DECIMAL ->
                type.size() > 0 && type.size() <= MAX_DECIMAL_PRECISION
                        ? "DECIMAL(" + type.size() + "," + Math.min(type.scale(), MAX_DECIMAL_SCALE) + ")"
                        : "DECIMAL(" + MAX_DECIMAL_PRECISION + "," + MAX_DECIMAL_SCALE + ")";
            case REAL -> "FLOAT";
            case DOUBLE -> "DOUBLE";
            case BOOLEAN -> "BOOLEAN";
            case CHAR -> type.size() <= MAX_CHAR ? "CHAR(" + type.size() + ")" : "VARCHAR(" + type.size() + ")";
            case VARCHAR -> type.size() <= MAX_VARCHAR ? "VARCHAR(" + type.size() + ")" : "LONGTEXT";
            case TEXT -> "LONGTEXT";
            case BINARY -> "LONGBLOB";
            case DATE -> "DATE";
            case TIME -> "TIME(6)";
            case TIMESTAMP, TIMESTAMPTZ -> "DATETIME(6)";
            case UUID -> "CHAR(36)";
        };
    }

    /** MariaDB cannot make a primary key of a TEXT or BLOB column: the longest VARCHAR/VARBINARY a key takes instead. */
    @Override
    protected String columnTypeSql(TableDefinition table, ColumnDefinition column) {
        if (table.primaryKey().contains(column.name())) {
            TypeKind kind = column.type().kind();
            if (kind == TypeKind.TEXT
                    || (kind == TypeKind.VARCHAR && column.type().size() > MAX_KEY_CHARS)) {
                return "VARCHAR(" + MAX_KEY_CHARS + ")";
            }
            if (kind == TypeKind.BINARY) {
                return "VARBINARY(" + MAX_KEY_CHARS * 4 + ")";
            }
        }
        return super.columnTypeSql(table, column);
    }

    @Override
    protected String autoIncrementSql() {
        return "AUTO_INCREMENT";
    }

    /**
     * Binary collation: uniqueness and equality as in PostgreSQL, where 'a' and 'A' are two keys;
     * MariaDB's default collation would call them duplicates.
     */
    @Override
    protected String tableOptions() {
        return " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
    }

    /**
     * NO_AUTO_VALUE_ON_ZERO: a copied key 0 stays 0 instead of taking the next AUTO_INCREMENT value.
     * Foreign key checks off: tables are dropped and loaded in any order; the keys are added at the end.
     */
    @Override
    public List<String> targetSessionSetup() {
        return List.of(
                "SET SESSION sql_mode = CONCAT_WS(',', NULLIF(@@sql_mode, ''), 'NO_AUTO_VALUE_ON_ZERO')",
                "SET SESSION foreign_key_checks = 0");
    }

    @Override
    public List<String> targetSessionEnd() {
        return List.of("SET SESSION foreign_key_checks = 1");
    }

    /** MariaDB raises AUTO_INCREMENT to above the largest key by itself; this keeps a gap the source had. */
    @Override
    public List<String> restartAutoIncrement(String table, String column, long next) {
        return List.of("ALTER TABLE " + quote(table) + " AUTO_INCREMENT = " + next);
    }

    /**
     * A non-unique index on long text or binary indexes a prefix (MariaDB requires a length); a unique
     * one indexes the whole value, which MariaDB 10.4+ does through a hash.
     */
    @Override
    protected String indexColumnSql(TableDefinition table, ColumnDefinition column, boolean unique) {
        ColumnType type = column.type();
        boolean longValues = type.kind() == TypeKind.TEXT
                || type.kind() == TypeKind.BINARY
                || (type.kind() == TypeKind.VARCHAR && type.size() > MAX_KEY_CHARS);
        if (longValues && !unique && !table.primaryKey().contains(column.name())) {
            return quote(column.name()) + "(" + INDEX_PREFIX + ")";
        }
        return quote(column.name());
    }

    /** Backslash is an escape in MariaDB strings unless NO_BACKSLASH_ESCAPES. */
    @Override
    protected String stringLiteral(String value) {
        return super.stringLiteral(value.replace("\\", "\\\\"));
    }

    /** No time-zone type and no UUID type that MySQL also has: UTC date-times and text. */
    @Override
    public void bind(PreparedStatement insert, int parameter, TypeKind kind, Object value) throws SQLException {
        if (value instanceof OffsetDateTime instant) {
            insert.setObject(
                    parameter, instant.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime());
        } else if (value instanceof UUID uuid) {
            insert.setString(parameter, uuid.toString());
        } else if (value == null && (kind == TypeKind.UUID || kind == TypeKind.TIMESTAMPTZ)) {
            insert.setNull(parameter, kind == TypeKind.UUID ? Types.CHAR : Types.TIMESTAMP);
        } else {
            super.bind(insert, parameter, kind, value);
        }
    }
}
