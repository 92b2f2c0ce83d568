package org.raidb.recovery;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;

/**
 * The column types that differ between the stores the log supports. Everything else in the log's
 * SQL is plain SQL-92 that H2, PostgreSQL and MariaDB all accept.
 */
record StoreDialect(String product, String longText, String binary) {

    static StoreDialect of(DatabaseMetaData metaData) throws SQLException {
        String product = metaData.getDatabaseProductName();
        String p = product.toLowerCase(Locale.ROOT);
        if (p.contains("postgres")) {
            return new StoreDialect(product, "TEXT", "BYTEA");
        }
        if (p.contains("mariadb") || p.contains("mysql")) {
            return new StoreDialect(product, "LONGTEXT", "LONGBLOB");
        }
        // H2, and the standard names for anything else (HSQLDB, Derby, a RAIDb virtual database whose
        // backends are H2...).
        return new StoreDialect(product, "CLOB", "BLOB");
    }
}
