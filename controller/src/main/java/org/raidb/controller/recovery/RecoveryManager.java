package org.raidb.controller.recovery;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.raidb.controller.analysis.SqlAnalyzer;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.session.SessionState;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.recovery.BackendState;
import org.raidb.recovery.BackendStateRecord;
import org.raidb.recovery.Checkpoint;
import org.raidb.recovery.Outcome;
import org.raidb.recovery.RecoveryLog;
import org.raidb.recovery.ReplayCursor;
import org.raidb.recovery.ReplayItem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Backends leaving and rejoining one virtual database through its recovery log: the checkpoint a
 * backend stops at, its state across controller restarts, and {@code enable}, which replays what it
 * missed while clients keep writing and lets it join at a moment when no write is half done.
 */
public final class RecoveryManager implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RecoveryManager.class);
  /** How long a disabled backend's queued work may take to be answered before its edge is taken. */
  private static final long SETTLE_MILLIS = 30_000;
  private static final int REPLAY_BATCH = 1_000;

  private final String vdb;
  private final WriteLog writeLog;
  private final List<DatabaseBackend> backends;
  private final SqlAnalyzer analyzer;
  private final Map<String, String> busy = new ConcurrentHashMap<>();
  private final ExecutorService checkpointer;
  private volatile long joinTimeoutMillis = 10_000;

  public RecoveryManager(String vdb, WriteLog writeLog, List<DatabaseBackend> backends, SqlAnalyzer analyzer) {
    this.vdb = vdb;
    this.analyzer = analyzer;
    this.writeLog = writeLog;
    this.backends = backends;
    this.checkpointer = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "raidb-" + vdb + "-checkpoints");
      t.setDaemon(true);
      return t;
    });
  }

  private RecoveryLog log() throws SQLException {
    RecoveryLog l = writeLog.log();
    if (l == null) {
      throw new SQLException("virtual database " + vdb + " runs without a recovery log (<recoveryLog enabled=\"false\"/>):"
          + " nothing can be replayed; enable the log in its configuration", "55000");
    }
    return l;
  }

  // ---- start and stop ---------------------------------------------------------------------------

  /**
   * Before the backends start: which ones the log says were disabled (they stay so, waiting for an
   * enable from their checkpoint), and transaction ids above those in the log.
   */
  public Set<DatabaseBackend> beforeStart() throws SQLException {
    Set<DatabaseBackend> keptOut = new HashSet<>();
    if (!writeLog.enabled()) {
      return keptOut;
    }
    SessionState.transactionIdsAbove(log().maxTransactionId());
    Map<String, BackendStateRecord> states = log().backendStates();
    for (DatabaseBackend b : backends) {
      BackendStateRecord r = states.get(b.name());
      if (r == null || r.state() == BackendState.ENABLED) {
        continue;
      }
      keptOut.add(b);
      if (r.state() != BackendState.DISABLED || r.lastCheckpoint() == null) {
        // Stopped in the middle of a restore or a replay, or before its checkpoint was recorded.
        b.startDisabled("the controller stopped while it was " + r.state().name().toLowerCase(java.util.Locale.ROOT)
            + " with no usable checkpoint: restore it from a dump or add it again", null);
      } else {
        b.startDisabled("disabled at checkpoint " + r.lastCheckpoint() + " before the controller stopped: enable it to"
            + " replay what it missed", r.lastCheckpoint());
      }
    }
    return keptOut;
  }

  /**
   * After the backends started: writes the controller was running when it died are in doubt (some
   * backends may have applied them, others not). The enabled backends are then compared table by
   * table; the largest group of identical ones stays, the others are disabled for a restore. Every
   * backend's state is recorded.
   */
  public void afterStart(Set<DatabaseBackend> unreachable) throws SQLException {
    if (!writeLog.enabled()) {
      return;
    }
    RecoveryLog l = log();
    PreparedTransactions.resolve(vdb, backends, l);
    List<Long> inDoubt = l.pendingItems();
    if (!inDoubt.isEmpty()) {
      log.warn("virtual database {}: the controller stopped while {} write(s) were running (log positions {}):"
          + " comparing the backends", vdb, inDoubt.size(), abbreviate(inDoubt));
      keepLargestIdenticalGroup(inDoubt);
      for (long p : inDoubt) {
        l.setOutcome(p, Outcome.IN_DOUBT);
      }
    }
    String started = null;
    for (DatabaseBackend b : backends) {
      if (b.isEnabled()) {
        l.saveBackendState(b.name(), BackendStateRecord.now(BackendState.ENABLED, null));
      } else if (unreachable.contains(b)) {
        // It was in step with the others when the log last knew it (nothing in doubt, or it would
        // have been compared): it missed what is logged from now on.
        if (inDoubt.isEmpty()) {
          if (started == null) {
            started = l.checkpoint(l.autoCheckpointName("controller", "started")).name();
          }
          b.disabledAt(b.disabledReason(), started);
        }
        l.saveBackendState(b.name(), BackendStateRecord.now(BackendState.DISABLED, b.lastCheckpoint()));
      }
    }
  }

  /**
   * Compares, table by table, the copies the enabled backends hold (under partial replication a
   * table has fewer holders; a table with one holder has nothing to be compared with). A backend
   * whose copy of some table is not the one most holders have is disabled for a restore.
   */
  private void keepLargestIdenticalGroup(List<Long> inDoubt) {
    Map<DatabaseBackend, Map<String, String>> sums = new LinkedHashMap<>();
    for (DatabaseBackend b : backends) {
      if (!b.isEnabled()) {
        continue;
      }
      try (Connection c = b.directConnection(null)) {
        sums.put(b, TableChecksum.checksums(c));
      } catch (SQLException e) {
        disableWithoutCheckpoint(b, "could not be compared with the others after a controller crash: " + e.getMessage());
      }
    }
    Map<DatabaseBackend, String> differing = new LinkedHashMap<>();
    java.util.Set<String> tables = new java.util.TreeSet<>();
    sums.values().forEach(m -> tables.addAll(m.keySet()));
    for (String table : tables) {
      Map<String, List<DatabaseBackend>> copies = new LinkedHashMap<>();
      sums.forEach((b, m) -> {
        if (m.containsKey(table)) {
          copies.computeIfAbsent(m.get(table), k -> new ArrayList<>()).add(b);
        }
      });
      List<DatabaseBackend> majority = copies.values().stream().reduce((a, b) -> b.size() > a.size() ? b : a).orElseThrow();
      for (List<DatabaseBackend> group : copies.values()) {
        if (group != majority) {
          group.forEach(b -> differing.putIfAbsent(b, "after a controller crash it differs from " + majority.get(0).name()
              + " on table " + table + " (writes in doubt at log positions " + abbreviate(inDoubt)
              + "): restore it from a dump or add it again"));
        }
      }
    }
    differing.forEach(this::disableWithoutCheckpoint);
  }

  private void disableWithoutCheckpoint(DatabaseBackend b, String reason) {
    writeLog.disable(b, () -> b.disable(reason));
    b.closePools();
    b.disabledAt(reason, null);
    log.error("backend {} of virtual database {} disabled: {}", b.name(), vdb, reason);
  }

  /** A clean stop: every enabled backend is recorded as enabled and in step at a final checkpoint. */
  public void shutdown() {
    checkpointer.shutdown();
    if (!writeLog.enabled()) {
      return;
    }
    try {
      RecoveryLog l = log();
      l.checkpoint(l.autoCheckpointName("controller", "stopped"));
      for (DatabaseBackend b : backends) {
        if (b.isEnabled()) {
          l.saveBackendState(b.name(), BackendStateRecord.now(BackendState.ENABLED, null));
        }
      }
    } catch (SQLException e) {
      log.warn("virtual database {}: could not record the final checkpoint: {}", vdb, e.getMessage());
    }
  }

  // ---- disable ----------------------------------------------------------------------------------

  /**
   * Takes a backend out in the write order and records where it stopped. Returns null if it was
   * not enabled; else a future of its checkpoint's name (null without a log). The state is saved
   * as disabled at once, so that a controller crash before the checkpoint is written cannot bring
   * the backend back as if it had missed nothing.
   */
  public CompletableFuture<String> disable(DatabaseBackend b, String reason) {
    if (!writeLog.disable(b, () -> b.disable(reason))) {
      return null;
    }
    if (!writeLog.enabled()) {
      return CompletableFuture.supplyAsync(() -> {
        waitForRunningWork(b);
        b.closePools();
        return null;
      }, checkpointer);
    }
    try {
      log().saveBackendState(b.name(), BackendStateRecord.now(BackendState.DISABLED, null));
    } catch (SQLException e) {
      log.error("backend {}: could not record it as disabled in the recovery log: {}", b.name(), e.getMessage());
    }
    return CompletableFuture.supplyAsync(() -> recordCheckpoint(b, reason), checkpointer);
  }

  /** The lanes still running work for the backend answer (or the wait times out). */
  private void waitForRunningWork(DatabaseBackend b) {
    long deadline = System.nanoTime() + SETTLE_MILLIS * 1_000_000;
    while (b.pendingRequests() > 0 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
      java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
    }
  }

  private String recordCheckpoint(DatabaseBackend b, String reason) {
    try {
      BackendProgress.Edge edge = writeLog.edgeOf(b, SETTLE_MILLIS);
      b.closePools();
      RecoveryLog l = log();
      Checkpoint cp = l.checkpointAt(l.autoCheckpointName(b.name(), "disabled"), edge.position(), edge.appliedAfter(),
          edge.inDoubt());
      l.saveBackendState(b.name(), BackendStateRecord.now(BackendState.DISABLED, cp.name()));
      b.disabledAt(reason, cp.name());
      log.info("backend {} of virtual database {} stopped at checkpoint {} (log position {}{}{})", b.name(), vdb, cp.name(),
          cp.position(), edge.appliedAfter().isEmpty() ? "" : ", plus " + edge.appliedAfter().size() + " later item(s)",
          edge.inDoubt().isEmpty() ? "" : "; in doubt (its connection broke as they ran): " + edge.inDoubt());
      return cp.name();
    } catch (SQLException | InterruptedException e) {
      b.closePools();
      log.error("backend {} of virtual database {}: could not record where it stopped ({}); restore it from a dump",
          b.name(), vdb, e.getMessage());
      return null;
    }
  }

  // ---- enable -----------------------------------------------------------------------------------

  /**
   * Brings a disabled backend back: replays the log from its checkpoint while clients keep writing,
   * then, with new writes held at the gate until the open ones are done, applies the last entries
   * and enables it. Returns the checkpoint at which it joined.
   */
  public RecoveryTask<String> enable(DatabaseBackend b) throws SQLException {
    checkCanReplay(b);
    claim(b, "enable");
    return progress -> {
      try {
        return replayAndJoin(b, progress);
      } finally {
        release(b);
      }
    };
  }

  private void checkCanReplay(DatabaseBackend b) throws SQLException {
    log();
    if (b.isEnabled()) {
      throw new SQLException("backend " + b.name() + " is already enabled", "55000");
    }
    if (b.lastCheckpoint() == null) {
      throw new SQLException("backend " + b.name() + " has no checkpoint to replay from (" + b.disabledReason()
          + "); restore it from a dump first (restore " + b.name() + " from DUMP)", "55000");
    }
  }

  /** Marks the backend busy with an operation; a second one at the same time is refused. */
  void claim(DatabaseBackend b, String operation) throws SQLException {
    String running = busy.putIfAbsent(b.name(), operation);
    if (running != null) {
      throw new SQLException("backend " + b.name() + " is busy: an operation (" + running + ") on it is already running;"
          + " wait for it to finish (show operations)", "55006");
    }
  }

  void release(DatabaseBackend b) {
    busy.remove(b.name());
  }

  String replayAndJoin(DatabaseBackend b, Progress progress) throws SQLException {
    checkCanReplay(b);
    String checkpoint = b.lastCheckpoint();
    RecoveryLog l = log();
    String reason = b.disabledReason();
    b.preparePool();
    b.recovering("replaying the recovery log from checkpoint " + checkpoint);
    saveState(b, BackendState.REPLAYING, checkpoint);
    boolean joined = false;
    try (ReplayCursor cursor = l.replayFrom(checkpoint);
        LogReplayer replayer = new LogReplayer(b, analyzer, l.inDoubtAfter(checkpoint))) {
      long from = cursor.checkpointPosition();
      progress.total(l.entriesBetween(from, l.lastPosition()));
      String joinedAt = null;
      while (joinedAt == null) {
        drain(cursor, replayer, progress, l, from);
        joinedAt = tryToJoin(b, cursor, replayer, progress, l, from);
      }
      joined = true;
      return joinedAt;
    } finally {
      if (!joined) {
        b.disabledAt(reason, checkpoint);
        saveState(b, BackendState.DISABLED, checkpoint);
      }
    }
  }

  /** Applies everything durable so far. */
  private void drain(ReplayCursor cursor, LogReplayer replayer, Progress progress, RecoveryLog l, long from)
      throws SQLException {
    List<ReplayItem> batch;
    while (!(batch = cursor.nextBatch(REPLAY_BATCH)).isEmpty()) {
      progress.advance(replayer.apply(batch));
      progress.total(l.entriesBetween(from, l.lastPosition()));
    }
  }

  /**
   * Holds new writes until no unit of work is open, applies what they logged, and enables the
   * backend in the write order. Null when clients kept a transaction open too long: the replay goes
   * on and tries again.
   */
  private String tryToJoin(DatabaseBackend b, ReplayCursor cursor, LogReplayer replayer, Progress progress, RecoveryLog l,
      long from) throws SQLException {
    if (!writeLog.gate().closeAndDrain(joinTimeoutMillis)) {
      log.info("backend {}: transactions still open after {} ms; replaying on before trying again", b.name(),
          joinTimeoutMillis);
      return null;
    }
    try {
      Checkpoint joined = l.checkpoint(l.autoCheckpointName(b.name(), "enabled")); // every entry is durable now
      while (!(cursor.caughtUp() && cursor.pendingTransactions() == 0)) {
        List<ReplayItem> batch = cursor.nextBatch(REPLAY_BATCH);
        if (batch.isEmpty() && cursor.pendingTransactions() > 0 && cursor.caughtUp()) {
          throw new SQLException("the recovery log holds " + cursor.pendingTransactions() + " transaction(s) that neither"
              + " committed nor rolled back though no client has one open; backend " + b.name() + " stays disabled", "XX000");
        }
        progress.advance(replayer.apply(batch));
      }
      progress.total(l.entriesBetween(from, l.lastPosition()));
      b.refreshTables(); // after a restore, the dump's tables
      InDoubtCheck.verify(b, backends, replayer);
      writeLog.enable(b, b::enable);
      saveState(b, BackendState.ENABLED, null);
      log.info("backend {} of virtual database {} enabled at checkpoint {} after replaying the log from position {}",
          b.name(), vdb, joined.name(), from);
      return joined.name();
    } finally {
      writeLog.gate().reopen();
    }
  }

  private void saveState(DatabaseBackend b, BackendState state, String checkpoint) throws SQLException {
    log().saveBackendState(b.name(), BackendStateRecord.now(state, checkpoint));
  }

  /** How long enable waits for open transactions to end before replaying on (tests shorten it). */
  public void joinTimeoutMillis(long millis) {
    this.joinTimeoutMillis = millis;
  }

  // ---- log maintenance --------------------------------------------------------------------------

  public Checkpoint checkpoint(String name) throws SQLException {
    RecoveryLog l = log();
    return l.checkpoint(name == null || name.isBlank() ? l.autoCheckpointName("admin", "checkpoint") : name);
  }

  public List<Checkpoint> checkpoints() throws SQLException {
    return writeLog.enabled() ? log().checkpoints() : List.of();
  }

  /** Deletes what no backend and no dump needs before the checkpoint; returns the entries deleted. */
  public int purgeBefore(String checkpoint) throws SQLException {
    RecoveryLog l = log();
    if (l.checkpointPosition(Objects.requireNonNull(checkpoint)).isEmpty()) {
      throw new SQLException("no checkpoint " + checkpoint + " in the recovery log of " + vdb + "; known: "
          + l.checkpoints().stream().map(Checkpoint::name).toList(), "42704");
    }
    return l.purgeBefore(checkpoint);
  }

  private static String abbreviate(List<Long> positions) {
    return positions.size() <= 10 ? positions.toString() : positions.subList(0, 10) + "…";
  }

  @Override
  public void close() {
    checkpointer.shutdownNow();
  }
}
