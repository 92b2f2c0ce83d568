package org.raidb.controller.determinism;

import java.util.Locale;
import org.raidb.driver.sql.SqlSyntax;

/**
 * The SQL family a backend speaks, as far as determinism cares: how its text is lexed (which
 * quotes, comments and escapes exist), which non-deterministic calls it has, and how a literal of
 * each type is written.
 */
public enum SqlDialect {
    POSTGRESQL,
    /** MariaDB and MySQL: one lexer, one set of time and random functions. */
    MARIADB,
    /**
     * Any other database: lexed like PostgreSQL (the closest to ANSI), recognising the calls of both
     * families above, and writing ANSI literals ({@code TIMESTAMP WITH TIME ZONE '…'}).
     */
    GENERIC;

    /** The dialect for a JDBC {@code DatabaseMetaData.getDatabaseProductName()}. */
    public static SqlDialect of(String databaseProductName) {
        if (databaseProductName == null) {
            return GENERIC;
        }
        String name = databaseProductName.toLowerCase(Locale.ROOT);
        if (name.contains("postgres")) {
            return POSTGRESQL;
        }
        if (name.contains("mariadb") || name.contains("mysql")) {
            return MARIADB;
        }
        return GENERIC;
    }

    /**
     * How the text is lexed: MariaDB the MySQL way (backslash escapes in every quoted string, {@code
     * #} comments, {@code -- } only with a following space, backtick identifiers, executable {@code
     * /*! … *}{@code /} comments, block comments that do not nest, no dollar quotes); the others as
     * PostgreSQL does.
     */
    public SqlSyntax syntax() {
        return this == MARIADB ? SqlSyntax.MYSQL : SqlSyntax.POSTGRESQL;
    }
}
