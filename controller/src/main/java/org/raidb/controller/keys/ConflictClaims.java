package org.raidb.controller.keys;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.SqlValue;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.analysis.TargetRows;
import org.raidb.controller.analysis.WriteShape;
import org.raidb.controller.keys.TableKeys.Action;
import org.raidb.controller.keys.TableKeys.ForeignKey;
import org.raidb.controller.keys.TableKeys.KeyColumn;
import org.raidb.controller.keys.TableKeys.Omitted;
import org.raidb.controller.keys.TableKeys.UniqueIndex;
import org.raidb.controller.scheduler.Claim;
import org.raidb.controller.scheduler.ConflictClass;
import org.raidb.controller.scheduler.LockMode;

/**
 * The conflict classes a write claims (DESIGN, step 4), from its analysis ({@link WriteShape}), the
 * backends' catalogue ({@link KeyCatalog}) and the values bound for this execution:
 *
 * <ul>
 *   <li>the rows it names by primary key ({@code WHERE pk = ?}, {@code pk IN (…)}, every column of a
 *       composite key, an INSERT's key values), exclusive, shared for {@code FOR SHARE};
 *   <li>every unique value it writes, so that two inserts of one value under different keys meet;
 *       all values of a unique index when it frees or writes values it cannot name;
 *   <li>the parent row of each foreign key value it writes, shared; a parent's deletion or key change
 *       checks (shared) or writes (exclusive, for cascades) its referencing tables whole;
 *   <li>the sequences it draws from (nextval, setval, a default drawing from one);
 *   <li>otherwise the whole table: rows it cannot name, tables of unknown facts; every class when a
 *       trigger or rule may write anything.
 * </ul>
 *
 * <p>When in doubt it claims more: a class too coarse costs a wait; one too fine could let two writes
 * of one row run in different orders on two backends, which the backends would not reveal.
 */
public final class ConflictClaims {
    /** More keys of one table than this in one statement: the whole table, cheaper to hold and to wait for. */
    static final int MAX_KEYS = 1_000;

    /**
     * A value an INSERT gets from a sequence: no other write can hold it, so it claims no key. The
     * sequence's class, held to the end of the transaction, orders it against the sequence's other users.
     */
    private static final String FRESH = "\1fresh";

    private final KeyCatalog catalog;

    public ConflictClaims(KeyCatalog catalog) {
        this.catalog = catalog;
    }

    /**
     * The claims of one request: the conflict classes its statements touch, each with the lock mode it needs.
     *
     * @param statements the analyses of the statements one request runs: one statement, or each text
     *     of a {@code Statement.addBatch} batch
     * @param parameterRows the values bound for each execution of the (single) statement: one list, or
     *     one per row of a prepared batch; null for a plain Statement
     */
    public List<Claim> of(List<AnalyzedStatement> statements, List<List<Object>> parameterRows) {
        Claims out = new Claims();
        List<List<Object>> rows =
                parameterRows == null || statements.size() != 1 ? Collections.singletonList(null) : parameterRows;
        for (AnalyzedStatement a : statements) {
            switch (a.kind()) {
                case READ, SESSION_SETTING, TRANSACTION_CONTROL -> {}
                default -> {
                    if (a.shape() == null) {
                        tableLevel(a, out);
                        if (a.kind() == StatementKind.WRITE && !a.touchesEverything()) {
                            a.tablesWritten().forEach(t -> wholeTableWritten(t, out));
                        }
                    } else {
                        shaped(a.shape(), rows, out);
                    }
                }
            }
        }
        return out.list();
    }

    /**
     * A write whose text does not say which rows it touches: its tables whole, or everything. It may
     * also draw from sequences through defaults (DDL adding a serial column, a text of several inserts),
     * so it meets every named sequence's users: sequences as a whole, shared, which two such writes
     * may hold together (their tables keep them apart when they write one table).
     */
    private static void tableLevel(AnalyzedStatement a, Claims out) {
        if (a.touchesEverything()) {
            out.add(Claim.exclusive(ConflictClass.EVERYTHING));
            return;
        }
        a.tablesWritten().forEach(t -> out.add(Claim.exclusive(ConflictClass.table(t))));
        a.tablesRead().forEach(t -> out.add(Claim.exclusive(ConflictClass.table(t))));
        out.add(Claim.shared(ConflictClass.SEQUENCES));
    }

    /**
     * A write of rows of a table it cannot name (TRUNCATE, MERGE, several statements in one text): its
     * triggers may write anything, and what references its rows may be checked or written in turn.
     */
    private void wholeTableWritten(String table, Claims out) {
        TableKeys facts = catalog.table(table, null);
        if (facts != null && facts.triggers()) {
            out.add(Claim.exclusive(ConflictClass.EVERYTHING));
        } else if (facts != null) {
            Set<String> seen = new HashSet<>();
            facts.referencedBy().forEach(fk -> referencing(fk, Action.CASCADE, out, seen));
        }
    }

    private void shaped(WriteShape shape, List<List<Object>> parameterRows, Claims out) {
        if (shape.anySequence()) {
            out.add(Claim.exclusive(ConflictClass.SEQUENCES)); // a sequence it does not name: any of them
        }
        shape.sequencesCalled().forEach(s -> out.add(Claim.exclusive(ConflictClass.sequence(s))));
        shape.sequencesDefined().forEach(s -> out.add(Claim.exclusive(ConflictClass.sequence(s))));
        shape.tablesRead().forEach(t -> out.add(Claim.shared(ConflictClass.table(t))));
        for (String t : shape.tablesLocked()) {
            ConflictClass table = ConflictClass.table(t);
            out.add(shape.lockExclusive() ? Claim.exclusive(table) : Claim.shared(table));
        }
        TargetRows target = shape.target();
        if (target == null) {
            return;
        }
        ConflictClass table = ConflictClass.table(target.table());
        TableKeys facts = catalog.table(target.table(), target.schema());
        boolean lockShared = target instanceof TargetRows.Changed c && c.change() == TargetRows.Change.LOCK_SHARED;
        boolean lock = lockShared
                || (target instanceof TargetRows.Changed c2 && c2.change() == TargetRows.Change.LOCK_EXCLUSIVE);
        if (facts == null) {
            out.add(lockShared ? Claim.shared(table) : Claim.exclusive(table));
            if (!lock) {
                out.add(Claim.shared(ConflictClass.SEQUENCES)); // its defaults may draw from any sequence
            }
        } else if (facts.triggers() && !lock) {
            out.add(Claim.exclusive(ConflictClass.EVERYTHING)); // a trigger or rule may write any table
        } else if (target instanceof TargetRows.Inserted i) {
            inserted(i, facts, parameterRows, out);
        } else {
            changed((TargetRows.Changed) target, facts, parameterRows, out);
        }
    }

    // ---- INSERT -----------------------------------------------------------------------------------

    private void inserted(TargetRows.Inserted insert, TableKeys facts, List<List<Object>> parameterRows, Claims out) {
        ConflictClass table = ConflictClass.table(facts.table());
        out.add(new Claim(table, LockMode.IX)); // rows nobody else can name before this transaction ends
        for (KeyColumn c : facts.columns()) {
            if (c.counter()) {
                out.add(Claim.exclusive(ConflictClass.sequence(c.sequence())));
            }
        }
        if (insert.upsert() || insert.rows() == null) {
            // An upsert may update a row found through any unique index; INSERT … SELECT names no row.
            out.add(Claim.exclusive(table));
            for (KeyColumn c : facts.columns()) {
                if (c.sequence() != null || c.omitted() == Omitted.OPAQUE) {
                    omitted(c, table, out); // whichever rows leave it to its default
                }
            }
            facts.references().forEach(fk -> out.add(Claim.shared(ConflictClass.table(fk.parent()))));
            if (insert.upsert()) {
                facts.referencedBy().forEach(fk -> referencing(fk, fk.onUpdate(), out, new HashSet<>()));
            }
            return;
        }
        for (List<Object> parameters : parameterRows) {
            for (List<SqlValue> row : insert.rows()) {
                String[] values = rowValues(insert, row, facts, parameters, table, out);
                if (values == null) {
                    out.add(Claim.exclusive(table));
                    continue;
                }
                for (UniqueIndex u : facts.uniqueIndexes()) {
                    uniqueValue(facts, u, values, out);
                }
                for (ForeignKey fk : facts.references()) {
                    parentRow(fk, facts, values, out);
                }
            }
        }
    }

    /**
     * The canonical value of each column of the table for one inserted row (FRESH, NULL, or null when
     * unsure), claiming the sequences its defaults draw from; null when the row does not fit the table.
     */
    private static String[] rowValues(
            TargetRows.Inserted insert,
            List<SqlValue> row,
            TableKeys facts,
            List<Object> parameters,
            ConflictClass table,
            Claims out) {
        List<KeyColumn> columns = facts.columns();
        String[] values = new String[columns.size()];
        if (insert.columns() == null
                ? row.size() > columns.size()
                : row.size() != insert.columns().size()) {
            return null; // fails on every backend; whichever way, the whole table is the safe answer
        }
        for (int i = 0; i < columns.size(); i++) {
            KeyColumn c = columns.get(i);
            SqlValue v;
            if (insert.columns() == null) {
                v = i < row.size() ? row.get(i) : SqlValue.DEFAULT;
            } else {
                Integer at = given(insert.columns(), c, facts);
                v = at == null ? SqlValue.DEFAULT : row.get(at);
            }
            values[i] = value(v, c, parameters, table, out);
        }
        return values;
    }

    /** Where an INSERT's column list gives the column, or null. */
    private static Integer given(List<String> columns, KeyColumn c, TableKeys facts) {
        for (int i = 0; i < columns.size(); i++) {
            if (facts.same(columns.get(i), c.name())) {
                return i;
            }
        }
        return null;
    }

    /** The value a column gets, canonical; claims what a default or a nextval it relies on draws from. */
    private static String value(SqlValue v, KeyColumn c, List<Object> parameters, ConflictClass table, Claims out) {
        if (v instanceof SqlValue.Default) {
            return omitted(c, table, out);
        }
        if (v instanceof SqlValue.NextValue n) {
            out.add(Claim.exclusive(ConflictClass.sequence(n.sequence())));
            return FRESH;
        }
        return KeyValues.canonical(v, c, parameters);
    }

    /** What a column left to its default gets, claiming its sequence; FRESH, NULL, or null when unsure. */
    private static String omitted(KeyColumn c, ConflictClass table, Claims out) {
        if (c.sequence() != null) {
            out.add(Claim.exclusive(ConflictClass.sequence(c.sequence())));
        }
        return switch (c.omitted()) {
            case FRESH -> FRESH;
            case NULL -> ConflictClass.NULL_VALUE;
            case OTHER -> KeyValues.UNSURE;
            case OPAQUE -> {
                // A user function may read the table or draw from any sequence.
                out.add(Claim.exclusive(table));
                out.add(Claim.shared(ConflictClass.SEQUENCES));
                yield KeyValues.UNSURE;
            }
        };
    }

    /** The value an inserted row takes in a unique index: its key class, or the whole index when unsure. */
    private static void uniqueValue(TableKeys facts, UniqueIndex u, String[] values, Claims out) {
        if (u.columns() == null) {
            out.add(Claim.exclusive(ConflictClass.index(facts.table(), u.label(), u.primary())));
            return;
        }
        List<String> key = new ArrayList<>(u.columns().size());
        for (String column : u.columns()) {
            KeyColumn c = facts.column(column);
            String v = c == null ? KeyValues.UNSURE : values[facts.columns().indexOf(c)];
            if (is(v, FRESH) || (is(v, ConflictClass.NULL_VALUE) && u.nullsDistinct())) {
                return; // no other row can hold this value
            }
            if (is(v, KeyValues.UNSURE)) {
                out.add(Claim.exclusive(ConflictClass.index(facts.table(), u.label(), u.primary())));
                return;
            }
            key.add(v);
        }
        out.add(Claim.exclusive(ConflictClass.key(facts.table(), u.label(), u.primary(), key)));
    }

    /**
     * Whether {@code value} is the marker {@link #FRESH}, {@link ConflictClass#NULL_VALUE} or {@link
     * KeyValues#UNSURE} itself. Markers are told from values by identity: a bound string that reads the same
     * is a value, and must claim its key.
     */
    @SuppressWarnings("ReferenceEquality") // identity is the point: equal text is not the marker
    private static boolean is(String value, String marker) {
        return value == marker;
    }

    /** The parent row a foreign key value needs, shared: it meets that row's deletion or key change. */
    private void parentRow(ForeignKey fk, TableKeys facts, String[] values, Claims out) {
        List<String> childValues = new ArrayList<>(fk.childColumns().size());
        boolean unsure = false;
        for (String column : fk.childColumns()) {
            KeyColumn c = facts.column(column);
            String v = c == null ? KeyValues.UNSURE : values[facts.columns().indexOf(c)];
            if (is(v, ConflictClass.NULL_VALUE)) {
                return; // a NULL in the key references nothing (MATCH SIMPLE)
            }
            unsure |= is(v, KeyValues.UNSURE) || is(v, FRESH);
            childValues.add(v);
        }
        out.add(parentClaim(fk, unsure ? null : childValues));
    }

    /** The parent's key class for these values (in the foreign key's column order), or its whole table. */
    private Claim parentClaim(ForeignKey fk, List<String> childValues) {
        TableKeys parent = catalog.table(fk.parent(), null);
        UniqueIndex u = parent == null || childValues == null ? null : parent.uniqueIndexOn(fk.parentColumns());
        if (u == null) {
            return Claim.shared(ConflictClass.table(fk.parent()));
        }
        List<String> key = new ArrayList<>(u.columns().size());
        for (String column : u.columns()) {
            for (int i = 0; i < fk.parentColumns().size(); i++) {
                if (parent.same(fk.parentColumns().get(i), column)) {
                    key.add(childValues.get(i));
                }
            }
        }
        ConflictClass value = ConflictClass.key(fk.parent(), u.label(), u.primary(), key);
        // PostgreSQL's check holds only the row's key: an UPDATE of the row's other columns goes on beside it.
        return Claim.shared(u.primary() && parent.foreignKeyChecksHoldKeysOnly() ? ConflictClass.rowKey(value) : value);
    }

    // ---- UPDATE, DELETE, SELECT … FOR UPDATE/SHARE --------------------------------------------------

    private void changed(TargetRows.Changed change, TableKeys facts, List<List<Object>> parameterRows, Claims out) {
        ConflictClass table = ConflictClass.table(facts.table());
        boolean shared = change.change() == TargetRows.Change.LOCK_SHARED;
        UniqueIndex pk = facts.primaryKey();
        Set<List<String>> keys = pk == null || change.pinned() == null
                ? null
                : pinnedKeys(pk.columns(), change.pinned(), facts, parameterRows);
        // Not every key column pinned: the leading ones may be (the lines of one order).
        Set<List<String>> leading = keys != null || pk == null || change.pinned() == null
                ? null
                : pinnedKeys(leadingPinned(pk, change.pinned(), facts), change.pinned(), facts, parameterRows);
        if (keys != null) {
            boolean otherColumnsOnly = change.change() == TargetRows.Change.UPDATE
                    && facts.foreignKeyChecksHoldKeysOnly()
                    && !assignsUniqueColumns(change.assignments(), facts);
            for (List<String> key : keys) {
                ConflictClass row = ConflictClass.key(facts.table(), pk.label(), true, key);
                out.add(
                        shared
                                ? Claim.shared(row)
                                : Claim.exclusive(otherColumnsOnly ? ConflictClass.rowValues(row) : row));
            }
        } else if (leading != null) {
            for (List<String> values : leading) {
                ConflictClass rows = ConflictClass.leadingValues(facts.table(), pk.label(), true, values);
                out.add(shared ? Claim.shared(rows) : Claim.exclusive(rows));
            }
        } else {
            out.add(shared ? Claim.shared(table) : Claim.exclusive(table));
        }
        boolean named = keys != null || leading != null;
        switch (change.change()) {
            case DELETE -> {
                if (named) {
                    freesUniqueValues(facts, null, out);
                }
                Set<String> seen = new HashSet<>();
                facts.referencedBy().forEach(fk -> referencing(fk, fk.onDelete(), out, seen));
            }
            case UPDATE -> updated(change, facts, pk, keys, named, parameterRows, out);
            default -> {}
        }
    }

    /**
     * The primary key's leading columns the WHERE clause pins (all but the last at most), or an empty
     * list when it does not pin the first.
     */
    private static List<String> leadingPinned(UniqueIndex pk, Map<String, List<SqlValue>> pinned, TableKeys facts) {
        int n = 0;
        while (n < pk.columns().size() - 1 && pinnedValues(pinned, pk.columns().get(n), facts) != null) {
            n++;
        }
        return pk.columns().subList(0, n);
    }

    /**
     * Whether an UPDATE assigns a column of some unique index (or one whose columns are not known), so
     * that it may change a key other rows reference: PostgreSQL then locks the whole row.
     */
    private static boolean assignsUniqueColumns(Map<String, SqlValue> assignments, TableKeys facts) {
        for (String assigned : assignments.keySet()) {
            KeyColumn c = facts.column(assigned);
            String name = c == null ? assigned : c.name();
            for (UniqueIndex u : facts.uniqueIndexes()) {
                if (u.columns() == null || u.columns().stream().anyMatch(k -> facts.same(k, name))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * @param keys the rows the UPDATE names by their whole primary key, or null
     * @param named whether it names its rows by the primary key's value or leading values
     */
    private void updated(
            TargetRows.Changed change,
            TableKeys facts,
            UniqueIndex pk,
            Set<List<String>> keys,
            boolean named,
            List<List<Object>> parameterRows,
            Claims out) {
        ConflictClass table = ConflictClass.table(facts.table());
        Map<String, SqlValue> set = change.assignments();
        Set<String> assigned = new LinkedHashSet<>();
        for (Map.Entry<String, SqlValue> a : set.entrySet()) {
            KeyColumn c = facts.column(a.getKey());
            if (c == null) {
                continue; // an unknown column fails on every backend
            }
            assigned.add(c.name());
            if (a.getValue() instanceof SqlValue.Default) {
                omitted(c, table, out);
            } else if (a.getValue() instanceof SqlValue.NextValue n) {
                out.add(Claim.exclusive(ConflictClass.sequence(n.sequence())));
            }
            if (c.counter()) {
                out.add(Claim.exclusive(ConflictClass.sequence(c.sequence())));
            }
        }
        if (named) {
            if (pk.columns().stream().anyMatch(assigned::contains)) {
                if (keys != null) {
                    movedKeys(facts, pk, keys, set, parameterRows, out);
                } else {
                    out.add(Claim.exclusive(table)); // rows named by leading values move to keys it cannot name
                }
            }
            freesUniqueValues(facts, assigned, out);
        }
        for (ForeignKey fk : facts.references()) {
            if (fk.childColumns().stream().anyMatch(c -> assigned.contains(columnName(facts, c)))) {
                for (List<Object> parameters : parameterRows) {
                    newParent(fk, facts, set, parameters, out);
                }
            }
        }
        Set<String> seen = new HashSet<>();
        for (ForeignKey fk : facts.referencedBy()) {
            if (fk.parentColumns().stream().anyMatch(c -> assigned.contains(columnName(facts, c)))) {
                referencing(fk, fk.onUpdate(), out, seen);
            }
        }
    }

    /** An UPDATE of primary-key columns: the rows it moves to, or the whole table when a new value is unsure. */
    private static void movedKeys(
            TableKeys facts,
            UniqueIndex pk,
            Set<List<String>> keys,
            Map<String, SqlValue> set,
            List<List<Object>> parameterRows,
            Claims out) {
        for (List<Object> parameters : parameterRows) {
            for (List<String> old : keys) {
                List<String> moved = new ArrayList<>(old);
                for (int i = 0; i < pk.columns().size(); i++) {
                    SqlValue v = assignment(facts, set, pk.columns().get(i));
                    if (v != null) {
                        String canonical =
                                KeyValues.canonical(v, facts.column(pk.columns().get(i)), parameters);
                        if (canonical == null) {
                            out.add(Claim.exclusive(
                                    ConflictClass.table(facts.table()))); // rows move to keys it cannot name
                            return;
                        }
                        moved.set(i, canonical);
                    }
                }
                out.add(Claim.exclusive(ConflictClass.key(facts.table(), pk.label(), true, moved)));
            }
        }
    }

    /**
     * A write of named rows that may free or change values of unique indexes other than the primary
     * key (a DELETE: all of them; an UPDATE: those it assigns): the value it frees is not known, and
     * an insert of it elsewhere must meet it, so every value of each such index.
     *
     * @param assigned the columns an UPDATE sets, or null for a DELETE
     */
    private static void freesUniqueValues(TableKeys facts, Set<String> assigned, Claims out) {
        for (UniqueIndex u : facts.uniqueIndexes()) {
            if (u.primary()) {
                continue;
            }
            boolean touched = assigned == null
                    || (u.columns() == null
                            ? !assigned.isEmpty()
                            : u.columns().stream().anyMatch(assigned::contains));
            if (touched) {
                out.add(Claim.exclusive(ConflictClass.index(facts.table(), u.label(), false)));
            }
        }
    }

    /** An UPDATE setting foreign key columns: the new parent row, when every column gets a known value. */
    private void newParent(
            ForeignKey fk, TableKeys facts, Map<String, SqlValue> set, List<Object> parameters, Claims out) {
        List<String> values = new ArrayList<>();
        for (String column : fk.childColumns()) {
            SqlValue v = assignment(facts, set, column);
            KeyColumn c = facts.column(column);
            String canonical = v == null || c == null ? KeyValues.UNSURE : KeyValues.canonical(v, c, parameters);
            if (is(canonical, ConflictClass.NULL_VALUE)) {
                return;
            }
            if (is(canonical, KeyValues.UNSURE)) {
                out.add(Claim.shared(ConflictClass.table(fk.parent())));
                return;
            }
            values.add(canonical);
        }
        out.add(parentClaim(fk, values));
    }

    /**
     * A parent's rows deleted or their key changed: a check of the referencing table (shared) under NO
     * ACTION and RESTRICT, a write of it (exclusive, and of what references it in turn) under CASCADE,
     * SET NULL and SET DEFAULT. The referencing rows are not known: the whole table.
     */
    private void referencing(ForeignKey fk, Action action, Claims out, Set<String> seen) {
        ConflictClass child = ConflictClass.table(fk.child());
        if (!action.writesChild()) {
            out.add(Claim.shared(child));
            return;
        }
        out.add(Claim.exclusive(child));
        if (!seen.add(fk.child())) {
            return;
        }
        TableKeys facts = catalog.table(fk.child(), null);
        if (facts == null || facts.triggers()) {
            out.add(Claim.exclusive(ConflictClass.EVERYTHING)); // its triggers, or what references it, are not known
            return;
        }
        // Its rows are deleted or their keys changed in turn: what references them is written whole too.
        facts.referencedBy().forEach(next -> referencing(next, Action.CASCADE, out, seen));
    }

    /**
     * The values of key columns a WHERE clause pins, for each execution: every column equated with
     * values, combined; null when there are no columns, a column is not pinned, a value is unsure, or
     * there are too many.
     */
    private static Set<List<String>> pinnedKeys(
            List<String> columns,
            Map<String, List<SqlValue>> pinned,
            TableKeys facts,
            List<List<Object>> parameterRows) {
        if (columns.isEmpty()) {
            return null;
        }
        Set<List<String>> keys = new LinkedHashSet<>();
        for (List<Object> parameters : parameterRows) {
            List<List<String>> perColumn = new ArrayList<>();
            for (String column : columns) {
                List<SqlValue> values = pinnedValues(pinned, column, facts);
                if (values == null) {
                    return null;
                }
                List<String> canonical = new ArrayList<>(values.size());
                for (SqlValue v : values) {
                    String c = KeyValues.canonical(v, facts.column(column), parameters);
                    if (c == null) {
                        return null;
                    }
                    canonical.add(c);
                }
                perColumn.add(canonical);
            }
            if (!product(perColumn, 0, new ArrayList<>(), keys)) {
                return null;
            }
        }
        return keys;
    }

    private static boolean product(
            List<List<String>> perColumn, int column, List<String> prefix, Set<List<String>> out) {
        if (column == perColumn.size()) {
            out.add(List.copyOf(prefix));
            return out.size() <= MAX_KEYS;
        }
        for (String v : perColumn.get(column)) {
            prefix.add(v);
            boolean fits = product(perColumn, column + 1, prefix, out);
            prefix.remove(prefix.size() - 1);
            if (!fits) {
                return false;
            }
        }
        return true;
    }

    private static List<SqlValue> pinnedValues(Map<String, List<SqlValue>> pinned, String column, TableKeys facts) {
        for (Map.Entry<String, List<SqlValue>> p : pinned.entrySet()) {
            if (facts.same(p.getKey(), column)) {
                return p.getValue();
            }
        }
        return null;
    }

    private static SqlValue assignment(TableKeys facts, Map<String, SqlValue> set, String column) {
        for (Map.Entry<String, SqlValue> a : set.entrySet()) {
            if (facts.same(a.getKey(), column)) {
                return a.getValue();
            }
        }
        return null;
    }

    private static String columnName(TableKeys facts, String column) {
        KeyColumn c = facts.column(column);
        return c == null ? column : c.name();
    }

    /** Claims as they accumulate: one per class, the strongest asked for; too many keys of a table become the table. */
    private static final class Claims {
        private final Map<ConflictClass, Claim> claims = new java.util.LinkedHashMap<>();

        void add(Claim c) {
            claims.merge(c.conflictClass(), c, Claims::stronger);
        }

        private static Claim stronger(Claim a, Claim b) {
            LockMode mode;
            if (a.mode() == b.mode()) {
                mode = a.mode();
            } else if (a.mode() == LockMode.EXCLUSIVE
                    || b.mode() == LockMode.EXCLUSIVE
                    || ((a.mode() == LockMode.SHARED) != (b.mode() == LockMode.SHARED)
                            && (a.mode() == LockMode.IX || b.mode() == LockMode.IX))) {
                mode = LockMode.EXCLUSIVE; // shared and intention-exclusive together: nothing finer says both
            } else {
                mode = a.mode() == LockMode.SHARED || b.mode() == LockMode.SHARED ? LockMode.SHARED : LockMode.IX;
            }
            return new Claim(a.conflictClass(), mode);
        }

        /** The claims, without those a whole table claimed exclusive already covers. */
        List<Claim> list() {
            Claim everything = claims.get(ConflictClass.EVERYTHING);
            if (everything != null && everything.mode() == LockMode.EXCLUSIVE) {
                return List.of(everything);
            }
            Map<String, Integer> keysPerTable = new java.util.HashMap<>();
            for (ConflictClass c : claims.keySet()) {
                if (c.namesValues()) {
                    keysPerTable.merge(c.table(), 1, Integer::sum);
                }
            }
            keysPerTable.values().removeIf(n -> n <= MAX_KEYS);
            keysPerTable.keySet().forEach(t -> add(Claim.exclusive(ConflictClass.table(t))));
            List<Claim> out = new ArrayList<>(claims.size());
            for (Claim c : claims.values()) {
                ConflictClass k = c.conflictClass();
                boolean below = k.belowTable();
                Claim table = below ? claims.get(ConflictClass.table(k.table())) : null;
                if (table == null || table.mode() != LockMode.EXCLUSIVE) {
                    out.add(c);
                }
            }
            return out;
        }
    }
}
