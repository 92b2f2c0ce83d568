package org.raidb.controller.analysis;

import java.util.List;
import java.util.Set;
import org.raidb.controller.determinism.TextSpan;

/**
 * The outcome of analysing one SQL text. Immutable and shared between sessions through the
 * analysis cache.
 *
 * @param touchesEverything the tables could not be determined: the statement must be treated as
 *     writing every table (DESIGN: unknown means conservative)
 * @param transactionCommand set only for {@link StatementKind#TRANSACTION_CONTROL}
 * @param savepointName for savepoint commands
 * @param nonDeterministic the text may call now(), random() and the like, which must be replaced by
 *     literals before a write is sent to the backends
 * @param refusal why the statement must not run on a replicated database, or null
 * @param schemaChange what the statement does to a backend's set of tables once it succeeded there
 *     (CREATE, DROP, RENAME), or null
 * @param routineChange the functions whose volatility DDL in it may change, to be read again from
 *     the backends once it has run; null when it changes none
 * @param rewriteSpans for a text of several statements, the statements whose non-deterministic
 *     calls must be replaced (the writes, not the DDL); null for one statement: the whole text
 * @param advisoryLocks the advisory-lock functions it calls, or null: such a statement runs on the
 *     lock backend only ({@code request.AdvisoryLockPath})
 * @param shape the rows, sequences and tables a write touches, finer than {@link #tablesWritten}, for
 *     the scheduler's conflict classes; null when the text does not tell (the write then conflicts
 *     with its tables, or with everything when {@link #touchesEverything})
 */
public record AnalyzedStatement(
        StatementKind kind,
        Set<String> tablesRead,
        Set<String> tablesWritten,
        boolean touchesEverything,
        TransactionCommand transactionCommand,
        String savepointName,
        boolean nonDeterministic,
        String refusal,
        SchemaChange schemaChange,
        RoutineChange routineChange,
        List<TextSpan> rewriteSpans,
        AdvisoryLockCalls advisoryLocks,
        WriteShape shape) {

    public AnalyzedStatement(
            StatementKind kind,
            Set<String> tablesRead,
            Set<String> tablesWritten,
            boolean touchesEverything,
            TransactionCommand transactionCommand,
            String savepointName,
            boolean nonDeterministic,
            String refusal,
            SchemaChange schemaChange,
            RoutineChange routineChange,
            List<TextSpan> rewriteSpans,
            AdvisoryLockCalls advisoryLocks) {
        this(
                kind,
                tablesRead,
                tablesWritten,
                touchesEverything,
                transactionCommand,
                savepointName,
                nonDeterministic,
                refusal,
                schemaChange,
                routineChange,
                rewriteSpans,
                advisoryLocks,
                null);
    }

    public AnalyzedStatement(
            StatementKind kind,
            Set<String> tablesRead,
            Set<String> tablesWritten,
            boolean touchesEverything,
            TransactionCommand transactionCommand,
            String savepointName) {
        this(kind, tablesRead, tablesWritten, touchesEverything, transactionCommand, savepointName, false, null, null);
    }

    public AnalyzedStatement(
            StatementKind kind,
            Set<String> tablesRead,
            Set<String> tablesWritten,
            boolean touchesEverything,
            TransactionCommand transactionCommand,
            String savepointName,
            boolean nonDeterministic,
            String refusal,
            SchemaChange schemaChange) {
        this(
                kind,
                tablesRead,
                tablesWritten,
                touchesEverything,
                transactionCommand,
                savepointName,
                nonDeterministic,
                refusal,
                schemaChange,
                null,
                null,
                null);
    }

    static AnalyzedStatement of(StatementKind kind, Set<String> read, Set<String> written) {
        return new AnalyzedStatement(kind, read, written, false, null, null);
    }

    static AnalyzedStatement unknown(StatementKind kind) {
        return new AnalyzedStatement(kind, Set.of(), Set.of(), true, null, null);
    }

    static AnalyzedStatement transaction(TransactionCommand command, String savepoint) {
        return new AnalyzedStatement(StatementKind.TRANSACTION_CONTROL, Set.of(), Set.of(), false, command, savepoint);
    }

    static AnalyzedStatement refused(String reason) {
        return unknown(StatementKind.WRITE).withDeterminism(false, reason);
    }

    AnalyzedStatement withDeterminism(boolean nonDeterministicCalls, String refusalReason) {
        return new AnalyzedStatement(
                kind,
                tablesRead,
                tablesWritten,
                touchesEverything,
                transactionCommand,
                savepointName,
                nonDeterministicCalls,
                refusalReason,
                schemaChange,
                routineChange,
                rewriteSpans,
                advisoryLocks,
                shape);
    }

    AnalyzedStatement withSchemaChange(SchemaChange change) {
        return new AnalyzedStatement(
                kind,
                tablesRead,
                tablesWritten,
                touchesEverything,
                transactionCommand,
                savepointName,
                nonDeterministic,
                refusal,
                change,
                routineChange,
                rewriteSpans,
                advisoryLocks,
                shape);
    }

    AnalyzedStatement withRoutineChange(RoutineChange change) {
        return new AnalyzedStatement(
                kind,
                tablesRead,
                tablesWritten,
                touchesEverything,
                transactionCommand,
                savepointName,
                nonDeterministic,
                refusal,
                schemaChange,
                change,
                rewriteSpans,
                advisoryLocks,
                shape);
    }

    AnalyzedStatement withAdvisoryLocks(AdvisoryLockCalls calls) {
        return new AnalyzedStatement(
                kind,
                tablesRead,
                tablesWritten,
                touchesEverything,
                transactionCommand,
                savepointName,
                nonDeterministic,
                refusal,
                schemaChange,
                routineChange,
                rewriteSpans,
                calls,
                shape);
    }

    AnalyzedStatement withShape(WriteShape writeShape) {
        return new AnalyzedStatement(
                kind,
                tablesRead,
                tablesWritten,
                touchesEverything,
                transactionCommand,
                savepointName,
                nonDeterministic,
                refusal,
                schemaChange,
                routineChange,
                rewriteSpans,
                advisoryLocks,
                writeShape);
    }

    /**
     * The table (or view) a CREATE TABLE [AS SELECT], CREATE TEMPORARY TABLE, SELECT … INTO or CREATE
     * VIEW makes, or null. Its source tables (what it selects from, what its foreign keys reference)
     * are in {@link #tablesRead}: partial replication places it only where they all are.
     */
    public String createdTable() {
        return schemaChange != null && schemaChange.kind() == SchemaChange.Kind.CREATE && !touchesEverything
                ? schemaChange.name()
                : null;
    }

    /**
     * Whether the statement's text must go through the deterministic rewriter before it is sent: a
     * write or call that may hold non-deterministic calls, or a text of several statements some of
     * whose writes do ({@link #rewriteSpans}).
     */
    public boolean needsRewrite() {
        if (rewriteSpans != null) {
            return !rewriteSpans.isEmpty();
        }
        return nonDeterministic && (kind == StatementKind.WRITE || kind == StatementKind.CALL);
    }
}
