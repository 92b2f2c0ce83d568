package org.raidb.controller.analysis;

import java.util.List;
import java.util.Map;

/**
 * The rows of one table a write inserts, changes, deletes or locks, as its text describes them,
 * before any catalogue is consulted: column names as the statement writes them (canonical), values
 * as {@link SqlValue}s. Part of the cached analysis.
 */
public sealed interface TargetRows {
    String table();

    /** The schema the statement names the table in, canonical; null when it names none. */
    String schema();

    /**
     * The rows an INSERT adds.
     *
     * @param columns the INSERT's column list, or null when it gives none (the table's columns in order)
     * @param rows its VALUES rows, or null when the rows come from a query or cannot be read
     * @param upsert {@code ON CONFLICT … DO UPDATE} or {@code ON DUPLICATE KEY UPDATE}: it may change
     *     an existing row found through any unique index
     */
    record Inserted(String table, String schema, List<String> columns, List<List<SqlValue>> rows, boolean upsert)
            implements TargetRows {}

    /**
     * The rows an UPDATE or DELETE changes, as far as its text tells.
     *
     * @param pinned for each column the WHERE clause's top-level conjunction equates with values
     *     ({@code col = v}, {@code col IN (v, w)}, {@code (a, b) = (v, w)}), those values; null when the
     *     rows cannot be told from the text (no WHERE, joins, subqueries, calls of unknown functions)
     * @param assignments an UPDATE's SET columns and values; empty otherwise
     */
    record Changed(
            String table,
            String schema,
            Change change,
            Map<String, List<SqlValue>> pinned,
            Map<String, SqlValue> assignments)
            implements TargetRows {}

    enum Change {
        UPDATE,
        DELETE,
        /** SELECT … FOR SHARE / FOR KEY SHARE */
        LOCK_SHARED,
        /** SELECT … FOR UPDATE / FOR NO KEY UPDATE */
        LOCK_EXCLUSIVE
    }
}
