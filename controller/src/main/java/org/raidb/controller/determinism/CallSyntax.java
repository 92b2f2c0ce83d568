package org.raidb.controller.determinism;

/**
 * The spellings under which a call is the built-in one: with or without parentheses, with or
 * without a fractional-seconds precision. Any other argument (RAND(42), UNIX_TIMESTAMP(col)) makes
 * it a different, deterministic call that stays as written.
 */
enum CallSyntax {
    /** {@code name()} */
    FUNCTION(false, true, false),
    /** {@code name()} or {@code name(p)} */
    FUNCTION_WITH_PRECISION(false, true, true),
    /** {@code name} */
    KEYWORD(true, false, false),
    /** {@code name} or {@code name(p)}: PostgreSQL's current_timestamp(3) */
    KEYWORD_WITH_PRECISION(true, false, true),
    /** {@code name} or {@code name()} */
    KEYWORD_OR_FUNCTION(true, true, false),
    /** {@code name}, {@code name()} or {@code name(p)}: MariaDB's CURRENT_TIMESTAMP */
    KEYWORD_OR_FUNCTION_WITH_PRECISION(true, true, true);

    final boolean bare;
    final boolean emptyParentheses;
    final boolean precision;

    CallSyntax(boolean bare, boolean emptyParentheses, boolean precision) {
        this.bare = bare;
        this.emptyParentheses = emptyParentheses;
        this.precision = precision;
    }
}
