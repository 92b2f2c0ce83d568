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
 */
public record AnalyzedStatement(
    StatementKind kind,
    Set<String> tablesRead,
    Set<String> tablesWritten,
    boolean touchesEverything,
    TransactionCommand transactionCommand,
    String savepointName,
    boolean nonDeterministic,
    String refusal) {

  public AnalyzedStatement(StatementKind kind, Set<String> tablesRead, Set<String> tablesWritten,
      boolean touchesEverything, TransactionCommand transactionCommand, String savepointName) {
    this(kind, tablesRead, tablesWritten, touchesEverything, transactionCommand, savepointName, false, null);
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
        nonDeterministicCalls, refusalReason);
  }

  /** Whether the statement's text must go through the deterministic rewriter before it is sent. */
  public boolean needsRewrite() {
    return nonDeterministic && (kind == StatementKind.WRITE || kind == StatementKind.CALL);
  }
}
