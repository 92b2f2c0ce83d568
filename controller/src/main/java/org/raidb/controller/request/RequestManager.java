package org.raidb.controller.request;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.raidb.balancer.NoBackendAvailableException;
import org.raidb.balancer.Request;
import org.raidb.balancer.RequestKind;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backend.FailureClassifier;
import org.raidb.controller.result.RowSource;
import org.raidb.controller.session.SessionState;
import org.raidb.controller.transaction.Transaction;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.SqlStates;

/**
 * The request path of DESIGN.md, in order: analyse the statement, take its place in the write order,
 * choose backends, run it, resolve the backends' answers into one, and hand the result back.
 */
public final class RequestManager {
  private static final StatementResult NO_RESULT = new StatementResult(List.of(0L), null);
  /** A statement that goes to every enabled backend and names no table (savepoints). */
  private static final AnalyzedStatement EVERY_BACKEND =
      new AnalyzedStatement(StatementKind.WRITE, Set.of(), Set.of(), false, null, null);

  private final VirtualDatabase vdb;
  private final BackendConnections connections = new BackendConnections();

  public RequestManager(VirtualDatabase vdb) {
    this.vdb = vdb;
  }

  public StatementResult execute(SessionState s, ExecuteRequest r) throws SQLException {
    AnalyzedStatement a = vdb.analyzer().analyze(r.sql());
    if (a.kind() == StatementKind.TRANSACTION_CONTROL) {
      transactionCommand(s, a);
      return NO_RESULT;
    }
    refuseIfAborted(s);
    if (a.kind() == StatementKind.READ) {
      return read(s, a, r);
    }
    StatementResult result = write(s, a, r.sql(), c -> StatementRunner.run(c, r, false, () -> {}, s.running()));
    if (a.kind() == StatementKind.SESSION_SETTING) {
      rememberSetting(s, r.sql());
    }
    return result;
  }

  // ---- reads ------------------------------------------------------------------------------------

  private StatementResult read(SessionState s, AnalyzedStatement a, ExecuteRequest r) throws SQLException {
    Transaction tx = s.transaction();
    SQLException lastFailure = null;
    // A read whose backend fails is retried on another one, so that clients do not see a backend die.
    for (int attempt = 0; attempt < vdb.backends().size(); attempt++) {
      DatabaseBackend b = readBackend(a, tx, lastFailure);
      b.requestStarted();
      Connection c = null;
      try {
        if (tx != null) {
          c = joinTransaction(tx, b, s);
          return StatementRunner.run(c, r, true, () -> {}, s.running());
        }
        c = connections.borrow(b, s);
        c.setAutoCommit(false); // backends stream rows only inside a transaction (pgjdbc cursor fetch)
        Connection owned = c;
        StatementResult result = StatementRunner.run(c, r, true, () -> connections.finishRead(owned, s), s.running());
        if (!(result.results().size() == 1 && result.results().get(0) instanceof RowSource rows && rows.knownRowCount() < 0)) {
          connections.finishRead(c, s); // nothing left open on the connection
        }
        return result;
      } catch (SQLException e) {
        if (tx == null && c != null) {
          connections.giveBack(c, s);
        }
        if (FailureClassifier.isBackendFailure(e)) {
          vdb.disableBackend(b, "read failed: " + e.getMessage());
          if (tx != null) {
            connections.discard(tx.forget(b));
          }
          lastFailure = e;
          continue;
        }
        if (tx != null) {
          tx.abort(e); // PostgreSQL refuses the rest of a transaction after an error, on that backend only
        }
        throw e;
      } finally {
        b.requestEnded();
      }
    }
    throw noBackendLeft(lastFailure);
  }

  private DatabaseBackend readBackend(AnalyzedStatement a, Transaction tx, SQLException lastFailure) throws SQLException {
    Request request = new Request(RequestKind.READ, a.tablesRead(), Set.of(), a.touchesEverything(),
        tx == null ? 0 : tx.id(), tx == null ? Set.of() : tx.backendNames(), tx != null && tx.hasWritten());
    try {
      return vdb.balancer().readBackend(request, vdb.backends());
    } catch (NoBackendAvailableException e) {
      throw unavailable(e, lastFailure);
    }
  }

  // ---- writes -----------------------------------------------------------------------------------

  /** Runs a write on every backend that must apply it, in the write order, and resolves their answers. */
  public StatementResult write(SessionState s, AnalyzedStatement a, String statement, BackendWork work) throws SQLException {
    Transaction tx = s.transaction();
    boolean releaseOrder = false;
    if (tx == null) {
      vdb.writeOrder().acquire();
      releaseOrder = true;
    } else if (!tx.holdsWriteOrder()) {
      vdb.writeOrder().acquire();
      tx.holdsWriteOrder(true);
    }
    try {
      List<DatabaseBackend> targets = writeBackends(a, a.kind().requestKind(), tx);
      vdb.writeOrder().next();
      List<BackendOutcome> outcomes = runOnAll(targets, s, tx, work);
      StatementResult result = resolve(outcomes, statement, tx);
      if (tx != null) {
        tx.markWritten();
      }
      return result;
    } finally {
      if (releaseOrder) {
        vdb.writeOrder().release();
      }
    }
  }

  private List<DatabaseBackend> writeBackends(AnalyzedStatement a, RequestKind kind, Transaction tx) throws SQLException {
    Request request = new Request(kind, a.tablesRead(), a.tablesWritten(), a.touchesEverything(),
        tx == null ? 0 : tx.id(), tx == null ? Set.of() : tx.backendNames(), tx != null && tx.hasWritten());
    try {
      return vdb.balancer().writeBackends(request, vdb.backends());
    } catch (NoBackendAvailableException e) {
      throw unavailable(e, null);
    }
  }

  /**
   * Runs the work on each target at once: the first on this thread, the others on the virtual
   * database's backend threads. Transaction connections are taken beforehand, on this thread,
   * because the transaction's bookkeeping is not shared between threads.
   */
  private List<BackendOutcome> runOnAll(List<DatabaseBackend> targets, SessionState s, Transaction tx, BackendWork work) {
    List<Connection> conns = new ArrayList<>(targets.size());
    List<BackendOutcome> outcomes = new ArrayList<>(targets.size());
    for (DatabaseBackend b : targets) {
      try {
        conns.add(tx != null ? joinTransaction(tx, b, s) : connections.borrow(b, s));
      } catch (SQLException e) {
        conns.add(null);
      }
    }
    List<Future<BackendOutcome>> futures = new ArrayList<>(targets.size());
    for (int i = 1; i < targets.size(); i++) {
      DatabaseBackend b = targets.get(i);
      Connection c = conns.get(i);
      futures.add(vdb.backendThreads().submit(() -> runOne(b, c, s, tx, work)));
    }
    outcomes.add(runOne(targets.get(0), conns.get(0), s, tx, work));
    for (Future<BackendOutcome> f : futures) {
      try {
        outcomes.add(f.get());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        outcomes.add(new BackendOutcome(targets.get(outcomes.size()), null,
            new SQLException("interrupted while waiting for a backend", SqlStates.QUERY_CANCELED)));
      } catch (ExecutionException e) {
        outcomes.add(new BackendOutcome(targets.get(outcomes.size()), null,
            new SQLException("internal error: " + e.getCause(), SqlStates.INTERNAL_ERROR, e.getCause())));
      }
    }
    return outcomes;
  }

  private BackendOutcome runOne(DatabaseBackend b, Connection c, SessionState s, Transaction tx, BackendWork work) {
    if (c == null) {
      return new BackendOutcome(b, null, new SQLException("cannot reach backend " + b.name(), SqlStates.CONNECTION_FAILURE));
    }
    b.requestStarted();
    try {
      return new BackendOutcome(b, work.run(c), null);
    } catch (SQLException e) {
      return new BackendOutcome(b, null, e);
    } catch (RuntimeException e) {
      return new BackendOutcome(b, null, new SQLException("internal error on backend " + b.name() + ": " + e,
          SqlStates.INTERNAL_ERROR, e));
    } finally {
      b.requestEnded();
      if (tx == null) {
        connections.giveBack(c, s);
      }
    }
  }

  private StatementResult resolve(List<BackendOutcome> outcomes, String statement, Transaction tx) throws SQLException {
    OutcomeResolver.Resolution res = OutcomeResolver.resolve(outcomes, statement);
    for (Map.Entry<DatabaseBackend, String> d : res.toDisable().entrySet()) {
      vdb.disableBackend(d.getKey(), d.getValue());
      if (tx != null) {
        connections.discard(tx.forget(d.getKey()));
      }
    }
    for (BackendOutcome o : outcomes) {
      if (o != res.winner() && o.succeeded()) {
        o.result().discard();
      }
    }
    if (res.clientError() != null) {
      if (tx != null) {
        tx.abort(res.clientError());
      }
      throw res.clientError();
    }
    return res.winner().result();
  }

  // ---- transactions -----------------------------------------------------------------------------

  private Connection joinTransaction(Transaction tx, DatabaseBackend b, SessionState s) throws SQLException {
    Connection c = tx.connection(b);
    if (c == null) {
      c = connections.borrow(b, s);
      try {
        c.setAutoCommit(false);
      } catch (SQLException e) {
        connections.discard(c);
        throw e;
      }
      tx.join(b, c);
    }
    return c;
  }

  private void transactionCommand(SessionState s, AnalyzedStatement a) throws SQLException {
    switch (a.transactionCommand()) {
      case BEGIN:
        if (!s.inTransactionMode()) {
          s.beginExplicitTransaction();
        }
        break;
      case COMMIT:
        commit(s);
        break;
      case ROLLBACK:
        rollback(s);
        break;
      case SAVEPOINT:
        savepoint(s, "SAVEPOINT", a.savepointName());
        break;
      case ROLLBACK_TO_SAVEPOINT:
        savepoint(s, "ROLLBACK TO SAVEPOINT", a.savepointName());
        break;
      case RELEASE_SAVEPOINT:
        savepoint(s, "RELEASE SAVEPOINT", a.savepointName());
        break;
      default:
        throw new IllegalStateException(a.transactionCommand().toString());
    }
  }

  public void commit(SessionState s) throws SQLException {
    Transaction tx = s.currentTransaction();
    if (tx == null) {
      s.endTransaction();
      return;
    }
    try {
      SQLException aborted = tx.abortCause();
      if (aborted != null) {
        finish(tx, s, false);
        throw new SQLException("the transaction was rolled back, not committed, because an earlier statement in it failed ("
            + aborted.getSQLState() + ": " + aborted.getMessage() + "); run the transaction again",
            "25P02", aborted);
      }
      finish(tx, s, true);
    } finally {
      end(tx, s);
    }
  }

  public void rollback(SessionState s) throws SQLException {
    Transaction tx = s.currentTransaction();
    if (tx == null) {
      s.endTransaction();
      return;
    }
    try {
      finish(tx, s, false);
    } finally {
      end(tx, s);
    }
  }

  /** Commits or rolls back on every backend of the transaction at once; disagreements disable the minority. */
  private void finish(Transaction tx, SessionState s, boolean commit) throws SQLException {
    List<DatabaseBackend> backends = new ArrayList<>(tx.connections().keySet());
    if (backends.isEmpty()) {
      return;
    }
    List<BackendOutcome> outcomes = runOnAll(backends, s, tx, c -> {
      if (commit) {
        c.commit();
      } else {
        c.rollback();
      }
      return new StatementResult(List.of(), null);
    });
    if (commit) {
      resolve(outcomes, "COMMIT", tx);
    } else {
      // A rollback that fails leaves nothing applied; only a dead backend matters.
      for (BackendOutcome o : outcomes) {
        if (!o.succeeded() && FailureClassifier.isBackendFailure(o.error())) {
          vdb.disableBackend(o.backend(), "rollback failed: " + o.error().getMessage());
        }
      }
    }
  }

  private void end(Transaction tx, SessionState s) {
    for (Connection c : tx.connections().values()) {
      connections.giveBack(c, s);
    }
    tx.connections().clear();
    if (tx.holdsWriteOrder()) {
      tx.holdsWriteOrder(false);
      vdb.writeOrder().release();
    }
    s.endTransaction();
  }

  /**
   * Savepoints must exist on every backend the transaction may later write to, so the transaction
   * joins every enabled backend first.
   */
  public void savepoint(SessionState s, String command, String name) throws SQLException {
    Transaction tx = s.transaction();
    if (tx == null) {
      throw new SQLException("savepoints exist only inside a transaction: turn auto-commit off or send BEGIN first",
          SqlStates.INVALID_TRANSACTION_STATE);
    }
    if (name == null || !name.matches("[A-Za-z_][A-Za-z0-9_$]*")) {
      throw new SQLException("invalid savepoint name '" + name + "': use letters, digits and underscores",
          SqlStates.INVALID_SAVEPOINT);
    }
    if (!command.startsWith("ROLLBACK")) {
      refuseIfAborted(s);
    }
    String sql = command + " " + name;
    List<DatabaseBackend> targets = writeBackends(EVERY_BACKEND, RequestKind.WRITE, tx);
    List<BackendOutcome> outcomes = runOnAll(targets, s, tx, c -> {
      try (java.sql.Statement st = c.createStatement()) {
        st.execute(sql);
      }
      return new StatementResult(List.of(), null);
    });
    resolve(outcomes, sql, tx);
    if (command.startsWith("ROLLBACK")) {
      tx.clearAbort();
    }
  }

  private static void refuseIfAborted(SessionState s) throws SQLException {
    Transaction tx = s.currentTransaction();
    if (tx != null && tx.abortCause() != null) {
      throw new SQLException("current transaction is aborted, commands ignored until end of transaction block "
          + "(it failed on: " + tx.abortCause().getMessage() + "); roll back", "25P02");
    }
  }

  private static void rememberSetting(SessionState s, String sql) {
    String head = sql.trim().toUpperCase(java.util.Locale.ROOT);
    if (head.startsWith("RESET") || head.startsWith("DISCARD")) {
      s.settings().clear();
    } else if (!head.startsWith("SET LOCAL") && !head.startsWith("SET TRANSACTION")
        && !head.startsWith("SET SESSION CHARACTERISTICS")) {
      s.settings().add(sql);
    }
  }

  // ---- errors -----------------------------------------------------------------------------------

  private SQLException unavailable(NoBackendAvailableException e, SQLException cause) {
    boolean anyEnabled = vdb.backends().stream().anyMatch(DatabaseBackend::isEnabled);
    if (!anyEnabled) {
      return noBackendLeft(cause);
    }
    return new SQLException(e.getMessage(), SqlStates.UNDEFINED_TABLE);
  }

  private SQLException noBackendLeft(SQLException cause) {
    return new SQLException("virtual database " + vdb.name() + " has no enabled backend: it refuses requests until an "
        + "administrator enables a backend", SqlStates.CONNECTION_FAILURE, cause);
  }


  public BackendConnections connections() {
    return connections;
  }
}
