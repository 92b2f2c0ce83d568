package org.raidb.controller.keys;

import java.util.List;
import java.util.Locale;

/**
 * What a backend's catalogue says about one table that decides which writes of it may conflict: its
 * columns (how their values compare, what an INSERT leaving them out gets), its unique indexes
 * (the primary key first), the foreign keys it holds and those that reference it, and whether
 * triggers or rules run on its writes.
 *
 * @param caseInsensitive MariaDB: names compare without regard to case, and are held lower-case
 */
public record TableKeys(
        String table,
        List<KeyColumn> columns,
        List<UniqueIndex> uniqueIndexes,
        List<ForeignKey> references,
        List<ForeignKey> referencedBy,
        boolean triggers,
        boolean caseInsensitive) {

    public TableKeys {
        columns = List.copyOf(columns);
        uniqueIndexes = List.copyOf(uniqueIndexes);
        references = List.copyOf(references);
        referencedBy = List.copyOf(referencedBy);
    }

    /** How a column's values compare, which decides when two spellings name one key. */
    public enum ValueType {
        /** int2, int4, int8, MariaDB's integer types */
        INTEGER,
        /** numeric/decimal, with {@link KeyColumn#scale} */
        NUMERIC,
        /** text and varchar under a deterministic collation: equal only when identical */
        TEXT,
        /** char(n): trailing spaces do not count */
        PADDED_TEXT,
        UUID,
        /** anything else: its values are never taken to name a key */
        OTHER
    }

    /** What an INSERT that leaves a column out (or writes DEFAULT) puts there. */
    public enum Omitted {
        /** NULL: the column has no default */
        NULL,
        /** the next value of {@link KeyColumn#sequence}, or a random UUID: a value no other row has */
        FRESH,
        /** a constant or a built-in expression: some value the controller does not know */
        OTHER,
        /** a call of a user function, which may read or write anything */
        OPAQUE
    }

    /**
     * A column of the table: how its values compare and what an INSERT leaving it out gets.
     *
     * @param scale digits after the point of a numeric column, -1 when unconstrained
     * @param sequence the sequence its default draws from, or MariaDB's AUTO_INCREMENT counter of the
     *     table ({@link #counter}); null for none
     * @param counter MariaDB's AUTO_INCREMENT: every insert into the table moves it, explicit values too
     */
    public record KeyColumn(
            String name, ValueType type, int scale, Omitted omitted, String sequence, boolean counter) {}

    /**
     * A unique index or constraint of the table, the primary key included.
     *
     * @param columns the key columns in index order, or null when its entries are expressions or it is
     *     partial: then no write can say which of its values it touches
     * @param nullsDistinct rows with a NULL in the key never conflict (all but PostgreSQL's NULLS NOT DISTINCT)
     */
    public record UniqueIndex(String name, List<String> columns, boolean primary, boolean nullsDistinct) {
        public UniqueIndex {
            columns = columns == null ? null : List.copyOf(columns);
        }

        /** "(id)", "(a, b)", or the index's name when its entries are not columns: how classes name it. */
        public String label() {
            return columns == null ? name : "(" + String.join(", ", columns) + ")";
        }
    }

    /** What a referenced row's deletion or key change does to the rows referencing it. */
    public enum Action {
        NO_ACTION,
        RESTRICT,
        CASCADE,
        SET_NULL,
        SET_DEFAULT;

        /** Whether it writes the referencing table (rather than only checking it). */
        public boolean writesChild() {
            return this != NO_ACTION && this != RESTRICT;
        }
    }

    public record ForeignKey(
            String child,
            List<String> childColumns,
            String parent,
            List<String> parentColumns,
            Action onDelete,
            Action onUpdate) {
        public ForeignKey {
            childColumns = List.copyOf(childColumns);
            parentColumns = List.copyOf(parentColumns);
        }
    }

    /** The column of that name, or null. */
    public KeyColumn column(String name) {
        for (KeyColumn c : columns) {
            if (same(c.name(), name)) {
                return c;
            }
        }
        return null;
    }

    /** The primary key, or null. */
    public UniqueIndex primaryKey() {
        for (UniqueIndex u : uniqueIndexes) {
            if (u.primary() && u.columns() != null) {
                return u;
            }
        }
        return null;
    }

    /** The unique index whose columns are exactly these (in any order), preferring the primary key; or null. */
    public UniqueIndex uniqueIndexOn(List<String> keyColumns) {
        UniqueIndex found = null;
        for (UniqueIndex u : uniqueIndexes) {
            if (u.columns() != null
                    && u.columns().size() == keyColumns.size()
                    && u.columns().stream().allMatch(c -> keyColumns.stream().anyMatch(k -> same(c, k)))
                    && (found == null || u.primary())) {
                found = u;
            }
        }
        return found;
    }

    /**
     * Whether the backend's foreign-key checks lock only the parent row's key, so that an UPDATE of
     * its other columns neither waits for them nor makes them wait: PostgreSQL's FOR KEY SHARE against
     * FOR NO KEY UPDATE. MariaDB's InnoDB locks the whole record (a shared lock against the update's
     * exclusive one), and its catalogues are the case-insensitive ones.
     */
    public boolean foreignKeyChecksHoldKeysOnly() {
        return !caseInsensitive;
    }

    /** Whether two column names name one column of this table. */
    public boolean same(String a, String b) {
        return caseInsensitive ? a.toLowerCase(Locale.ROOT).equals(b.toLowerCase(Locale.ROOT)) : a.equals(b);
    }
}
