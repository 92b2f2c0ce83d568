package org.raidb.controller.request;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.raidb.balancer.ErrorCheckingLoadBalancer;
import org.raidb.balancer.NoBackendAvailableException;
import org.raidb.balancer.Request;
import org.raidb.balancer.RequestKind;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.SchemaChange;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backend.FailureClassifier;
import org.raidb.controller.recovery.LoggedRequest;
import org.raidb.controller.recovery.LoggedStatement;
import org.raidb.controller.recovery.WriteLog;
import org.raidb.controller.determinism.DeterministicRewriter;
import org.raidb.controller.determinism.StatementClock;
import org.raidb.controller.session.SessionState;
import org.raidb.controller.transaction.BackendLane;
import org.raidb.controller.transaction.Transaction;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.SqlStates;

/**
 * The request path of DESIGN.md, in order: analyse the statement, then either read it from one
 * backend or hand it to the {@link WritePath} (schedule, balance, execute, complete); transaction
 * demarcation ends every backend's part of a transaction.
 */
public final class RequestManager {
  private static final StatementResult NO_RESULT = new StatementResult(List.of(0L), null);
  /** A statement that goes to every enabled backend and names no table (savepoints). */
  private static final AnalyzedStatement EVERY_BACKEND =
      new AnalyzedStatement(StatementKind.WRITE, Set.of(), Set.of(), false, null, null);

  private final VirtualDatabase vdb;
  private final BackendConnections connections = new BackendConnections();
  private final WritePath writes;
  private final CheckedReads checkedReads;

  public RequestManager(VirtualDatabase vdb) {
    this.vdb = vdb;
    this.writes = new WritePath(vdb, connections);
    this.checkedReads = new CheckedReads(vdb, connections, writes);
  }

  public StatementResult execute(SessionState s, ExecuteRequest request) throws SQLException {
    AnalyzedStatement a = request.call() ? vdb.analyzer().analyzeCall(request.sql()) : vdb.analyzer().analyze(request.sql());
    if (a.kind() == StatementKind.TRANSACTION_CONTROL) {
      transactionCommand(s, a);
      return NO_RESULT;
    }
    refuseIfAborted(s);
    if (a.refusal() != null) {
      throw new SQLException(a.refusal(), SqlStates.FEATURE_NOT_SUPPORTED);
    }
    ExecuteRequest r = a.needsRewrite() ? deterministic(s, request) : request;
    if (a.kind() == StatementKind.READ) {
      try {
        return read(s, a, r);
      } catch (SQLException e) {
        throw rollBackVictim(s, e);
      }
    }
    boolean setting = a.kind() == StatementKind.SESSION_SETTING;
    // SET and RESET are replayed on each connection a session borrows, not through the log.
    List<LoggedStatement> logged = setting ? List.of() : List.of(new LoggedStatement(r.sql(), r.parameters()));
    // Remembered before it runs, so that the connections it runs on are reset when given back to the pool.
    List<String> settingsBefore = setting ? List.copyOf(s.settings()) : null;
    if (setting) {
      rememberSetting(s, r.sql());
    }
    try {
      return write(s, a, logged, r.sql(), c -> StatementRunner.run(c, r, false, () -> {}, s.running()));
    } catch (SQLException | RuntimeException e) {
      if (setting) {
        s.settings().clear();
        s.settings().addAll(settingsBefore);
      }
      throw e;
    } finally {
      if (setting || a.kind() == StatementKind.DDL) {
        StatementCache.schemaChanged(); // after it ran: results described before are stale now
      }
    }
  }

  /** Runs a write on every backend that must apply it, in the write order; see {@link WritePath}. */
  public StatementResult write(SessionState s, AnalyzedStatement a, List<LoggedStatement> logged, String statement,
      BackendWork work) throws SQLException {
    try {
      return writes.write(s, a, logged, statement, work);
    } catch (SQLException e) {
      throw rollBackVictim(s, e);
    }
  }

  /**
   * The statement with now(), random() and the like replaced by literals computed here once, so that
   * every backend stores the same values (docs/determinism.md). now() is the transaction's start, as
   * on PostgreSQL.
   */
  private ExecuteRequest deterministic(SessionState s, ExecuteRequest r) throws SQLException {
    return r.withSql(deterministicText(s, r.sql()));
  }

  /** The text of a write, made deterministic when its analysis says it may need it. */
  public String deterministicText(SessionState s, String sql) throws SQLException {
    Transaction tx = s.transaction(); // starts it, if this write is the transaction's first statement
    return DeterministicRewriter.rewrite(sql, vdb.dialect(), StatementClock.now(tx == null ? null : tx.start()));
  }

  /**
   * A transaction chosen as a deadlock or serialization victim (SQLState class 40), by the scheduler or
   * by any backend, is rolled back on every backend at once: the same victim everywhere, and its locks
   * freed for the transaction it was in the way of.
   */
  private SQLException rollBackVictim(SessionState s, SQLException e) {
    String state = e.getSQLState();
    if (state != null && state.startsWith("40") && s.currentTransaction() != null) {
      try {
        rollback(s);
      } catch (SQLException ignored) {
        // the rollback's own failures were handled by the resolver; the client hears about the victim
      }
    }
    return e;
  }

  // ---- reads ------------------------------------------------------------------------------------

  private StatementResult read(SessionState s, AnalyzedStatement a, ExecuteRequest r) throws SQLException {
    if (vdb.balancer() instanceof ErrorCheckingLoadBalancer ec) {
      return checkedReads.read(s, a, r, ec);
    }
    Transaction tx = s.transaction();
    SQLException lastFailure = null;
    // Backends whose pool had no free connection: tried last, and not disabled for it.
    Set<DatabaseBackend> busy = new HashSet<>();
    // A read whose backend fails is retried on another one, so that clients do not see a backend die.
    for (int attempt = 0; attempt < vdb.backends().size(); attempt++) {
      DatabaseBackend b = readBackend(a, tx, s, lastFailure, busy);
      b.requestStarted();
      try {
        if (tx != null) {
          BackendLane lane = writes.joinTransaction(tx, b, s);
          lane.idle().join(); // the transaction's earlier writes on this backend come first
          return StatementRunner.run(lane.connection(), r, true, () -> {}, s.running());
        }
        return connections.readAutoCommit(b, s, r, true);
      } catch (SQLException e) {
        if (FailureClassifier.isBackendFailure(e)) {
          vdb.disableBackend(b, "read failed: " + e.getMessage());
          writes.leaveTransaction(tx, b);
          lastFailure = e;
          continue;
        }
        if (FailureClassifier.TOO_MANY_CONNECTIONS.equals(e.getSQLState()) && busy.add(b)
            && vdb.backends().stream().anyMatch(other -> other.isEnabled() && !busy.contains(other))) {
          continue; // another backend may have a free connection
        }
        if (tx != null) {
          tx.abort(e); // PostgreSQL refuses the rest of a transaction after an error, on that backend only
        }
        throw e;
      } finally {
        b.requestEnded();
      }
    }
    throw Errors.noBackendLeft(vdb, lastFailure);
  }

  /**
   * The backend for a read. In auto-commit mode, backends that have not yet applied this session's
   * last write (completion first or majority) are avoided while another one can answer.
   */
  private DatabaseBackend readBackend(AnalyzedStatement a, Transaction tx, SessionState s, SQLException lastFailure,
      Set<DatabaseBackend> busy) throws SQLException {
    Request request = new Request(RequestKind.READ, a.tablesRead(), Set.of(), a.touchesEverything(),
        tx == null ? 0 : tx.id(), tx == null ? Set.of() : tx.backendNames(), tx != null && tx.hasWritten());
    List<DatabaseBackend> candidates = vdb.backends();
    if (tx == null && !s.lastWrites().isEmpty()) {
      List<DatabaseBackend> caughtUp = new ArrayList<>(candidates.size());
      for (DatabaseBackend b : candidates) {
        CompletableFuture<?> w = s.lastWrites().get(b);
        if (w == null || w.isDone()) {
          caughtUp.add(b);
        }
      }
      if (caughtUp.stream().anyMatch(DatabaseBackend::isEnabled)) {
        candidates = caughtUp;
      }
    }
    List<DatabaseBackend> free = candidates.stream().filter(b -> !busy.contains(b)).toList();
    if (free.stream().anyMatch(DatabaseBackend::isEnabled)) {
      candidates = free; // else a busy one again: its second 53300 goes to the client
    }
    try {
      // The one backend a read goes to; error-checking levels send reads to several (CheckedReads).
      return vdb.balancer().readBackend(request, candidates);
    } catch (NoBackendAvailableException e) {
      throw Errors.unavailable(vdb, e, lastFailure);
    }
  }

  // ---- transactions -----------------------------------------------------------------------------

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
    s.endTransaction();
    if (tx == null) {
      return;
    }
    SQLException aborted = tx.abortCause();
    if (aborted != null) {
      end(tx, s, false);
      throw new SQLException("the transaction was rolled back, not committed, because an earlier statement in it failed ("
          + aborted.getSQLState() + ": " + aborted.getMessage() + "); run the transaction again",
          aborted.getSQLState() != null && aborted.getSQLState().startsWith("40") ? aborted.getSQLState() : "25P02", aborted);
    }
    end(tx, s, true);
  }

  public void rollback(SessionState s) throws SQLException {
    Transaction tx = s.currentTransaction();
    s.endTransaction();
    if (tx != null) {
      end(tx, s, false);
    }
  }

  /**
   * Commits or rolls back on every backend of the transaction; the client is answered when the
   * completion policy is met. Connections and table locks are released once every backend is done.
   */
  private void end(Transaction tx, SessionState s, boolean commit) throws SQLException {
    List<BackendLane> lanes = new ArrayList<>(tx.lanes());
    WriteLog writeLog = vdb.writeLog();
    if (lanes.isEmpty()) {
      // Nothing can commit where no backend is left: what the log holds of it is rolled back.
      endRolledBack(tx, s, lanes);
      return;
    }
    // RAIDb-0: a transaction that wrote on several backends commits in two phases.
    String gid = commit && tx.writtenBackends().size() > 1 && vdb.commitsInTwoPhases()
        ? TwoPhaseCommit.gid(vdb.name(), tx.id()) : null;
    if (gid != null) {
      try {
        TwoPhaseCommit.prepare(lanes, gid, vdb.backendThreads());
      } catch (SQLException refused) {
        endRolledBack(tx, s, lanes);
        throw refused;
      }
    }
    LoggedRequest logged;
    try {
      logged = writeLog.logEnd(tx, s.virtualUser(), commit, lanes.stream().map(BackendLane::backend).toList());
      if (gid != null) {
        logged.awaitDurable(); // the decision: from here on a restarted controller commits what is prepared
        haltBetweenPhasesIfTesting();
      }
    } catch (SQLException e) {
      // Without its COMMIT in the log the transaction cannot be acknowledged: it is rolled back.
      if (gid != null) {
        for (BackendLane lane : lanes) {
          try {
            TwoPhaseCommit.finish(lane.connection(), false, gid);
          } catch (SQLException ignored) {
            // left prepared without a COMMIT in the log: rolled back at the next restart
          }
        }
        endRolledBack(tx, s, lanes);
      } else if (commit) {
        end(tx, s, false);
      }
      throw e;
    }
    Runnable release = () -> release(tx, s, lanes);
    BackendWork work = c -> {
      if (gid != null) {
        TwoPhaseCommit.finish(c, true, gid);
      } else if (commit) {
        c.commit();
      } else {
        c.rollback();
      }
      return new StatementResult(List.of(), null);
    };
    // Every lane commits on its own: RAIDb-1 and -2 lanes hold copies of the same writes; a RAIDb-0
    // transaction that wrote on several backends was prepared on each above and commits the prepared one.
    try {
      writes.runOnTransaction(lanes, s, commit ? "COMMIT" : "ROLLBACK", work, commit ? tx : null, release, false, logged);
    } catch (SQLException e) {
      undoSchemaChanges(tx);
      if (commit) {
        throw e;
      }
      // A rollback that fails leaves nothing applied; a dead backend was disabled by the resolver.
    }
    if (!commit) {
      undoSchemaChanges(tx);
    }
  }

  /** A transaction that did not commit created, dropped or renamed nothing after all. */
  private static void undoSchemaChanges(Transaction tx) {
    for (Map.Entry<DatabaseBackend, SchemaChange> c : tx.schemaChangesToUndo()) {
      c.getKey().tables().apply(c.getValue().inverse());
    }
  }

  /** A transaction undone before its end was logged: its ROLLBACK is logged and what it held released. */
  private void endRolledBack(Transaction tx, SessionState s, List<BackendLane> lanes) throws SQLException {
    WriteLog writeLog = vdb.writeLog();
    try {
      writeLog.logEnd(tx, s.virtualUser(), false, List.of()).awaitDurable();
    } finally {
      release(tx, s, lanes);
    }
  }

  /** The transaction has ended: its connections go back to their pools, its locks and log unit are freed. */
  private void release(Transaction tx, SessionState s, List<BackendLane> lanes) {
    for (BackendLane lane : lanes) {
      if (tx.forget(lane.backend()) != null) {
        connections.giveBack(lane.connection(), s);
      }
    }
    vdb.scheduler().transactionDone(tx.id());
    if (tx.isLogged()) {
      vdb.writeLog().exitUnit();
    }
  }

  /**
   * Tests kill the controller between the two phases of a commit with this system property, to show
   * that a restart finishes the transaction; it has no other use.
   */
  private static void haltBetweenPhasesIfTesting() {
    if (Boolean.getBoolean("raidb.test.haltBetweenCommitPhases")) {
      Runtime.getRuntime().halt(137);
    }
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
    boolean rollingBack = command.startsWith("ROLLBACK");
    if (!rollingBack) {
      refuseIfAborted(s);
    }
    String sql = command + " " + name;
    List<BackendLane> lanes = writes.lanes(writes.writeBackends(EVERY_BACKEND, tx), s, tx);
    vdb.writeLog().enterUnit(tx);
    LoggedRequest logged = vdb.writeLog().logSavepoint(tx, s.virtualUser(), command, name);
    writes.runOnTransaction(lanes, s, sql, c -> {
      try (java.sql.Statement st = c.createStatement()) {
        st.execute(sql);
      }
      return new StatementResult(List.of(), null);
    }, tx, () -> { }, true, logged);
    if (rollingBack) {
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
    String head = sql.trim().toUpperCase(Locale.ROOT);
    if (head.startsWith("RESET") || head.startsWith("DISCARD")) {
      s.settings().clear();
    } else if (!head.startsWith("SET LOCAL") && !head.startsWith("SET TRANSACTION")
        && !head.startsWith("SET SESSION CHARACTERISTICS")) {
      s.settings().add(sql);
    }
  }

  public BackendConnections connections() {
    return connections;
  }
}
