package org.raidb.controller.recovery;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.raidb.controller.analysis.SqlAnalyzer;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.files.SafeName;
import org.raidb.controller.transaction.TransactionIds;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.recovery.BackendStateRecord;
import org.raidb.recovery.Checkpoint;
import org.raidb.recovery.DisableCause;
import org.raidb.recovery.Outcome;
import org.raidb.recovery.RecordedBackendState;
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
    /** PostgreSQL's admin_shutdown: what an operation refused or stopped by the controller's stop fails with. */
    /** The final checkpoint of a clean stop is {@code controller-stopped-…}. */
    private static final String STOPPED = "stopped";

    private final String vdb;
    private final WriteLog writeLog;
    private final List<DatabaseBackend> backends;
    private final TransactionIds transactionIds;
    private final SqlAnalyzer analyzer;
    private final Map<String, String> busy = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.LongAdder replayedEntries = new java.util.concurrent.atomic.LongAdder();
    private final ExecutorService checkpointer;
    private volatile long joinTimeoutMillis = 10_000;
    private volatile boolean stopping;

    public RecoveryManager(
            String vdb,
            WriteLog writeLog,
            List<DatabaseBackend> backends,
            SqlAnalyzer analyzer,
            TransactionIds transactionIds) {
        this.transactionIds = transactionIds;
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
            throw new SQLException(
                    "virtual database " + vdb + " runs without a recovery log (<recoveryLog enabled=\"false\"/>):"
                            + " nothing can be replayed; enable the log in its configuration",
                    SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
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
        transactionIds.above(log().maxTransactionId());
        Map<String, BackendStateRecord> states = log().backendStates();
        for (DatabaseBackend b : backends) {
            BackendStateRecord r = states.get(b.name());
            if (r == null || r.state() == RecordedBackendState.ENABLED) {
                continue;
            }
            keptOut.add(b);
            // Stores written before causes were kept know none: such a backend was taken for failed.
            DisableCause cause = r.cause() != null ? r.cause() : DisableCause.failure("disabled");
            if (r.state() != RecordedBackendState.DISABLED || r.lastCheckpoint() == null) {
                // Stopped in the middle of a restore or a replay, or before its checkpoint was recorded.
                b.startDisabled(
                        cause.because("the controller stopped while it was "
                                + r.state().name().toLowerCase(java.util.Locale.ROOT)
                                + " with no usable checkpoint: restore it from a dump or"
                                + " add it again"),
                        null);
            } else if (cause.diverged()) {
                b.startDisabled(cause, r.lastCheckpoint()); // its reason is what enable must still refuse it for
            } else {
                b.startDisabled(
                        cause.because("disabled at checkpoint " + r.lastCheckpoint() + " before the controller stopped:"
                                + " enable it to replay what it missed"),
                        r.lastCheckpoint());
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
            log.warn(
                    "virtual database {}: the controller stopped while {} write(s) were running (log positions {}):"
                            + " comparing the backends",
                    vdb,
                    inDoubt.size(),
                    abbreviate(inDoubt));
            keepLargestIdenticalGroup(inDoubt);
            for (long p : inDoubt) {
                l.setOutcome(p, Outcome.IN_DOUBT);
            }
        } else {
            reportCleanStop(l);
        }
        String started = null;
        for (DatabaseBackend b : backends) {
            if (b.isEnabled()) {
                saveState(b, RecordedBackendState.ENABLED, null);
            } else if (unreachable.contains(b)) {
                // It was in step with the others when the log last knew it (nothing in doubt, or it would
                // have been compared): it missed what is logged from now on.
                if (inDoubt.isEmpty()) {
                    if (started == null) {
                        started = l.checkpoint(l.autoCheckpointName("controller", "started"))
                                .name();
                    }
                    b.disabledAt(b.disabledReason(), started);
                }
                saveState(b, RecordedBackendState.DISABLED, b.lastCheckpoint());
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
                disableWithoutCheckpoint(
                        b,
                        DisableCause.failure(
                                "could not be compared with the others after a controller crash: " + e.getMessage()));
            }
        }
        Map<DatabaseBackend, DisableCause> differing = new LinkedHashMap<>();
        java.util.Set<String> tables = new java.util.TreeSet<>();
        sums.values().forEach(m -> tables.addAll(m.keySet()));
        for (String table : tables) {
            Map<String, List<DatabaseBackend>> copies = new LinkedHashMap<>();
            sums.forEach((b, m) -> {
                if (m.containsKey(table)) {
                    copies.computeIfAbsent(m.get(table), k -> new ArrayList<>()).add(b);
                }
            });
            List<DatabaseBackend> majority = copies.values().stream()
                    .reduce((a, b) -> b.size() > a.size() ? b : a)
                    .orElseThrow();
            for (List<DatabaseBackend> group : copies.values()) {
                if (group != majority) {
                    group.forEach(b -> differing.putIfAbsent(
                            b,
                            DisableCause.divergence("after a controller crash it differs from "
                                    + majority.get(0).name() + " on table " + table
                                    + " (writes in doubt at log positions " + abbreviate(inDoubt)
                                    + "): restore it from a dump or add it again")));
                }
            }
        }
        differing.forEach(this::disableWithoutCheckpoint);
    }

    private void disableWithoutCheckpoint(DatabaseBackend b, DisableCause cause) {
        writeLog.disable(b, () -> b.disable(cause));
        b.closePools();
        b.disabledAt(cause, null);
        log.error("backend {} of virtual database {} disabled: {}", b.name(), vdb, cause.reason());
    }

    /** Nothing was in doubt: says so when the log ends with the final checkpoint of a clean stop. */
    private void reportCleanStop(RecoveryLog l) throws SQLException {
        List<Checkpoint> all = l.checkpoints();
        Checkpoint last = all.isEmpty() ? null : all.get(all.size() - 1);
        if (last != null
                && last.name().startsWith("controller-" + STOPPED + "-")
                && last.position() == l.lastPosition()) {
            log.info(
                    "virtual database {}: the controller stopped cleanly at checkpoint {} (log position {}): no write in doubt",
                    vdb,
                    last.name(),
                    last.position());
        }
    }

    // ---- a clean stop, in the order ControllerShutdown calls it -----------------------------------

    /** No operation starts from now on, and a replay running stops before its next batch. */
    public void stopOperations() {
        stopping = true;
    }

    /**
     * Waits until the operations running have ended, or the deadline passes. Returns those still
     * running then ("backup of pg2"): a dump, restore or copy is not cut short.
     */
    public List<String> awaitOperations(long deadlineNanos) throws InterruptedException {
        synchronized (busy) {
            while (!busy.isEmpty()) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                TimeUnit.NANOSECONDS.timedWait(busy, left);
            }
        }
        List<String> running = new ArrayList<>();
        busy.forEach((backend, operation) -> running.add(operation + " of " + backend));
        return running;
    }

    /**
     * Once writes have ended: the checkpoints of backends disabled meanwhile are written (waiting at
     * most until the deadline), then a final checkpoint names the end of the log and every enabled
     * backend is recorded as enabled and in step there. Returns that checkpoint; null without a log, or
     * when it could not be written (said at WARN).
     */
    public Checkpoint recordCleanStop(long deadlineNanos) {
        checkpointer.shutdown();
        boolean interrupted = false;
        try {
            if (!checkpointer.awaitTermination(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                log.warn(
                        "virtual database {}: the checkpoint of a backend that left during the stop is still being taken;"
                                + " that backend will have none (restore it)",
                        vdb);
            }
        } catch (InterruptedException e) {
            interrupted =
                    true; // written anyway, with the flag clear: a store's driver may give up on an interrupted thread
        }
        try {
            if (!writeLog.enabled()) {
                return null;
            }
            RecoveryLog l = log();
            Checkpoint last = l.checkpoint(l.autoCheckpointName("controller", STOPPED));
            for (DatabaseBackend b : backends) {
                if (b.isEnabled()) {
                    saveState(b, RecordedBackendState.ENABLED, last.name());
                }
            }
            return last;
        } catch (SQLException e) {
            log.warn("virtual database {}: could not record the final checkpoint: {}", vdb, e.getMessage());
            return null;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ---- disable ----------------------------------------------------------------------------------

    /**
     * Takes a backend out in the write order and records where it stopped. Returns null if it was
     * not enabled; else a future of its checkpoint's name (null without a log). The state is saved
     * as disabled at once, so that a controller crash before the checkpoint is written cannot bring
     * the backend back as if it had missed nothing.
     */
    public CompletableFuture<String> disable(DatabaseBackend b, DisableCause cause) {
        String reason = cause.reason();
        if (!writeLog.disable(b, () -> b.disable(cause))) {
            return null;
        }
        if (!writeLog.enabled()) {
            return CompletableFuture.supplyAsync(
                    () -> {
                        waitForRunningWork(b);
                        b.closePools();
                        return null;
                    },
                    checkpointer);
        }
        try {
            saveState(b, RecordedBackendState.DISABLED, null);
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
            Checkpoint cp = l.checkpointAt(
                    l.autoCheckpointName(b.name(), "disabled"), edge.position(), edge.appliedAfter(), edge.inDoubt());
            b.disabledAt(reason, cp.name());
            saveState(b, RecordedBackendState.DISABLED, cp.name());
            log.info(
                    "backend {} of virtual database {} stopped at checkpoint {} (log position {}{}{})",
                    b.name(),
                    vdb,
                    cp.name(),
                    cp.position(),
                    edge.appliedAfter().isEmpty()
                            ? ""
                            : ", plus " + edge.appliedAfter().size() + " later item(s)",
                    edge.inDoubt().isEmpty() ? "" : "; in doubt (its connection broke as they ran): " + edge.inDoubt());
            return cp.name();
        } catch (SQLException | InterruptedException e) {
            b.closePools();
            log.error(
                    "backend {} of virtual database {}: could not record where it stopped ({}); restore it from a dump",
                    b.name(),
                    vdb,
                    e.getMessage());
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
        return enable(b, null);
    }

    /**
     * Brings a disabled backend back as {@link #enable(DatabaseBackend)} does, or by an administrator's force.
     *
     * @param forcedBy the administrator who enables a backend whose data diverged, knowing better than the
     *     controller; null refuses such a backend
     */
    public RecoveryTask<String> enable(DatabaseBackend b, String forcedBy) throws SQLException {
        checkCanReplay(b, forcedBy != null);
        claim(b, "enable");
        DisableCause cause = b.disableCause();
        if (forcedBy != null && cause != null && cause.diverged()) {
            log.warn(
                    "backend {} of virtual database {}: administrator {} forces enable although it was disabled because its"
                            + " data diverged ({}); it rejoins by replay without being compared with the others",
                    b.name(),
                    vdb,
                    forcedBy,
                    cause.reason());
        }
        return progress -> {
            try {
                return replayAndJoin(b, progress, forcedBy != null);
            } finally {
                release(b);
            }
        };
    }

    private void checkCanReplay(DatabaseBackend b, boolean forced) throws SQLException {
        log();
        if (b.isEnabled()) {
            throw new SQLException(
                    "backend " + b.name() + " is already enabled", SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
        if (b.lastCheckpoint() == null) {
            throw new SQLException(
                    "backend " + b.name() + " has no checkpoint to replay from (" + b.disabledReason()
                            + "); restore it from a dump first (restore " + b.name() + " from DUMP)",
                    SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
        // With a checkpoint to replay from, only what made it out can still keep it out.
        DisableCause cause = b.disableCause();
        if (!forced && cause != null && cause.diverged()) {
            throw new SQLException(
                    "backend " + b.name() + " stays disabled: it was disabled because its data diverged from the"
                            + " others (" + cause.reason()
                            + "), and replaying the log cannot make it identical again. Restore it from a"
                            + " dump of a good backend (backup BACKEND, then restore " + b.name()
                            + " from DUMP, then enable " + b.name()
                            + "), or recreate its database and add it as a new backend (add backend NAME url=...); if you know its data is"
                            + " right, enable " + b.name() + " --force",
                    SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
    }

    /** Marks the backend busy with an operation; a second one at the same time is refused. */
    void claim(DatabaseBackend b, String operation) throws SQLException {
        if (stopping) {
            throw new SQLException(
                    "the controller is shutting down: no operation starts now; run it again after the restart",
                    SqlStates.ADMIN_SHUTDOWN);
        }
        String running = busy.putIfAbsent(b.name(), operation);
        if (running != null) {
            throw new SQLException(
                    "backend " + b.name() + " is busy: an operation (" + running + ") on it is already running;"
                            + " wait for it to finish (show operations)",
                    SqlStates.OBJECT_IN_USE);
        }
    }

    void release(DatabaseBackend b) {
        busy.remove(b.name());
        synchronized (busy) {
            busy.notifyAll(); // a stop may be waiting for the operations to end
        }
    }

    String replayAndJoin(DatabaseBackend b, Progress progress) throws SQLException {
        return replayAndJoin(b, progress, false);
    }

    private String replayAndJoin(DatabaseBackend b, Progress progress, boolean forced) throws SQLException {
        checkCanReplay(b, forced);
        String checkpoint = b.lastCheckpoint();
        RecoveryLog l = log();
        DisableCause cause = b.disableCause();
        LogReplayer replayer = new LogReplayer(b, analyzer, l.inDoubtAfter(checkpoint));
        b.preparePool();
        b.recovering("replaying the recovery log from checkpoint " + checkpoint);
        saveState(b, RecordedBackendState.REPLAYING, checkpoint);
        try (ReplayCursor cursor = l.replayFrom(checkpoint);
                replayer) {
            ReplayTotal total = new ReplayTotal(l, cursor.checkpointPosition());
            progress.total(total.update());
            String joinedAt = null;
            while (joinedAt == null) {
                drain(cursor, replayer, progress, l, total);
                stopIfShuttingDown();
                joinedAt = tryToJoin(b, cursor, replayer, progress, l, total);
            }
            return joinedAt;
        } catch (SQLException | RuntimeException e) {
            if (e instanceof SQLException se && InDoubtCheck.DIFFERS.equals(se.getSQLState())) {
                cause = DisableCause.divergence(
                        se.getMessage()); // a replay cannot repair that: enable refuses it from now on
            }
            try {
                stayOut(b, cause, checkpoint, replayer, l, e);
            } catch (SQLException | RuntimeException unrecorded) {
                e.addSuppressed(unrecorded); // the state stays REPLAYING: no usable checkpoint after a restart
            }
            throw e;
        }
    }

    /**
     * A replay that ended short: the backend stays out, at a checkpoint that says what it holds now
     * ({@link ShortReplay}); when that cannot be recorded, with none (it must be restored).
     */
    private void stayOut(
            DatabaseBackend b, DisableCause why, String from, LogReplayer replayer, RecoveryLog l, Exception cause)
            throws SQLException {
        String at;
        try {
            at = ShortReplay.checkpoint(l, b.name(), from, replayer.applied());
        } catch (SQLException e) {
            at = null;
            why = why.because("the replay into it ended short and where it stopped could not be recorded ("
                    + e.getMessage() + "): restore it from a dump");
            log.error("backend {} of virtual database {}: {}", b.name(), vdb, why.reason());
        }
        b.disabledAt(why, at);
        saveState(b, RecordedBackendState.DISABLED, at);
        boolean stopped = cause instanceof SQLException e && SqlStates.ADMIN_SHUTDOWN.equals(e.getSQLState());
        if (at != null && stopped) {
            log.info(
                    "replay into {} stopped at checkpoint {} as the controller stops (virtual database {}): enable it to go on"
                            + " from there",
                    b.name(),
                    at,
                    vdb);
        } else if (at != null) {
            log.warn(
                    "replay into {} ended at checkpoint {} (virtual database {}): {}",
                    b.name(),
                    at,
                    vdb,
                    cause.getMessage());
        }
    }

    private void stopIfShuttingDown() throws SQLException {
        if (stopping) {
            throw new SQLException(
                    "the replay stopped: the controller is shutting down; enable the backend again after the"
                            + " restart",
                    SqlStates.ADMIN_SHUTDOWN);
        }
    }

    /**
     * Catches up while clients write, in rounds, each up to where the log ended when it began. Writers
     * at least as fast as the replay keep "everything durable so far" out of reach for ever (an enable
     * under 16 writers on a fast disk never returned): once a round leaves no less behind than the one
     * before, the rest is applied behind the closed gate ({@link #tryToJoin}), which holds new writes.
     */
    private void drain(ReplayCursor cursor, LogReplayer replayer, Progress progress, RecoveryLog l, ReplayTotal total)
            throws SQLException {
        long behindBefore = Long.MAX_VALUE;
        while (true) {
            long target = l.lastDurablePosition();
            long behind = target - cursor.lastPosition();
            if ((behind < REPLAY_BATCH && behindBefore != Long.MAX_VALUE) || behind >= behindBefore) {
                return;
            }
            behindBefore = behind;
            while (cursor.lastPosition() < target) {
                List<ReplayItem> batch = cursor.nextBatch(REPLAY_BATCH);
                if (batch.isEmpty()) {
                    break;
                }
                stopIfShuttingDown();
                progress.advance(replayed(replayer.apply(batch)));
                progress.total(total.update());
            }
            if (cursor.caughtUp()) {
                return;
            }
        }
    }

    /**
     * Holds new writes until no unit of work is open, applies what they logged, and enables the
     * backend in the write order. Null when clients kept a transaction open too long: the replay goes
     * on and tries again.
     */
    private String tryToJoin(
            DatabaseBackend b,
            ReplayCursor cursor,
            LogReplayer replayer,
            Progress progress,
            RecoveryLog l,
            ReplayTotal total)
            throws SQLException {
        if (!writeLog.gate().closeAndDrain(joinTimeoutMillis)) {
            log.info(
                    "backend {}: transactions still open after {} ms; replaying on before trying again",
                    b.name(),
                    joinTimeoutMillis);
            return null;
        }
        try {
            Checkpoint joined = l.checkpoint(l.autoCheckpointName(b.name(), "enabled")); // every entry is durable now
            while (!(cursor.caughtUp() && cursor.pendingTransactions() == 0)) {
                List<ReplayItem> batch = cursor.nextBatch(REPLAY_BATCH);
                if (batch.isEmpty() && cursor.pendingTransactions() > 0 && cursor.caughtUp()) {
                    throw new SQLException(
                            "the recovery log holds " + cursor.pendingTransactions() + " transaction(s) that neither"
                                    + " committed nor rolled back though no client has one open; backend " + b.name()
                                    + " stays disabled",
                            SqlStates.INTERNAL_ERROR);
                }
                progress.advance(replayed(replayer.apply(batch)));
            }
            progress.total(total.update());
            b.refreshSchema(); // after a restore, the dump's tables and functions
            InDoubtCheck.verify(b, backends, replayer);
            writeLog.enable(b, b::enable);
            saveState(b, RecordedBackendState.ENABLED, null);
            log.info(
                    "backend {} of virtual database {} enabled at checkpoint {} after replaying the log from position {}",
                    b.name(),
                    vdb,
                    joined.name(),
                    cursor.checkpointPosition());
            return joined.name();
        } finally {
            writeLog.gate().reopen();
        }
    }

    /** Records a backend's state with its cause, so that a restart knows why it is out. */
    void saveState(DatabaseBackend b, RecordedBackendState state, String checkpoint) throws SQLException {
        log().saveBackendState(
                        b.name(),
                        BackendStateRecord.now(
                                state, checkpoint, state == RecordedBackendState.ENABLED ? null : b.disableCause()));
    }

    /** Counts what a replay applied, for the metrics, and hands it on. */
    private long replayed(long entries) {
        replayedEntries.add(entries);
        return entries;
    }

    /** Log entries replayed into backends being enabled, since the controller started (all of them together). */
    public long replayedEntries() {
        return replayedEntries.sum();
    }

    /** How long enable waits for open transactions to end before replaying on (tests shorten it). */
    public void joinTimeoutMillis(long millis) {
        this.joinTimeoutMillis = millis;
    }

    // ---- log maintenance --------------------------------------------------------------------------

    /** Records a checkpoint named by an administrator (named by the controller when {@code name} is blank). */
    public Checkpoint checkpoint(String name) throws SQLException {
        RecoveryLog l = log();
        if (name == null || name.isBlank()) {
            return l.checkpoint(l.autoCheckpointName("admin", "checkpoint"));
        }
        Optional<String> problem = SafeName.problem(name);
        if (problem.isPresent()) {
            // Checkpoint names are printed in logs and consoles and typed back in commands: nothing that could forge a
            // line.
            throw new SQLException("invalid checkpoint name '" + name + "': " + problem.get(), SqlStates.INVALID_NAME);
        }
        return l.checkpoint(name);
    }

    public List<Checkpoint> checkpoints() throws SQLException {
        return writeLog.enabled() ? log().checkpoints() : List.of();
    }

    /** Deletes what no backend and no dump needs before the checkpoint; returns the entries deleted. */
    public int purgeBefore(String checkpoint) throws SQLException {
        RecoveryLog l = log();
        if (l.checkpointPosition(Objects.requireNonNull(checkpoint)).isEmpty()) {
            throw new SQLException(
                    "no checkpoint " + checkpoint + " in the recovery log of " + vdb + "; known: "
                            + l.checkpoints().stream().map(Checkpoint::name).toList(),
                    SqlStates.UNDEFINED_OBJECT);
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
