package org.raidb.controller.defaults;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Locale;
import org.raidb.controller.determinism.SqlDialect;
import org.raidb.controller.tree.ChildControllers;

/**
 * Reads from one backend's catalogue (its current schema) the tables with volatile columns and the
 * triggers that call non-deterministic built-ins. One query per kind, at start, at enable and after
 * DDL: never per statement.
 */
interface CatalogReader {

    /**
     * Reads the volatile columns and non-deterministic triggers of {@code tables}.
     *
     * @param tables the tables to read (catalogue names as the analyser gives them), or null for
     *     every table of the schema
     */
    CatalogSnapshot read(Connection c, Collection<String> tables) throws SQLException;

    /** Whether DDL is part of the transaction it runs in (PostgreSQL), rather than committing at once (MariaDB). */
    default boolean transactionalDdl() {
        return false;
    }

    /**
     * The reader for the connection's product: PostgreSQL, MariaDB and MySQL have one; others none. A
     * child controller names the product of its own backends, whose reader it answers through one of
     * them, completed table by table where it partitions ({@link ChildCatalogReader}).
     */
    static CatalogReader of(Connection c) throws SQLException {
        String product = c.getMetaData().getDatabaseProductName();
        SqlDialect dialect = SqlDialect.of(product);
        CatalogReader reader = switch (dialect) {
            case POSTGRESQL -> new PostgresCatalogReader();
            case MARIADB ->
                new MariaDbCatalogReader(product.toLowerCase(Locale.ROOT).contains("mysql"));
            case GENERIC -> (connection, tables) -> new CatalogSnapshot(java.util.Map.of(), java.util.List.of());
        };
        return dialect != SqlDialect.GENERIC && ChildControllers.reached(c)
                ? new ChildCatalogReader(reader, dialect)
                : reader;
    }

    /**
     * How tables are keyed: PostgreSQL names as the catalogue holds them (unquoted names were folded
     * to lower case when created), MariaDB names in lower case, since the analyser folds unquoted
     * names and MariaDB on Linux keeps the case they were created with.
     */
    static String key(String table, boolean caseInsensitive) {
        return caseInsensitive ? table.toLowerCase(Locale.ROOT) : table;
    }
}
