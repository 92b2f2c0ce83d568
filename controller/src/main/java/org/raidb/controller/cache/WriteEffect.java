package org.raidb.controller.cache;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.ReadColumns;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.analysis.TargetRows;

/**
 * What a write may change, as the result cache needs it: everything, whole tables, or some columns of
 * one table (an UPDATE whose SET the analysis read).
 *
 * @param everything the tables cannot be told (unknown shapes, calls, DDL the analyser cannot name)
 * @param tables canonical names of the tables whose every cached read it drops
 * @param updatedTable the table an UPDATE changes only some columns of, or null
 * @param updatedColumns those columns, canonical
 * @param temporaryTable a temporary table it creates, whose reads are never cached, or null
 */
public record WriteEffect(
        boolean everything,
        Set<String> tables,
        String updatedTable,
        Set<String> updatedColumns,
        String temporaryTable) {
    public static final WriteEffect EVERYTHING = new WriteEffect(true, Set.of(), null, Set.of(), null);
    public static final WriteEffect NOTHING = new WriteEffect(false, Set.of(), null, Set.of(), null);

    private static final Pattern TEMPORARY = Pattern.compile("\\bTEMP(ORARY)?\\b", Pattern.CASE_INSENSITIVE);

    public WriteEffect {
        tables = Set.copyOf(tables);
        updatedColumns = Set.copyOf(updatedColumns);
    }

    /**
     * What a statement the write path runs may change.
     *
     * @param a its analysis; null for a write without one (a transaction command has none and changes
     *     nothing by itself; callers pass null only for those)
     * @param text the statement, to tell a temporary table from a shared one
     */
    public static WriteEffect of(AnalyzedStatement a, String text) {
        if (a == null) {
            return EVERYTHING;
        }
        if (a.touchesEverything()) {
            return EVERYTHING;
        }
        if (a.kind() == StatementKind.SESSION_SETTING || a.kind() == StatementKind.TRANSACTION_CONTROL) {
            return NOTHING; // settings are part of the cache key, not data
        }
        Set<String> written = a.tablesWritten().stream().map(WriteEffect::table).collect(Collectors.toSet());
        if (a.kind() == StatementKind.READ && written.isEmpty()) {
            return NOTHING;
        }
        String temporary = a.createdTable() != null
                        && text != null
                        && TEMPORARY.matcher(text).find()
                ? table(a.createdTable())
                : null;
        if (a.kind() == StatementKind.WRITE
                && written.size() == 1
                && a.shape() != null
                && a.shape().target() instanceof TargetRows.Changed c
                && c.change() == TargetRows.Change.UPDATE
                && !c.assignments().isEmpty()) {
            Set<String> columns = c.assignments().keySet().stream()
                    .map(ReadColumns::canonical)
                    .collect(Collectors.toSet());
            return new WriteEffect(false, Set.of(), written.iterator().next(), columns, null);
        }
        if (a.kind() == StatementKind.WRITE && written.isEmpty()) {
            // A SELECT … FOR UPDATE or a nextval(): it changes no table's rows.
            return NOTHING;
        }
        return new WriteEffect(false, written, null, Set.of(), temporary);
    }

    /** A table name as the cache compares it: the last part, unquoted, lower case (a schema-qualified name and a bare one meet). */
    static String table(String name) {
        int dot = name.lastIndexOf('.');
        return ReadColumns.canonical(dot >= 0 ? name.substring(dot + 1) : name).toLowerCase(Locale.ROOT);
    }
}
