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
 */
public record Request(
    RequestKind kind,
    Set<String> tablesRead,
    Set<String> tablesWritten,
    boolean touchesEverything,
    long transactionId,
    Set<String> transactionBackends,
    boolean transactionHasWritten) {

  public static Request autoCommitRead(Set<String> tables) {
    return new Request(RequestKind.READ, tables, Set.of(), false, 0, Set.of(), false);
  }

  public static Request autoCommitWrite(Set<String> written) {
    return new Request(RequestKind.WRITE, Set.of(), written, false, 0, Set.of(), false);
  }

  public boolean inTransaction() {
    return transactionId != 0;
  }
}
