package org.raidb.controller.analysis;

/**
 * A value a write gives a column, or compares a column with, as far as its text tells: what the
 * scheduler needs to name the rows and unique values the write touches ({@link WriteShape}).
 * Parameters are only numbered here; their values come with each execution.
 */
public sealed interface SqlValue {
    /** Anything else: an expression, a cast, a subquery. Its value is not known before it runs. */
    SqlValue UNKNOWN = new Unknown();

    SqlValue NULL = new Null();
    SqlValue DEFAULT = new Default();

    /** A literal as written: a number's digits (sign included), or a string's contents. */
    record Literal(String text, boolean string) implements SqlValue {}

    /** A bound parameter, 1-based in the order the backends number them. */
    record Parameter(int index) implements SqlValue {}

    /** {@code nextval('s')} or {@code NEXT VALUE FOR s}: a value no other write can have. */
    record NextValue(String sequence) implements SqlValue {}

    /** The DEFAULT keyword, or a column an INSERT leaves out. */
    record Default() implements SqlValue {}

    record Null() implements SqlValue {}

    record Unknown() implements SqlValue {}
}
