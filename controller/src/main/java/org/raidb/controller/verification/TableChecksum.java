package org.raidb.controller.verification;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checksums of whole tables, independent of the physical order of rows, to tell whether replicas
 * hold the same data.
 *
 * <p>Each checksum reads {@code ROWCOUNT:HEX}. Two methods exist and their checksums are not
 * comparable with each other:
 *
 * <ul>
 *   <li>on PostgreSQL, computed by the server: md5 of the sorted md5s of each row's text form,
 *       which is fast (no rows travel);
 *   <li>the generic JDBC path, for any product: every row is read, its values put in a canonical
 *       form chosen to agree across products (decimals without trailing zeros, ISO dates...), and
 *       the rows' MD5s are added modulo 2^128, so order does not matter and duplicates count.
 * </ul>
 *
 * To compare replicas of different products (PostgreSQL and MariaDB), use {@link
 * #genericChecksums} on all of them, or {@link #portableChecksums} where a PostgreSQL timestamptz
 * is held as a UTC DATETIME in MariaDB. Each table is read by its own statement: compare replicas
 * while no writes run.
 */
public final class TableChecksum {

    private static final Set<String> SYSTEM_SCHEMAS =
            Set.of("pg_catalog", "information_schema", "pg_toast", "mysql", "performance_schema", "sys");
    private static final BigInteger MOD_2_128 = BigInteger.ONE.shiftLeft(128);

    private TableChecksum() {}

    /**
     * Checksums of every base table of the connection's current schema (public on PostgreSQL, the
     * current database on MariaDB), keyed by lower-cased table name: computed in SQL on
     * PostgreSQL, through the generic path on other products.
     */
    public static Map<String, String> checksums(Connection c) throws SQLException {
        return isPostgreSql(c) ? postgresChecksums(c) : genericChecksums(c);
    }

    /**
     * As {@link #checksums(Connection)}, for the base tables among {@code only} (lower-cased names);
     * a name the connection has no table for is left out.
     */
    public static Map<String, String> checksums(Connection c, java.util.Collection<String> only) throws SQLException {
        boolean postgres = isPostgreSql(c);
        Map<String, String> result = new TreeMap<>();
        for (TableName table : baseTables(c)) {
            if (only.contains(table.key())) {
                result.put(
                        table.key(),
                        postgres ? postgresChecksum(c, table.quoted(c)) : genericChecksum(c, table.quoted(c)));
            }
        }
        return result;
    }

    /** How a table's checksum is computed: the two give different checksums for the same rows. */
    public enum Method {
        /** By PostgreSQL itself, over each row's text form: no rows travel. PostgreSQL only. */
        POSTGRES_SQL,
        /**
         * The generic path with zoned values as their UTC date-time ({@link #portableChecksums}): the same on
         * PostgreSQL and MariaDB for the same rows. Every row is read by the caller.
         */
        PORTABLE
    }

    /** The base tables of the connection's current schema, by lower-cased name (as the checksums key them). */
    public static Set<String> tableNames(Connection c) throws SQLException {
        Set<String> names = new java.util.TreeSet<>();
        for (TableName t : baseTables(c)) {
            names.add(t.key());
        }
        return names;
    }

    /**
     * The base table {@code table} (a lower-cased name as {@link #tableNames} gives it) as SQL names it on this
     * connection: quoted and schema-qualified. Empty when the connection has no such table.
     */
    public static java.util.Optional<String> quotedName(Connection c, String table) throws SQLException {
        for (TableName t : baseTables(c)) {
            if (t.key().equals(table)) {
                return java.util.Optional.of(t.quoted(c));
            }
        }
        return java.util.Optional.empty();
    }

    /** The checksum of one table ({@link #quotedName}) by {@code method}. */
    public static String checksum(Connection c, String quotedTable, Method method) throws SQLException {
        return method == Method.POSTGRES_SQL
                ? postgresChecksum(c, quotedTable)
                : genericChecksum(c, quotedTable, CanonicalRow.Instants.AS_UTC_DATE_TIME);
    }

    /** Checksums through the generic JDBC path, whatever the product. */
    public static Map<String, String> genericChecksums(Connection c) throws SQLException {
        return genericChecksums(c, CanonicalRow.Instants.ZONED);
    }

    /**
     * The generic path with values that have a time zone taken as their UTC date-time, so that a
     * PostgreSQL timestamptz equals a MariaDB DATETIME holding the same instant in UTC (which is how
     * the jdbcCopy backuper stores it). Otherwise the same as {@link #genericChecksums}.
     */
    public static Map<String, String> portableChecksums(Connection c) throws SQLException {
        return genericChecksums(c, CanonicalRow.Instants.AS_UTC_DATE_TIME);
    }

    private static Map<String, String> genericChecksums(Connection c, CanonicalRow.Instants instants)
            throws SQLException {
        Map<String, String> result = new TreeMap<>();
        for (TableName table : baseTables(c)) {
            result.put(table.key(), genericChecksum(c, table.quoted(c), instants));
        }
        return result;
    }

    /** Checksums computed by PostgreSQL itself. */
    public static Map<String, String> postgresChecksums(Connection c) throws SQLException {
        Map<String, String> result = new TreeMap<>();
        for (TableName table : baseTables(c)) {
            result.put(table.key(), postgresChecksum(c, table.quoted(c)));
        }
        return result;
    }

    /** Number of rows of {@code table} (a plain or already quoted name). */
    public static long rowCount(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Whether the connection is to PostgreSQL (the SQL path applies). */
    public static boolean isPostgreSql(Connection c) throws SQLException {
        return c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT).contains("postgres");
    }

    static String postgresChecksum(Connection c, String quotedTable) throws SQLException {
        // Sorting the row md5s makes the result independent of physical order; coalesce covers the
        // empty table, where string_agg gives NULL. The alias is unusual so that no column shadows it.
        String sql =
                "SELECT count(*), coalesce(md5(string_agg(md5(raidb_row::text), '' ORDER BY md5(raidb_row::text))), md5(''))"
                        + " FROM " + quotedTable + " raidb_row";
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1) + ":" + rs.getString(2);
        }
    }

    static String genericChecksum(Connection c, String quotedTable) throws SQLException {
        return genericChecksum(c, quotedTable, CanonicalRow.Instants.ZONED);
    }

    private static String genericChecksum(Connection c, String quotedTable, CanonicalRow.Instants instants)
            throws SQLException {
        BigInteger sum = BigInteger.ZERO;
        long count = 0;
        MessageDigest md5 = md5();
        try (Statement s = c.createStatement()) {
            s.setFetchSize(1000);
            try (ResultSet rs = s.executeQuery("SELECT * FROM " + quotedTable)) {
                ResultSetMetaData meta = rs.getMetaData();
                while (rs.next()) {
                    String row = CanonicalRow.of(rs, meta, instants);
                    sum = sum.add(new BigInteger(1, md5.digest(row.getBytes(StandardCharsets.UTF_8))))
                            .mod(MOD_2_128);
                    count++;
                }
            }
        }
        return count + ":" + String.format("%032x", sum);
    }

    private static List<TableName> baseTables(Connection c) throws SQLException {
        DatabaseMetaData meta = c.getMetaData();
        String schema = currentSchema(c);
        List<TableName> tables = new ArrayList<>();
        try (ResultSet rs = meta.getTables(c.getCatalog(), schema, "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                String tableSchema = rs.getString("TABLE_SCHEM");
                String tableCatalog = rs.getString("TABLE_CAT");
                if (isSystem(tableSchema) || isSystem(tableCatalog)) {
                    continue;
                }
                tables.add(new TableName(tableSchema, rs.getString("TABLE_NAME")));
            }
        }
        return tables;
    }

    private static String currentSchema(Connection c) throws SQLException {
        if (!isPostgreSql(c)) {
            return null; // MariaDB: the catalog is the database, schemas are not used
        }
        String schema = c.getSchema();
        return schema == null ? "public" : schema;
    }

    private static boolean isSystem(String schema) {
        return schema != null && SYSTEM_SCHEMAS.contains(schema.toLowerCase(Locale.ROOT));
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JRE has MD5", e);
        }
    }

    /** A table as listed by DatabaseMetaData. */
    private record TableName(String schema, String name) {
        String key() {
            return name.toLowerCase(Locale.ROOT);
        }

        String quoted(Connection c) throws SQLException {
            String quote = c.getMetaData().getIdentifierQuoteString();
            if (quote == null || quote.isBlank()) {
                return schema == null ? name : schema + "." + name;
            }
            String q = quote.trim();
            String quotedName = q + name.replace(q, q + q) + q;
            return schema == null ? quotedName : q + schema.replace(q, q + q) + q + "." + quotedName;
        }
    }
}
