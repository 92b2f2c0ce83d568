package org.raidb.driver.sql;

/** What a {@link SqlLexer} token is. */
public enum TokenKind {
    /** A keyword or an unquoted name. */
    WORD,
    /** {@code "name"} and {@code U&"name"}; {@code `name`} in MySQL. */
    QUOTED_IDENTIFIER,
    /**
     * A string: {@code '…'}, with its prefix if it has one ({@code E'…'}, {@code B'…'}, {@code X'…'},
     * {@code N'…'}, {@code U&'…'}, MySQL's {@code _utf8mb4'…'}); a PostgreSQL dollar quote {@code
     * $tag$…$tag$}; MySQL's {@code "…"}.
     */
    STRING,
    /** Digits with what follows them up to the next symbol: {@code 1.5e-3}, {@code 0x1F}, MySQL's {@code 1abc}. */
    NUMBER,
    /** A JDBC parameter marker {@code ?}. */
    PARAMETER,
    /** PostgreSQL's numbered parameter {@code $1}. */
    POSITIONAL_PARAMETER,
    /**
     * One character of punctuation or operator, or {@code ::} (a PostgreSQL cast) or {@code ??}
     * (pgjdbc's escape for an operator {@code ?}, which is no parameter marker).
     */
    OPERATOR,
    /** The opening brace of a JDBC escape. */
    ESCAPE_OPEN,
    /** The closing brace of a JDBC escape. */
    ESCAPE_CLOSE,
    /**
     * {@code -- …} or {@code /* … *}{@code /}; MySQL's {@code # …}; and the opening marker of a MySQL
     * executable comment ({@code /*!50100}, {@code /*M!}), whose text is code.
     */
    COMMENT,
    WHITESPACE,
    /** Past the last token. */
    END;

    /** Whether the token means something to the database: not whitespace, a comment or the end. */
    public boolean isCode() {
        return this != WHITESPACE && this != COMMENT && this != END;
    }
}
