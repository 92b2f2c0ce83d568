package org.raidb.controller.backup.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.stream.Collectors;
import org.raidb.controller.backup.BackendEndpoint;

/** PostgreSQL: types by pgjdbc's TYPE_NAME (its DATA_TYPE calls timestamptz a TIMESTAMP), sequences in pg_sequences. */
final class PostgresDialect extends Dialect {

    /** Longest varchar(n) PostgreSQL accepts; pgjdbc reports unbounded varchar as 2147483647. */
    private static final int MAX_VARCHAR = 10_485_760;
    /** numeric precision PostgreSQL accepts at most; pgjdbc reports an unconstrained numeric as 0 or 131089. */
    private static final int MAX_NUMERIC_PRECISION = 1000;

    private static final Map<String, TypeKind> KINDS = Map.ofEntries(
            Map.entry("int2", TypeKind.SMALLINT),
            Map.entry("smallserial", TypeKind.SMALLINT),
            Map.entry("int4", TypeKind.INTEGER),
            Map.entry("serial", TypeKind.INTEGER),
            Map.entry("int8", TypeKind.BIGINT),
            Map.entry("bigserial", TypeKind.BIGINT),
            Map.entry("numeric", TypeKind.DECIMAL),
            Map.entry("float4", TypeKind.REAL),
            Map.entry("float8", TypeKind.DOUBLE),
            Map.entry("bool", TypeKind.BOOLEAN),
            Map.entry("bpchar", TypeKind.CHAR),
            Map.entry("varchar", TypeKind.VARCHAR),
            Map.entry("text", TypeKind.TEXT),
            Map.entry("bytea", TypeKind.BINARY),
            Map.entry("date", TypeKind.DATE),
            Map.entry("time", TypeKind.TIME),
            Map.entry("timestamp", TypeKind.TIMESTAMP),
            Map.entry("timestamptz", TypeKind.TIMESTAMPTZ),
            Map.entry("uuid", TypeKind.UUID));

    // The sequence behind a serial or identity column; format('%I.%I') quotes as regclass parses.
    private static final String COLUMN_SEQUENCE =
            "SELECT s.last_value, s.start_value, s.increment_by FROM pg_sequences s"
                    + " WHERE format('%I.%I', s.schemaname, s.sequencename)::regclass = pg_get_serial_sequence(?, ?)::regclass";
    // Sequences owned by a column (serial: dependency 'a', identity: 'i') travel with the column.
    private static final String FREE_SEQUENCES = "SELECT s.sequencename, s.last_value, s.start_value, s.increment_by"
            + " FROM pg_sequences s WHERE s.schemaname = current_schema() AND NOT EXISTS (SELECT 1 FROM pg_depend d"
            + " WHERE d.classid = 'pg_class'::regclass AND d.objid = format('%I.%I', s.schemaname, s.sequencename)::regclass"
            + " AND d.deptype IN ('a', 'i')) ORDER BY 1";

    @Override
    public String productName() {
        return "PostgreSQL";
    }

    /** Batched inserts become multi-row inserts: several times faster for a bulk load. */
    @Override
    public Properties connectionProperties(BackendEndpoint endpoint) {
        Properties properties = super.connectionProperties(endpoint);
        properties.setProperty("reWriteBatchedInserts", "true");
        return properties;
    }

    /** A REPEATABLE READ transaction takes its snapshot at its first statement. */
    @Override
    public boolean fixSnapshot(Connection source) throws SQLException {
        try (Statement s = source.createStatement()) {
            s.execute("SELECT 1");
        }
        return true;
    }

    /**
     * TRUNCATE and a table-rewriting ALTER TABLE are not MVCC-safe: a snapshot taken before them reads the table
     * empty. ACCESS SHARE (as pg_dump takes) makes them wait for the dump's end instead.
     */
    @Override
    public void holdDefinitions(Connection source, List<String> tables) throws SQLException {
        if (tables.isEmpty()) {
            return;
        }
        try (Statement s = source.createStatement()) {
            s.execute("LOCK TABLE " + tables.stream().map(this::quote).collect(Collectors.joining(", "))
                    + " IN ACCESS SHARE MODE");
        }
    }

    @Override
    public boolean hasTransactionalDdl() {
        return true;
    }

    @Override
    public MetadataScope scope(Connection c) throws SQLException {
        String schema = c.getSchema();
        return new MetadataScope(null, schema == null ? "public" : schema);
    }

    @Override
    public Optional<ColumnType> columnType(String typeName, int size, int scale) {
        TypeKind kind = KINDS.get(typeName);
        if (kind == null) {
            return Optional.empty();
        }
        return Optional.of(
                switch (kind) {
                    case DECIMAL ->
                        size <= 0 || size > MAX_NUMERIC_PRECISION
                                ? ColumnType.of(kind)
                                : ColumnType.decimal(size, scale);
                    case VARCHAR ->
                        size <= 0 || size > MAX_VARCHAR ? ColumnType.of(TypeKind.TEXT) : ColumnType.sized(kind, size);
                    case CHAR -> ColumnType.sized(kind, size);
                    default -> ColumnType.of(kind);
                });
    }

    @Override
    public OptionalLong autoIncrementNext(Connection c, String table, String column) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(COLUMN_SEQUENCE)) {
            p.setString(1, quote(table));
            p.setString(2, column);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? OptionalLong.of(nextValue(rs, 1)) : OptionalLong.empty();
            }
        }
    }

    @Override
    public List<SequenceDefinition> sequences(Connection c) throws SQLException {
        List<SequenceDefinition> sequences = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(FREE_SEQUENCES)) {
            while (rs.next()) {
                sequences.add(new SequenceDefinition(rs.getString(1), nextValue(rs, 2), rs.getLong(4)));
            }
        }
        return sequences;
    }

    /**
     * From the columns last_value, start_value, increment_by (in this order, the first at {@code
     * lastValueColumn}). last_value is NULL until the first nextval: then the next value is the start.
     */
    private static long nextValue(ResultSet rs, int lastValueColumn) throws SQLException {
        long last = rs.getLong(lastValueColumn);
        boolean called = !rs.wasNull();
        return called ? last + rs.getLong(lastValueColumn + 2) : rs.getLong(lastValueColumn + 1);
    }

    /**
     * Auto-increment columns become serial types, as pg_dump writes the columns most schemas declare:
     * a later pgDump restore over this table can then drop its default (pg_restore --clean cannot
     * drop an identity column's).
     */
    @Override
    protected String columnTypeSql(TableDefinition table, ColumnDefinition column) {
        if (!column.isAutoIncrement()) {
            return super.columnTypeSql(table, column);
        }
        return switch (column.type().kind()) {
            case SMALLINT -> "smallserial";
            case INTEGER -> "serial";
            default -> "bigserial"; // BIGINT, or a MariaDB BIGINT UNSIGNED read as DECIMAL(20,0)
        };
    }

    @Override
    protected String autoIncrementSql() {
        return "";
    }

    /** setval with is_called false: the next nextval returns {@code next} itself. */
    @Override
    public List<String> restartAutoIncrement(String table, String column, long next) {
        return List.of("SELECT setval(pg_get_serial_sequence(" + stringLiteral(quote(table)) + ", "
                + stringLiteral(column) + "), " + next + ", false)");
    }

    @Override
    protected String typeSql(ColumnType type) {
        return switch (type.kind()) {
            case SMALLINT -> "smallint";
            case INTEGER -> "integer";
            case BIGINT -> "bigint";
            case DECIMAL -> type.size() > 0 ? "numeric(" + type.size() + "," + type.scale() + ")" : "numeric";
            case REAL -> "real";
            case DOUBLE -> "double precision";
            case BOOLEAN -> "boolean";
            case CHAR -> "char(" + type.size() + ")";
            case VARCHAR -> type.size() <= MAX_VARCHAR ? "varchar(" + type.size() + ")" : "text";
            case TEXT -> "text";
            case BINARY -> "bytea";
            case DATE -> "date";
            case TIME -> "time";
            case TIMESTAMP -> "timestamp";
            case TIMESTAMPTZ -> "timestamptz";
            case UUID -> "uuid";
        };
    }
}
