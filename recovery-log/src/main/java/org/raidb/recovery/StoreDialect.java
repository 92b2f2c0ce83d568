package org.raidb.recovery;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;

/**
 * The column types that differ between the stores the log supports. Everything else in the log's
 * SQL is plain SQL-92 that H2, PostgreSQL and MariaDB all accept.
 */
record StoreDialect(String product, String longText, String binary, String inlineBinary, int inlineBinaryLimit) {

    /** H2's longest VARBINARY (its default MAX_STRING_LENGTH). */
    private static final int H2_INLINE_LIMIT = 1_000_000;

    static StoreDialect of(DatabaseMetaData metaData) throws SQLException {
        String product = metaData.getDatabaseProductName();
        String p = product.toLowerCase(Locale.ROOT);
        if (p.contains("postgres")) {
            return new StoreDialect(product, "TEXT", "BYTEA", "BYTEA", Integer.MAX_VALUE);
        }
        if (p.contains("mariadb") || p.contains("mysql")) {
            return new StoreDialect(product, "LONGTEXT", "LONGBLOB", "LONGBLOB", Integer.MAX_VALUE);
        }
        // H2, and the standard names for anything else (HSQLDB, Derby, a RAIDb virtual database whose
        // backends are H2...).
        // A BLOB longer than a few hundred bytes lives in H2's LOB maps, which a store commit then rewrites
        // too: parameters up to H2's VARBINARY limit stay in the row, longer ones go to the BLOB column.
        return new StoreDialect(product, "CLOB", "BLOB", "VARBINARY(" + H2_INLINE_LIMIT + ")", H2_INLINE_LIMIT);
    }
}
