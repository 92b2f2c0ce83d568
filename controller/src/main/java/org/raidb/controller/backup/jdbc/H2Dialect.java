package org.raidb.controller.backup.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * H2 2.x, the store of jdbcCopy dumps: standard SQL types, identity and sequence values in
 * INFORMATION_SCHEMA. CLOB and BLOB columns cannot be indexed in H2, so indexed text and binary
 * columns are written as the longest VARCHAR and VARBINARY, which read back as TEXT and BINARY.
 */
final class H2Dialect extends Dialect {

    /** H2's longest CHARACTER VARYING and BINARY VARYING. */
    static final int MAX_VARYING = 1_000_000;

    private static final Map<String, TypeKind> KINDS = Map.ofEntries(
            Map.entry("TINYINT", TypeKind.SMALLINT),
            Map.entry("SMALLINT", TypeKind.SMALLINT),
            Map.entry("INTEGER", TypeKind.INTEGER),
            Map.entry("BIGINT", TypeKind.BIGINT),
            Map.entry("NUMERIC", TypeKind.DECIMAL),
            Map.entry("DECIMAL", TypeKind.DECIMAL),
            Map.entry("DECFLOAT", TypeKind.DECIMAL),
            Map.entry("REAL", TypeKind.REAL),
            Map.entry("DOUBLE PRECISION", TypeKind.DOUBLE),
            Map.entry("FLOAT", TypeKind.DOUBLE),
            Map.entry("BOOLEAN", TypeKind.BOOLEAN),
            Map.entry("CHARACTER", TypeKind.CHAR),
            Map.entry("CHARACTER VARYING", TypeKind.VARCHAR),
            Map.entry("CHARACTER LARGE OBJECT", TypeKind.TEXT),
            Map.entry("BINARY", TypeKind.BINARY),
            Map.entry("BINARY VARYING", TypeKind.BINARY),
            Map.entry("BINARY LARGE OBJECT", TypeKind.BINARY),
            Map.entry("DATE", TypeKind.DATE),
            Map.entry("TIME", TypeKind.TIME),
            Map.entry("TIMESTAMP", TypeKind.TIMESTAMP),
            Map.entry("TIMESTAMP WITH TIME ZONE", TypeKind.TIMESTAMPTZ),
            Map.entry("UUID", TypeKind.UUID));

    private static final String IDENTITY_NEXT = "SELECT IDENTITY_BASE FROM INFORMATION_SCHEMA.COLUMNS"
            + " WHERE TABLE_SCHEMA = SCHEMA() AND TABLE_NAME = ? AND COLUMN_NAME = ?";
    private static final String SEQUENCES =
            "SELECT SEQUENCE_NAME, BASE_VALUE, INCREMENT FROM INFORMATION_SCHEMA.SEQUENCES"
                    + " WHERE SEQUENCE_SCHEMA = SCHEMA() ORDER BY 1";

    @Override
    public String productName() {
        return "H2";
    }

    @Override
    public MetadataScope scope(Connection c) throws SQLException {
        return new MetadataScope(null, c.getSchema());
    }

    @Override
    public Optional<ColumnType> columnType(String typeName, int size, int scale) {
        TypeKind kind = KINDS.get(typeName);
        if (kind == null) {
            return Optional.empty();
        }
        return Optional.of(
                switch (kind) {
                    case DECIMAL -> typeName.equals("DECFLOAT") ? ColumnType.of(kind) : ColumnType.decimal(size, scale);
                    case VARCHAR -> size >= MAX_VARYING ? ColumnType.of(TypeKind.TEXT) : ColumnType.sized(kind, size);
                    case CHAR -> ColumnType.sized(kind, size);
                    default -> ColumnType.of(kind);
                });
    }

    @Override
    public OptionalLong autoIncrementNext(Connection c, String table, String column) throws SQLException {
        return firstLong(c, IDENTITY_NEXT, table, column);
    }

    @Override
    public List<SequenceDefinition> sequences(Connection c) throws SQLException {
        List<SequenceDefinition> sequences = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(SEQUENCES)) {
            while (rs.next()) {
                sequences.add(new SequenceDefinition(rs.getString(1), rs.getLong(2), rs.getLong(3)));
            }
        }
        return sequences;
    }

    @Override
    protected String typeSql(ColumnType type) {
        return switch (type.kind()) {
            case SMALLINT -> "SMALLINT";
            case INTEGER -> "INTEGER";
            case BIGINT -> "BIGINT";
            case DECIMAL -> type.size() > 0 ? "NUMERIC(" + type.size() + "," + type.scale() + ")" : "DECFLOAT";
            case REAL -> "REAL";
            case DOUBLE -> "DOUBLE PRECISION";
            case BOOLEAN -> "BOOLEAN";
            case CHAR -> "CHARACTER(" + type.size() + ")";
            case VARCHAR ->
                type.size() < MAX_VARYING ? "CHARACTER VARYING(" + type.size() + ")" : "CHARACTER LARGE OBJECT";
            case TEXT -> "CHARACTER LARGE OBJECT";
            case BINARY -> "BINARY LARGE OBJECT";
            case DATE -> "DATE";
            case TIME -> "TIME(6)";
            case TIMESTAMP -> "TIMESTAMP(6)";
            case TIMESTAMPTZ -> "TIMESTAMP(6) WITH TIME ZONE";
            case UUID -> "UUID";
        };
    }

    @Override
    protected String columnTypeSql(TableDefinition table, ColumnDefinition column) {
        TypeKind kind = column.type().kind();
        boolean large = kind == TypeKind.TEXT
                || kind == TypeKind.BINARY
                || (kind == TypeKind.VARCHAR && column.type().size() >= MAX_VARYING);
        if (large && table.isIndexed(column.name())) {
            return (kind == TypeKind.BINARY ? "BINARY VARYING(" : "CHARACTER VARYING(") + MAX_VARYING + ")";
        }
        return super.columnTypeSql(table, column);
    }

    /** Tables of a dump may reference each other; CASCADE also drops such keys of tables left alone. */
    @Override
    public String dropTablesIfExist(List<String> tables) {
        return super.dropTablesIfExist(tables) + " CASCADE";
    }
}
