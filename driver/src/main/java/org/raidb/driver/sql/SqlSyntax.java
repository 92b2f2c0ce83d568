package org.raidb.driver.sql;

/** The lexical rules of a SQL family: which quotes, comments and escapes its text has. */
public enum SqlSyntax {
    /**
     * PostgreSQL, and the ANSI-like default for other databases: {@code "…"} names, standard strings
     * ({@code ''} doubles a quote, a backslash is a character) except {@code E'…'}, dollar quotes,
     * {@code $1} parameters, block comments that nest.
     */
    POSTGRESQL,
    /**
     * MariaDB and MySQL: {@code `…`} names, backslash escapes in {@code '…'} and {@code "…"} strings
     * (both are strings), {@code #} comments, {@code --} only before whitespace, block comments that do
     * not nest and executable {@code /*! … *}{@code /} ones, {@code $} a letter of names.
     */
    MYSQL
}
