package org.raidb.controller.request;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.raidb.balancer.NoBackendAvailableException;
import org.raidb.balancer.ReadVoting;
import org.raidb.balancer.Request;
import org.raidb.balancer.RequestKind;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.RoutineChange;
import org.raidb.controller.analysis.SchemaChange;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backend.FailureClassifier;
import org.raidb.controller.health.HealthMonitor;
import org.raidb.controller.recovery.LoggedRequest;
import org.raidb.controller.recovery.LoggedStatement;
import org.raidb.controller.recovery.WriteLog;
import org.raidb.controller.result.UpdateCount;
import org.raidb.controller.scheduler.ClaimSource;
import org.raidb.controller.determinism.DeterministicBatch;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.transaction.BackendLane;
import org.raidb.controller.transaction.Transaction;
import org.raidb.controller.transaction.TransactionModes;
import org.raidb.driver.protocol.SqlStates;

/**
 * The request path of DESIGN.md, in order: analyse the statement, then either read it from one
 * backend or hand it to the {@link WritePath} (schedule, balance, execute, complete); transaction
 * demarcation ends every backend's part of a transaction.
 */
public final class RequestManager {
  private static final StatementResult NO_RESULT = new StatementResult(List.of(new UpdateCount(0)), null);
  /** A statement that goes to every enabled backend and names no table (savepoints). */
  private static final AnalyzedStatement EVERY_BACKEND =
      new AnalyzedStatement(StatementKind.WRITE, Set.of(), Set.of(), false, null, null);

  private final BackendArray vdb;
  private final BetweenCommitPhases betweenCommitPhases;
  private final BackendConnections connections = new BackendConnections();
  private final WritePath writes;
  private final CheckedReads checkedReads;
  private final DeterministicStatements deterministic;
  private final SnapshotReads snapshots;
  private final AdvisoryLockPath advisoryLocks;
  private final WriteClaims keys;
  private final SerializableCommit serializableCommit;

  /** @param betweenCommitPhases run after every backend prepared a two-phase commit (a test's crash point) */
  public RequestManager(BackendArray vdb, BetweenCommitPhases betweenCommitPhases) {
    this.vdb = vdb;
    this.betweenCommitPhases = betweenCommitPhases;
    this.writes = new WritePath(vdb, connections);
    this.checkedReads = new CheckedReads(vdb, connections, writes);
    this.deterministic = new DeterministicStatements(vdb);
    this.snapshots = new SnapshotReads(vdb);
    this.advisoryLocks = new AdvisoryLockPath(vdb, connections, writes, snapshots);
    this.keys = new WriteClaims(vdb);
    this.serializableCommit = new SerializableCommit(vdb);
  }

  public StatementResult execute(SessionState s, ExecuteRequest request) throws SQLException {
    AnalyzedStatement a = request.call() ? vdb.analyzer().analyzeCall(request.sql()) : vdb.analyzer().analyze(request.sql());
    if (a.kind() == StatementKind.TRANSACTION_CONTROL) {
      transactionCommand(s, a, request.sql());
      return NO_RESULT;
    }
    refuseIfAborted(s);
    refuseIfLocksLost(s);
    if (a.refusal() != null) {
      throw new SQLException(a.refusal(), SqlStates.FEATURE_NOT_SUPPORTED);
    }
    if (a.advisoryLocks() != null) {
      try {
        return advisoryLocks.execute(s, a, request);
      } catch (SQLException e) {
        throw rollBackVictim(s, e);
      }
    }
    List<ExecuteRequest> statements = deterministic.of(s, a, request);
    ExecuteRequest r = statements.get(statements.size() - 1);
    if (a.kind() == StatementKind.READ) {
      try {
        return read(s, a, r);
      } catch (SQLException e) {
        throw rollBackVictim(s, e);
      }
    }
    boolean setting = a.kind() == StatementKind.SESSION_SETTING;
    // SET and RESET are replayed on each connection a session borrows, not through the log.
    List<LoggedStatement> logged = setting ? List.of()
        : statements.stream().map(x -> new LoggedStatement(x.sql(), x.parameters())).toList();
    // Remembered before it runs, so that the connections it runs on are reset when given back to the pool.
    List<String> settingsBefore = setting ? List.copyOf(s.settings()) : null;
    if (setting) {
      rememberSetting(s, r.sql(), r.parameters());
      transactionModes(s, r.sql());
    }
    try {
      return write(s, a, List.of(a), List.of(request.sql()), Collections.singletonList(request.parameters()), logged, r.sql(), c -> {
        for (ExecuteRequest before : statements.subList(0, statements.size() - 1)) {
          connections.runner().run(c, before, false, () -> {}, s.running()); // MariaDB's ALTER TABLE in two statements
        }
        return connections.runner().run(c, r, false, () -> {}, s.running());
      });
    } catch (SQLException | RuntimeException e) {
      if (setting) {
        s.settings().clear();
        s.settings().addAll(settingsBefore);
      }
      throw e;
    } finally {
      if (setting || a.kind() == StatementKind.DDL) {
        connections.schemaChanged(); // after it ran: results described before are stale now
      }
    }
  }

  /**
   * A JDBC batch: written like one statement whose analysis is {@code a}; {@code texts}, the
   * statements as the client sent them, tell which DDL the batch holds.
   *
   * @param parameterRows a prepared batch's rows of values as the client bound them, or null for a
   *     batch of texts
   */
  public StatementResult writeBatch(SessionState s, AnalyzedStatement a, List<String> texts,
      List<List<Object>> parameterRows, List<LoggedStatement> logged, String statement, BackendWork work)
      throws SQLException {
    List<AnalyzedStatement> parts = new ArrayList<>(texts.size());
    texts.forEach(t -> parts.add(vdb.analyzer().analyze(t)));
    return write(s, a, parts, texts, parameterRows, logged, statement, work);
  }

  /**
   * @param parts the analyses of the write's statements, whose DDL is followed into the catalogue
   *     and whose rows, sequences and tables are its conflict classes
   * @param texts those statements as the client sent them
   * @param parameterRows the values the client bound, one list per execution (null: a plain Statement)
   */
  private StatementResult write(SessionState s, AnalyzedStatement a, List<AnalyzedStatement> parts, List<String> texts,
      List<List<Object>> parameterRows, List<LoggedStatement> logged, String statement, BackendWork work)
      throws SQLException {
    refuseIfLocksLost(s);
    deterministic.refuseIfTriggered(s, a);
    long routinesOwner = a.routineChange() == null ? 0 : functionDdlStarts(s, a.routineChange());
    Set<String> scope = deterministic.schemaScope(parts, texts);
    boolean ddl = scope == null || !scope.isEmpty();
    ClaimSource claims = keys.claims(parts, parameterRows);
    try {
      BackendWork run = ddl ? keys.following(deterministic.followingCatalog(work, scope, s), parts, scope, s) : work;
      return writes.write(s, a, claims, logged, statement, run);
    } catch (SQLException e) {
      if (ddl) {
        deterministic.ddlFailed(scope, s);
        keys.ddlFailed(parts, scope, s);
      }
      throw rollBackVictim(s, e);
    } finally {
      if (routinesOwner < 0) {
        // An auto-commit statement: settled once every backend has applied it (or failed it).
        CompletableFuture.allOf(s.lastWrites().values().toArray(new CompletableFuture<?>[0]))
            .whenComplete((done, failure) -> vdb.functions().settled(routinesOwner));
      }
    }
  }

  /**
   * Function DDL makes its functions possible writers until its transaction has ended everywhere
   * (settled in {@link #release}); returns the transaction's id, or for an auto-commit statement a
   * negative id of its own.
   */
  private long functionDdlStarts(SessionState s, RoutineChange change) throws SQLException {
    Transaction tx = s.transaction();
    long owner = tx != null ? tx.id() : -s.nextTransactionId();
    vdb.functions().changing(owner, change);
    return owner;
  }

  /**
   * A statement of a {@code Statement.addBatch} batch as every backend must run it: the volatile
   * defaults it relies on written in, now(), random() and the like replaced by literals computed here
   * once (docs/determinism.md). now() is the transaction's start, as on PostgreSQL.
   */
  public String deterministicText(SessionState s, String sql) throws SQLException {
    return deterministic.text(s, vdb.analyzer().analyze(sql), sql);
  }

  /** A prepared statement's batch as every backend must run it: each row gets its own per-row values. */
  public DeterministicBatch deterministicBatch(SessionState s, String sql, List<List<Object>> rows) throws SQLException {
    return deterministic.batch(s, vdb.analyzer().analyze(sql), sql, rows);
  }

  /** Advisory locks the session held were lost with their backend: it is told once (see {@link AdvisoryLockPath}). */
  private void refuseIfLocksLost(SessionState s) throws SQLException {
    try {
      advisoryLocks.refuseIfLost(s);
    } catch (SQLException e) {
      throw rollBackVictim(s, e);
    }
  }

  /**
   * A transaction chosen as a deadlock or serialization victim (SQLState class 40), by the scheduler or
   * by any backend, is rolled back on every backend at once: the same victim everywhere, and its locks
   * freed for the transaction it was in the way of.
   */
  private SQLException rollBackVictim(SessionState s, SQLException e) {
    String state = e.getSQLState();
    if (SqlStates.isTransactionRollback(state) && s.currentTransaction() != null) {
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
    Optional<ReadVoting> vote = vdb.balancer().readVote();
    if (vote.isPresent()) {
      return checkedReads.read(s, a, r, vote.get());
    }
    Transaction tx = s.transaction();
    SQLException lastFailure = null;
    // Backends whose pool had no free connection: tried last, and not disabled for it.
    Set<DatabaseBackend> busy = new HashSet<>();
    // A read whose backend fails is retried on another one, so that clients do not see a backend die.
    for (int attempt = 0; attempt < vdb.backends().size(); attempt++) {
      DatabaseBackend b = readBackend(a, tx, s, lastFailure, busy);
      b.requestStarted();
      // A hung backend is found by the watch, which aborts its connections: the read fails here and goes elsewhere.
      try (HealthMonitor.Watch watch = vdb.health().watch(b)) {
        StatementResult result;
        if (tx != null) {
          BackendLane lane = writes.joinTransaction(tx, b, s);
          lane.idle().join(); // the transaction's earlier writes on this backend come first
          result = connections.runner().run(lane.connection(), r, true, () -> {}, s.running());
          snapshots.readFrom(tx, b);
        } else {
          result = connections.readAutoCommit(b, s, r, true);
        }
        b.probe().heard();
        return result;
      } catch (SQLException e) {
        if (FailureClassifier.isBackendFailure(e)) {
          vdb.disableFailed(b, "read failed", e);
          writes.leaveTransaction(tx, b);
          lastFailure = e;
          continue;
        }
        if (SqlStates.TOO_MANY_CONNECTIONS.equals(e.getSQLState()) && busy.add(b)
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
      return snapshots.choose(tx, request, candidates);
    } catch (NoBackendAvailableException e) {
      throw Errors.unavailable(vdb, e, lastFailure);
    }
  }

  // ---- transactions -----------------------------------------------------------------------------

  private void transactionCommand(SessionState s, AnalyzedStatement a, String sql) throws SQLException {
    switch (a.transactionCommand()) {
      case BEGIN:
        if (!s.inTransactionMode()) {
          s.beginExplicitTransaction(TransactionModes.ofBegin(sql)); // set on each backend it joins
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
    refuseIfLocksLost(s);
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
          SqlStates.isTransactionRollback(aborted.getSQLState()) ? aborted.getSQLState() : SqlStates.IN_FAILED_TRANSACTION,
          aborted);
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
   * completion policy is met. Each backend's connection goes back to its pool once the transaction has
   * ended there; conflict classes are released once every backend is done.
   */
  private void end(Transaction tx, SessionState s, boolean commit) throws SQLException {
    List<BackendLane> lanes = new ArrayList<>(tx.lanes());
    WriteLog writeLog = vdb.writeLog();
    if (lanes.isEmpty()) {
      // Nothing can commit where no backend is left: what the log holds of it is rolled back.
      endRolledBack(tx, s, lanes);
      return;
    }
    // Where the level asks for it (RAIDb-0), a transaction that wrote on several backends commits in two phases.
    // So does a SERIALIZABLE one, which a backend may refuse at commit while the others apply it.
    String gid = commit && tx.writtenBackends().size() > 1
        && (vdb.balancer().commitsInTwoPhases() || serializableCommit.inTwoPhases(tx, lanes))
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
        betweenCommitPhases.reached();
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
    // Before any lock is released: the next writer of a table this transaction altered must see its defaults.
    Runnable catalogUndo = commit ? deterministic.committing(tx) : () -> { };
    BackendWork work = c -> {
      if (gid != null) {
        TwoPhaseCommit.finish(c, true, gid);
      } else if (commit) {
        c.commit();
      } else {
        c.rollback();
      }
      giveBackEnded(tx, s, lanes, c);
      return new StatementResult(List.of(), null);
    };
    // Every lane commits on its own: RAIDb-1 and -2 lanes hold copies of the same writes; a RAIDb-0
    // transaction that wrote on several backends was prepared on each above and commits the prepared one.
    try {
      // REPEATABLE READ and SERIALIZABLE: the commit is answered once every backend's outcome is known.
      boolean waitForAll = commit && SnapshotReads.keepsOneSnapshot(vdb, tx);
      writes.runOnTransaction(lanes, s, commit ? "COMMIT" : "ROLLBACK", work, commit ? tx : null, release, waitForAll,
          logged);
    } catch (SQLException e) {
      undoSchemaChanges(tx);
      catalogUndo.run();
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

  /**
   * A backend on which the transaction has ended gives its connection back at once, not when the
   * last backend has: with completion first or majority, clients go on while a slow or hung backend
   * finishes, and the connections the other backends hold for the transactions waiting on it would
   * otherwise run their pools dry (53300). The transaction's conflict classes stay until every
   * backend is done ({@link #release}).
   */
  private void giveBackEnded(Transaction tx, SessionState s, List<BackendLane> lanes, java.sql.Connection c) {
    for (BackendLane lane : lanes) {
      if (lane.connection() == c && tx.forget(lane.backend()) != null) {
        connections.giveBack(c, s);
      }
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
    keys.ended(tx); // before its classes go: the next writer of its tables sees their keys as they now are
    vdb.scheduler().transactionDone(tx.id());
    vdb.functions().settled(tx.id());
    deterministic.ended(tx);
    tx.closeLogUnit();
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

  private void refuseIfAborted(SessionState s) throws SQLException {
    Transaction tx = s.currentTransaction();
    SQLException cause = tx == null ? null : tx.abortCause();
    if (cause == null) {
      return;
    }
    if (SqlStates.isTransactionRollback(cause.getSQLState())) {
      // A backend chose it as a victim after the client had its answer (completion first or majority, READ
      // COMMITTED): the victim is rolled back everywhere now, and the client told to run it again.
      throw rollBackVictim(s, new SQLException(cause.getMessage(), cause.getSQLState(), cause));
    }
    throw new SQLException("current transaction is aborted, commands ignored until end of transaction block "
        + "(it failed on: " + cause.getMessage() + "); roll back", SqlStates.IN_FAILED_TRANSACTION);
  }

  private static void rememberSetting(SessionState s, String sql, List<Object> parameters) {
    String head = sql.trim().toUpperCase(Locale.ROOT);
    if (SettingText.resetsAll(sql)) {
      s.settings().clear();
    } else if (!head.startsWith("SET LOCAL") && !head.startsWith("SET TRANSACTION") && !head.startsWith("DISCARD")) {
      // SET SESSION CHARACTERISTICS too: replayed, and undone by RESET ALL at give-back. DISCARD PLANS,
      // TEMP or SEQUENCES leave settings as they are.
      s.settings().add(SettingText.replayable(sql, parameters));
    }
  }

  /** SET TRANSACTION in a transaction: its modes hold for it, on the backends it joins later too. */
  private static void transactionModes(SessionState s, String sql) {
    String modes = TransactionModes.ofSetTransaction(sql);
    Transaction tx = modes == null ? null : s.transaction();
    if (tx != null) {
      tx.modes(modes, TransactionModes.isolationOf(modes));
    }
  }

  /** The client's session has ended: its transaction is rolled back, its advisory locks released. */
  public void sessionEnded(SessionState s) throws SQLException {
    try {
      rollback(s);
    } finally {
      advisoryLocks.sessionEnded(s);
    }
  }

  public BackendConnections connections() {
    return connections;
  }
}
