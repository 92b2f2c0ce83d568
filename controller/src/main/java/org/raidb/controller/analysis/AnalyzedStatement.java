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
 */
public record AnalyzedStatement(
    StatementKind kind,
    Set<String> tablesRead,
    Set<String> tablesWritten,
    boolean touchesEverything,
    TransactionCommand transactionCommand,
    String savepointName) {

  static AnalyzedStatement of(StatementKind kind, Set<String> read, Set<String> written) {
    return new AnalyzedStatement(kind, read, written, false, null, null);
  }

  static AnalyzedStatement unknown(StatementKind kind) {
    return new AnalyzedStatement(kind, Set.of(), Set.of(), true, null, null);
  }

  static AnalyzedStatement transaction(TransactionCommand command, String savepoint) {
    return new AnalyzedStatement(StatementKind.TRANSACTION_CONTROL, Set.of(), Set.of(), false, command, savepoint);
  }
}
