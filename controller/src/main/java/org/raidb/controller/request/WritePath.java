package org.raidb.controller.request;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.raidb.balancer.NoBackendAvailableException;
import org.raidb.balancer.Request;
import org.raidb.balancer.RequestKind;
import org.raidb.balancer.TableNotHeldException;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.SchemaChange;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.backend.BackendTables;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backend.FailureClassifier;
import org.raidb.controller.cache.Invalidation;
import org.raidb.controller.health.HealthMonitor;
import org.raidb.controller.recovery.LoggedRequest;
import org.raidb.controller.recovery.WriteLog;
import org.raidb.controller.scheduler.SchedulerType;
import org.raidb.controller.transaction.BackendLane;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.transaction.Transaction;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.recovery.DisableCause;

/**
 * Steps 4, 6, 7 and 9 of the request path for writes: the scheduler admits the write, the balancer
 * names the backends, each backend's lane runs it, and the client is answered once the completion
 * policy is met. The remaining backends finish in the background; their answers are then resolved,
 * which may disable a backend, and the statement's locks are released.
 */
final class WritePath {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(WritePath.class);
    private final BackendArray vdb;
    private final BackendConnections connections;
    private final BackendLanes backendLanes;

    WritePath(BackendArray vdb, BackendConnections connections, BackendLanes lanes) {
        this.vdb = vdb;
        this.connections = connections;
        this.backendLanes = lanes;
    }

    /** Runs a write whose conflict claims are known (step 4 on); answers as the completion policy says. */
    StatementResult write(Write w) throws SQLException {
        Transaction tx = w.transaction();
        SessionState s = w.session();
        // Every write passes here, a group member's too (its shadow session's path): what it may change leaves
        // the result cache before it runs on any backend, and nothing is cached again until every backend ran it.
        Invalidation cached = vdb.resultCache()
                .writeStarting(
                        CatalogWriteEffects.of(w.analysis(), w.statement(), vdb.keys()), tx == null ? 0 : tx.id());
        w.owner(tx != null ? tx.id() : s.nextTransactionId());
        // REPEATABLE READ and SERIALIZABLE: a backend may refuse the statement with 40001 where the others
        // applied it; the client must hear that on this statement, before it goes on or commits.
        w.waitForAll(tx != null && SnapshotReads.keepsOneSnapshot(vdb, tx));
        WriteLog writeLog = vdb.writeLog();
        // An auto-commit write's unit ends when every backend answered; a transaction's when it ends.
        w.unit(writeLog.enterUnit(tx));
        try {
            w.targets(writeBackends(w.analysis(), tx));
            // With one backend and no log there is no order to agree on: the backend orders its own writes.
            // The log must hold writes in the order they ran, and the pessimistic scheduler still admits one
            // write transaction at a time, as configured.
            boolean ordered = w.targets().size() > 1
                    || writeLog.enabled()
                    || vdb.scheduler().type() == SchedulerType.PESSIMISTIC_TRANSACTION
                    || (tx != null && !vdb.scheduler().holdsNothing(w.owner()));
            w.admitted(
                    ordered
                            ? vdb.scheduler()
                                    .admit(w.owner(), s.priorityStamp(w.owner()), w.inTransaction(), w.claims())
                            : List.of());
            w.logged(writeLog.logWrite(w));
            w.lanes(backendLanes.lanes(w.targets(), s, tx));
            leftOut(w);
        } catch (SQLException | RuntimeException e) {
            LoggedRequest logged = w.logged();
            if (logged != null) {
                // Logged but run nowhere (no connection to be had): failed everywhere, so no backend lacks it
                // and no restart takes it for a write in doubt.
                for (DatabaseBackend b : w.targets()) {
                    logged.ranOn(b, false);
                }
                logged.resolved(e instanceof SQLException se ? se : new SQLException(e));
            }
            release(w);
            cached.finished();
            if (tx != null) {
                tx.abort(e instanceof SQLException se ? se : new SQLException(e));
            }
            throw e;
        }
        WriteOutcome outcome = run(w, () -> {
            try {
                release(w);
            } finally {
                cached.finished();
            }
        });
        if (tx == null) {
            for (int i = 0; i < w.lanes().size(); i++) {
                s.lastWrites().put(w.lanes().get(i).backend(), outcome.futures.get(i));
            }
        }
        StatementResult result = outcome.await(tx);
        w.logged().awaitDurable();
        if (tx != null) {
            tx.markWritten();
        }
        return result;
    }

    /** What the write held for its own sake: its statement's locks, and an auto-commit write's gate unit. */
    private void release(Write w) {
        if (w.admitted()) {
            vdb.scheduler().statementDone(w.owner(), w.inTransaction(), w.locks());
        }
        w.unit().close();
    }

    /**
     * A target that could not give a connection was disabled and left out: the write never reached it,
     * so it is no write in doubt there, and its checkpoint need not wait for an answer that cannot come.
     */
    private static void leftOut(Write w) {
        if (w.targets().size() == w.lanes().size()) {
            return;
        }
        for (DatabaseBackend b : w.targets()) {
            if (w.lanes().stream().noneMatch(l -> l.backend() == b)) {
                w.logged().ranOn(b, false);
            }
        }
    }

    /** Runs a transaction's command (commit, rollback, savepoint) on every lane it names. */
    void runCommand(Write command, Runnable whenAllDone) throws SQLException {
        Transaction tx = command.transaction();
        // A commit makes its transaction's writes visible to other sessions: cached reads of them go again.
        Invalidation cached = tx != null && command.statement().startsWith("COMMIT")
                ? vdb.resultCache().committing(tx.id())
                : null;
        WriteOutcome outcome = run(
                command,
                cached == null
                        ? whenAllDone
                        : () -> {
                            try {
                                whenAllDone.run();
                            } finally {
                                cached.finished();
                            }
                        });
        outcome.await(command.transaction());
        command.logged().awaitDurable();
    }

    /** Sends the write to each of its lanes; {@code whenAllDone} runs once every backend answered. */
    private WriteOutcome run(Write w, Runnable whenAllDone) {
        List<BackendLane> lanes = w.lanes();
        String statement = w.statement();
        int required =
                w.waitsForAll() ? lanes.size() : vdb.balancer().completion().required(lanes.size());
        List<DatabaseBackend> backends =
                lanes.stream().map(BackendLane::backend).toList();
        CompletionTracker tracker = new CompletionTracker(required, backends);
        LateAnswers late = new LateAnswers(vdb.health(), tracker, backends, statement);
        WriteOutcome outcome = new WriteOutcome(tracker);
        List<CompletableFuture<BackendOutcome>> futures = new ArrayList<>(lanes.size());
        // The other backends first, on backend threads; then the first on this thread, so that they all run at once.
        // Each answer is counted as it comes, before the first runs here: if the first hangs, the others' answers
        // start the clock that cuts it loose.
        for (int i = lanes.size() - 1; i >= 0; i--) {
            BackendLane lane = lanes.get(i);
            DatabaseBackend b = lane.backend();
            CompletableFuture<BackendOutcome> f =
                    lane.submit(() -> runOne(lane, w, lanes.size() == 1, late), vdb.backendThreads(), i == 0);
            futures.add(0, f);
            // An answer is counted even if the work itself blew up, so that the request always completes.
            f.handle((o, e) -> {
                        late.answered(tracker.add(o != null ? o : internalFailure(b, e)));
                        return null;
                    })
                    .exceptionally(e -> {
                        log.error("counting the answer of backend {} to [{}] failed", b.name(), statement, e);
                        return null;
                    });
        }
        outcome.futures = futures;
        tracker.all()
                .handle((all, e) -> {
                    try {
                        if (e != null) {
                            throw e;
                        }
                        outcome.resolved.complete(finish(all, outcome, w, whenAllDone));
                    } catch (Throwable t) {
                        log.error("resolving the answers to [{}] failed", statement, t);
                        outcome.resolved.completeExceptionally(t);
                    }
                    return null;
                })
                .exceptionally(e -> {
                    log.error("completing the answer to [{}] failed", statement, e);
                    return null;
                });
        return outcome;
    }

    /**
     * Once every backend answered: disable those that failed or diverged (under partial replication,
     * only the tables a diverging backend wrote), release what the statement held.
     */
    private OutcomeResolver.Resolution finish(
            List<BackendOutcome> all, WriteOutcome outcome, Write w, Runnable whenAllDone) {
        AnalyzedStatement a = w.analysis();
        Transaction tx = w.transaction();
        LoggedRequest logged = w.logged();
        OutcomeResolver.Resolution res;
        try {
            // A COMMIT that some backends applied cannot be undone there (a two-phase commit avoids that case).
            boolean rolledBackEverywhere = tx != null && (a != null || !tx.hasWritten());
            res = OutcomeResolver.resolve(all, w.statement(), rolledBackEverywhere);
            logged.resolved(res.clientError());
            // Under partial replication a statement whose tables the analyser cannot name runs on backends that
            // hold different tables: their answers differ by design, and no answer shows which one is out of step.
            boolean incomparable = vdb.balancer().partial() && a != null && a.touchesEverything();
            for (Map.Entry<DatabaseBackend, String> d : res.toDisable().entrySet()) {
                DatabaseBackend b = d.getKey();
                boolean diverged = res.diverged().contains(b);
                if (diverged && incomparable) {
                    log.warn(
                            "backend {} answered otherwise than the others, and stays enabled: under partial"
                                    + " replication the tables of this statement cannot be told, so its answers"
                                    + " cannot be compared ({})",
                            b.name(),
                            d.getValue());
                    continue;
                }
                Set<String> tables = diverged ? tablesOutOfStep(b, a, tx) : null;
                if (tables != null) {
                    vdb.disableTables(b, tables, d.getValue());
                    logged.notNeededOn(b); // replay leaves out writes to disabled tables
                } else {
                    vdb.disableWithoutWaiting(
                            b, diverged ? DisableCause.divergence(d.getValue()) : DisableCause.failure(d.getValue()));
                }
                // Its part of the transaction is rolled back once the work queued on it has run (refused there if the
                // backend left): closing the connection under a running statement would wait for it anyway.
                backendLanes.leaveTransaction(tx, b);
            }
            BackendOutcome answered = outcome.tracker.quorum().getNow(null);
            BackendOutcome kept = answered != null ? answered : res.winner();
            for (BackendOutcome o : all) {
                if (!o.equals(kept) && o.succeeded()) {
                    o.result().discard();
                }
            }
            if (answered != null && res.clientError() != null && tx != null) {
                // The client was answered early, but most backends failed the statement: its transaction cannot commit.
                tx.abort(res.clientError());
            }
        } finally {
            whenAllDone.run();
        }
        return res;
    }

    private static BackendOutcome internalFailure(DatabaseBackend b, Throwable e) {
        log.error("work on backend {} failed unexpectedly", b.name(), e);
        return new BackendOutcome(
                b,
                null,
                new SQLException("internal error on backend " + b.name() + ": " + e, SqlStates.INTERNAL_ERROR, e));
    }

    /**
     * The tables that are out of step on a backend that diverged, under partial replication: those the
     * statement wrote and, in a transaction, those the transaction wrote there (its part there is rolled
     * back). Null when the whole backend must go: RAIDb-1, or tables the controller cannot name.
     */
    private Set<String> tablesOutOfStep(DatabaseBackend b, AnalyzedStatement a, Transaction tx) {
        if (!vdb.balancer().partial()) {
            return null;
        }
        Set<String> tables = new HashSet<>();
        if (a != null) {
            if (a.touchesEverything()) {
                return null;
            }
            tables.addAll(a.tablesWritten());
        }
        BackendLane lane = tx == null ? null : tx.lane(b);
        if (lane != null) {
            Set<String> written = lane.writtenTables();
            if (written == null) {
                return null;
            }
            tables.addAll(written);
        }
        return tables.isEmpty() ? null : tables;
    }

    /**
     * @param alone no other backend runs the statement, whose answer could show this one hung: the health
     *     probe watches it instead
     */
    private BackendOutcome runOne(BackendLane lane, Write w, boolean alone, LateAnswers late) {
        AnalyzedStatement a = w.analysis();
        DatabaseBackend b = lane.backend();
        b.requestStarted();
        boolean applied = false;
        boolean maybeApplied = false;
        try {
            if (!b.isEnabled()) {
                // Disabled after this work was queued: what it missed is replayed from its checkpoint.
                return new BackendOutcome(
                        b,
                        null,
                        new SQLException("backend " + b.name() + " was disabled", SqlStates.CONNECTION_FAILURE));
            }
            late.started(b);
            StatementResult result;
            try (HealthMonitor.Watch watch = alone ? vdb.health().watch(b) : null) {
                result = w.work().run(lane.connection());
            }
            BackendOutcome o = new BackendOutcome(b, result, null);
            b.probe().heard();
            applied = true;
            if (a != null && a.kind() == StatementKind.WRITE) {
                b.wrote(a.tablesWritten());
            }
            if (a != null) {
                appliedOn(lane, a, w.transaction());
            }
            return o;
        } catch (SQLException e) {
            // A broken connection may have lost only the answer: the server may have committed the write.
            maybeApplied = FailureClassifier.isBackendFailure(e);
            return new BackendOutcome(b, null, e);
        } catch (RuntimeException e) {
            return new BackendOutcome(
                    b,
                    null,
                    new SQLException("internal error on backend " + b.name() + ": " + e, SqlStates.INTERNAL_ERROR, e));
        } finally {
            w.logged().ranOn(b, applied, maybeApplied);
            b.requestEnded();
            if (w.ownsConnections()) {
                connections.giveBack(lane.connection(), w.session());
            }
        }
    }

    /**
     * What a backend that applied a write records at once, before the client can send the next
     * statement: the tables the DDL created, dropped or renamed there, and the tables its transaction
     * has written there.
     */
    private static void appliedOn(BackendLane lane, AnalyzedStatement a, Transaction tx) {
        if (a.schemaChange() != null) {
            lane.backend().tables().apply(a.schemaChange());
            if (tx != null) {
                tx.schemaChanged(lane.backend(), a.schemaChange());
            } else {
                readTablesAfterDdl(lane);
            }
        }
        if (tx != null
                && (a.kind() == StatementKind.WRITE
                        || a.kind() == StatementKind.DDL
                        || a.kind() == StatementKind.CALL)) {
            lane.wrote(a.tablesWritten(), a.touchesEverything());
        }
    }

    /**
     * An auto-commit DDL may create or drop more than it names: a SERIAL or IDENTITY column's sequence, an index's
     * relation. A backend whose tables are read from its schema reads them again, so that its list stays what it
     * would read at its next start, and identical backends list the same (a failure keeps the named change).
     */
    private static void readTablesAfterDdl(BackendLane lane) {
        BackendTables tables = lane.backend().tables();
        if (tables.isConfigured()) {
            return;
        }
        try {
            tables.refreshFrom(lane.connection());
        } catch (SQLException e) {
            log.warn(
                    "backend {}: its tables could not be read again after a DDL ({}); the list keeps the table the"
                            + " statement named, and is read in full at the backend's next enable",
                    lane.backend().name(),
                    e.getMessage());
        }
    }

    List<DatabaseBackend> writeBackends(AnalyzedStatement a, Transaction tx) throws SQLException {
        Request request = new Request(
                a.kind().requestKind() == RequestKind.READ
                        ? RequestKind.WRITE
                        : a.kind().requestKind(),
                a.tablesRead(),
                a.tablesWritten(),
                a.touchesEverything(),
                tx == null ? 0 : tx.id(),
                tx == null ? Set.of() : tx.backendNames(),
                tx != null && tx.hasWritten(),
                a.createdTable());
        try {
            return vdb.balancer().writeBackends(request, vdb.backends());
        } catch (TableNotHeldException e) {
            SchemaChange change = a.schemaChange();
            if (change != null && change.kind() == SchemaChange.Kind.DROP && change.ifExists()) {
                // DROP … IF EXISTS of a table no backend holds: a no-op wherever it runs, as on a single database.
                List<DatabaseBackend> enabled = vdb.backends().stream()
                        .filter(DatabaseBackend::isEnabled)
                        .toList();
                if (!enabled.isEmpty()) {
                    return enabled;
                }
            }
            throw Errors.unavailable(vdb, e, null);
        } catch (NoBackendAvailableException e) {
            throw Errors.unavailable(vdb, e, null);
        }
    }
}
