package org.raidb.controller.analysis;

import java.util.Set;

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
    SchemaChange schemaChange) {

  public AnalyzedStatement(StatementKind kind, Set<String> tablesRead, Set<String> tablesWritten,
      boolean touchesEverything, TransactionCommand transactionCommand, String savepointName) {
    this(kind, tablesRead, tablesWritten, touchesEverything, transactionCommand, savepointName, false, null, null);
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

  AnalyzedStatement withDeterminism(boolean nonDeterministicCalls, String refusalReason) {
    return new AnalyzedStatement(kind, tablesRead, tablesWritten, touchesEverything, transactionCommand, savepointName,
        nonDeterministicCalls, refusalReason, schemaChange);
  }

  AnalyzedStatement withSchemaChange(SchemaChange change) {
    return new AnalyzedStatement(kind, tablesRead, tablesWritten, touchesEverything, transactionCommand, savepointName,
        nonDeterministic, refusal, change);
  }

  /**
   * The table (or view) a CREATE TABLE [AS SELECT], CREATE TEMPORARY TABLE, SELECT … INTO or CREATE
   * VIEW makes, or null. Its source tables (what it selects from, what its foreign keys reference)
   * are in {@link #tablesRead}: partial replication places it only where they all are.
   */
  public String createdTable() {
    return schemaChange != null && schemaChange.kind() == SchemaChange.Kind.CREATE && !touchesEverything
        ? schemaChange.name() : null;
  }

  /** Whether the statement's text must go through the deterministic rewriter before it is sent. */
  public boolean needsRewrite() {
    return nonDeterministic && (kind == StatementKind.WRITE || kind == StatementKind.CALL);
  }
}
