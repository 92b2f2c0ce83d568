package org.raidb.controller.request;

import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.raidb.balancer.RaidbLevel;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.transaction.Transaction;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.SqlStates;

/**
 * RAIDb-0 transactions that write on more than one backend. Each backend holds the only copy of its
 * tables, so such a transaction must commit on all of them or on none: two-phase commit (PostgreSQL
 * {@code PREPARE TRANSACTION} / {@code COMMIT PREPARED}), logged so that a restarted controller can
 * finish it. That is not built yet: this is the one place that refuses such a write, and where the
 * transaction would instead be marked for two-phase commit (its commit runs in
 * {@code RequestManager.end}, on every lane of the transaction).
 *
 * <p>RAIDb-1 and RAIDb-2 need no such thing: every backend a transaction writes on holds a copy of
 * what it writes, and one whose commit fails is disabled (or its tables are) while the others carry on.
 */
final class CrossBackendTransactions {
  private CrossBackendTransactions() {}

  /** Refuses a write that would make a RAIDb-0 transaction write on a second backend. */
  static void checkWrite(VirtualDatabase vdb, AnalyzedStatement a, Transaction tx, List<DatabaseBackend> targets)
      throws SQLException {
    if (vdb.level() != RaidbLevel.RAIDB_0 || tx == null || !writes(a)) {
      return;
    }
    Set<DatabaseBackend> written = tx.writtenBackends();
    Set<DatabaseBackend> all = new LinkedHashSet<>(written);
    all.addAll(targets);
    if (all.size() > 1) {
      String before = written.isEmpty() ? "" : "this transaction has written on backend"
          + (written.size() > 1 ? "s " : " ") + names(written) + "; ";
      throw new SQLException(before + "this statement writes " + describe(a) + " on backend"
          + (targets.size() > 1 ? "s " : " ") + names(new LinkedHashSet<>(targets)) + ". A RAIDb-0 transaction writing on"
          + " several backends would need a two-phase commit, which is not supported yet: commit before writing tables of"
          + " another backend, or place the tables one transaction writes on one backend", SqlStates.FEATURE_NOT_SUPPORTED);
    }
  }

  /** Changes data or schema (a SET, or SELECT … FOR UPDATE taking row locks, does not). */
  private static boolean writes(AnalyzedStatement a) {
    boolean changes = a.kind() == StatementKind.WRITE || a.kind() == StatementKind.DDL || a.kind() == StatementKind.CALL;
    return changes && (a.touchesEverything() || !a.tablesWritten().isEmpty());
  }

  private static String describe(AnalyzedStatement a) {
    return a.touchesEverything() ? "tables the controller cannot tell (so every backend)"
        : String.join(", ", a.tablesWritten().stream().sorted().toList());
  }

  private static String names(Set<DatabaseBackend> backends) {
    return backends.stream().map(DatabaseBackend::name).collect(Collectors.joining(", "));
  }
}
