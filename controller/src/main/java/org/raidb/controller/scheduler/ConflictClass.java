package org.raidb.controller.scheduler;

import java.util.List;
import java.util.StringJoiner;

/**
 * What two writes must agree on the order of, when both claim it: every table, a table, the rows of
 * one of its unique indexes, one value of that index (a row, for the primary key), all sequences, or
 * one sequence. Classes form a tree, and claiming one claims "some part of" each of its ancestors
 * (an intention, {@link LockMode}): a whole table therefore meets every row of it, and two rows of
 * it meet only if they are the same row.
 *
 * <pre>
 * everything ─┬─ table ── unique index ── leading values ── value ─┬─ the row's key
 *             │                                                    └─ the row's other columns
 *             └─ sequences ── sequence
 * </pre>
 *
 * <p>Leading values (of a composite index's first columns) are what a write pinning only those
 * columns takes: {@code DELETE FROM line WHERE order_id = 5} meets every line of order 5 and no
 * other. A row's two parts are PostgreSQL's row locks: a foreign-key check holds the parent row's
 * key (FOR KEY SHARE) and an UPDATE that changes no unique column holds its other columns (FOR NO
 * KEY UPDATE); the two do not wait for each other on the backend, and their results do not depend
 * on their order, so they must not wait for each other here either, where waiting would also make
 * cycles no backend has.
 *
 * @param table the table, or the sequence for {@link Kind#SEQUENCE}; null above them
 * @param index the index's columns as written in messages, "(id)" or "(a, b)", or the index's name
 *     when its entries are not columns (expressions, partial indexes)
 * @param key the value's columns' canonical values, in the index's order (only the leading ones
 *     for {@link Kind#LEADING_VALUES}); null above
 * @param row whether the index is the table's primary key: its values are rows
 */
public record ConflictClass(Kind kind, String table, String index, List<String> key, boolean row) {
    /** A key value standing for SQL NULL (no text value holds a NUL character). */
    public static final String NULL_VALUE = "\0";
    /** Longest stretch of a key value that messages show. */
    private static final int SHOWN_VALUE = 60;

    public static final ConflictClass EVERYTHING = new ConflictClass(Kind.EVERYTHING, null, null, null, false);
    public static final ConflictClass SEQUENCES = new ConflictClass(Kind.SEQUENCES, null, null, null, false);

    public enum Kind {
        EVERYTHING,
        TABLE,
        INDEX,
        LEADING_VALUES,
        KEY,
        ROW_KEY,
        ROW_VALUES,
        SEQUENCES,
        SEQUENCE
    }

    public ConflictClass {
        key = key == null ? null : List.copyOf(key);
    }

    public static ConflictClass table(String table) {
        return new ConflictClass(Kind.TABLE, table, null, null, false);
    }

    public static ConflictClass sequence(String sequence) {
        return new ConflictClass(Kind.SEQUENCE, sequence, null, null, false);
    }

    /** Every value of a unique index: what a write takes when it may add or free values it cannot name. */
    public static ConflictClass index(String table, String index, boolean primary) {
        return new ConflictClass(Kind.INDEX, table, index, null, primary);
    }

    /** One value of a unique index; of the primary key, one row. */
    public static ConflictClass key(String table, String index, boolean primary, List<String> values) {
        return new ConflictClass(Kind.KEY, table, index, values, primary);
    }

    /** The values of a composite unique index that begin with these (fewer than its columns). */
    public static ConflictClass leadingValues(String table, String index, boolean primary, List<String> leading) {
        return new ConflictClass(Kind.LEADING_VALUES, table, index, leading, primary);
    }

    /** A row's key as foreign-key checks hold it (the row: a {@link #key} class of the primary key). */
    public static ConflictClass rowKey(ConflictClass row) {
        return new ConflictClass(Kind.ROW_KEY, row.table, row.index, row.key, true);
    }

    /** A row's columns outside every unique index, as an UPDATE that changes none of those holds them. */
    public static ConflictClass rowValues(ConflictClass row) {
        return new ConflictClass(Kind.ROW_VALUES, row.table, row.index, row.key, true);
    }

    /** The class this one is part of; null for {@link #EVERYTHING}. */
    public ConflictClass parent() {
        return switch (kind) {
            case EVERYTHING -> null;
            case TABLE, SEQUENCES -> EVERYTHING;
            case SEQUENCE -> SEQUENCES;
            case INDEX -> table(table);
            case LEADING_VALUES, KEY ->
                key.size() > 1
                        ? leadingValues(table, index, row, key.subList(0, key.size() - 1))
                        : index(table, index, row);
            case ROW_KEY, ROW_VALUES -> key(table, index, true, key);
        };
    }

    /** The table-level class this one is part of: itself above tables, its table below. */
    public ConflictClass tableLevel() {
        return belowTable() ? table(table) : this;
    }

    /** Whether the class is part of a table: an index, values or a row of it. */
    public boolean belowTable() {
        return switch (kind) {
            case INDEX, LEADING_VALUES, KEY, ROW_KEY, ROW_VALUES -> true;
            case EVERYTHING, TABLE, SEQUENCES, SEQUENCE -> false;
        };
    }

    /** Whether the class names values of an index: leading values, a value, or a part of a row. */
    public boolean namesValues() {
        return belowTable() && kind != Kind.INDEX;
    }

    /** What a lock-wait or deadlock message names: "row (id)=(600) of table r". */
    public String describe() {
        return switch (kind) {
            case EVERYTHING -> "every table";
            case SEQUENCES -> "every sequence";
            case TABLE -> "table " + table;
            case SEQUENCE -> "sequence " + table;
            case INDEX -> (row ? "the rows " : "the unique values " + index + " ") + "of table " + table;
            case LEADING_VALUES ->
                (row ? "the rows " : "the unique values ") + index + " beginning " + values() + " of table " + table;
            case KEY, ROW_VALUES -> (row ? "row " : "unique value ") + index + "=" + values() + " of table " + table;
            case ROW_KEY -> "the key of row " + index + "=" + values() + " of table " + table;
        };
    }

    private String values() {
        StringJoiner out = new StringJoiner(", ", "(", ")");
        for (String v : key) {
            String shown =
                    v.equals(NULL_VALUE) ? "NULL" : v.length() > SHOWN_VALUE ? v.substring(0, SHOWN_VALUE) + "…" : v;
            out.add(shown);
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return describe();
    }
}
