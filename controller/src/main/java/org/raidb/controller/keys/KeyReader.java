package org.raidb.controller.keys;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Map;
import org.raidb.controller.determinism.SqlDialect;

/**
 * Reads from one backend's catalogue the {@link TableKeys} of the tables of its current schema
 * (PostgreSQL) or database (MariaDB): at start, at enable and after DDL, never per statement. Views,
 * and tables taking part in inheritance or partitioning, are left out: writes to them conflict with
 * their whole table.
 */
interface KeyReader {

    /**
     * What the catalogue holds.
     *
     * @param schema the schema (database) read, as statements name it
     * @param tables by name: catalogue names for PostgreSQL, lower-case for MariaDB
     */
    record Snapshot(String schema, Map<String, TableKeys> tables) {}

    /**
     * Reads what the connection's catalogue says about {@code tables}.
     *
     * @param tables the tables to read, or null for every table
     */
    Snapshot read(Connection c, Collection<String> tables) throws SQLException;

    /** The reader for the connection's product, or null: other products' tables conflict whole. */
    static KeyReader of(Connection c) throws SQLException {
        return switch (SqlDialect.of(c.getMetaData().getDatabaseProductName())) {
            case POSTGRESQL ->
                c.getMetaData().getDatabaseMajorVersion() >= PostgresKeyReader.OLDEST ? new PostgresKeyReader() : null;
            case MARIADB -> new MariaDbKeyReader();
            case GENERIC -> null;
        };
    }
}
