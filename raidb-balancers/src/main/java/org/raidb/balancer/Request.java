package org.raidb.balancer;

import java.util.Set;

/**
 * The routing view of one request: what it is, which tables it reads and writes, and which
 * transaction it belongs to.
 *
 * @param touchesEverything the controller could not tell which tables the request uses (unparsable
 *     SQL, procedure calls); it must be treated as reading and writing every table
 * @param transactionId 0 in auto-commit mode
 * @param transactionBackends names of the backends the request's transaction already runs on
 *     (a read inside a transaction that has written must go to one of them)
 * @param transactionHasWritten whether the transaction has already sent a write
 * @param createdTable the table a CREATE TABLE, CREATE TEMPORARY TABLE or CREATE TABLE … AS SELECT
 *     makes, or null. Its source tables (those the AS SELECT reads, those its foreign keys reference)
 *     are in {@code tablesRead}: the new table can only live on backends that hold them all.
 */
public record Request(
        RequestKind kind,
        Set<String> tablesRead,
        Set<String> tablesWritten,
        boolean touchesEverything,
        long transactionId,
        Set<String> transactionBackends,
        boolean transactionHasWritten,
        String createdTable) {

    /** A request that creates no table. */
    public Request(
            RequestKind kind,
            Set<String> tablesRead,
            Set<String> tablesWritten,
            boolean touchesEverything,
            long transactionId,
            Set<String> transactionBackends,
            boolean transactionHasWritten) {
        this(
                kind,
                tablesRead,
                tablesWritten,
                touchesEverything,
                transactionId,
                transactionBackends,
                transactionHasWritten,
                null);
    }

    public static Request autoCommitRead(Set<String> tables) {
        return new Request(RequestKind.READ, tables, Set.of(), false, 0, Set.of(), false);
    }

    public static Request autoCommitWrite(Set<String> written) {
        return new Request(RequestKind.WRITE, Set.of(), written, false, 0, Set.of(), false);
    }

    /** An auto-commit CREATE TABLE of {@code table}, reading {@code sourceTables} (empty for a plain CREATE TABLE). */
    public static Request autoCommitCreateTable(String table, Set<String> sourceTables) {
        return new Request(RequestKind.DDL, sourceTables, Set.of(table), false, 0, Set.of(), false, table);
    }

    public boolean inTransaction() {
        return transactionId != 0;
    }

    public boolean createsTable() {
        return createdTable != null;
    }
}
