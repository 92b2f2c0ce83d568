package org.raidb.controller.request;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.raidb.balancer.NoBackendAvailableException;
import org.raidb.balancer.ReadVoting;
import org.raidb.balancer.Request;
import org.raidb.balancer.RequestKind;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backend.FailureClassifier;
import org.raidb.controller.health.HealthMonitor;
import org.raidb.controller.transaction.BackendLane;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.transaction.Transaction;
import org.raidb.driver.protocol.SqlStates;

/**
 * Step 5 of the request path for reads: one backend answers, chosen by the balancer, or where the
 * level votes on reads several answer at once ({@link CheckedReads}). A read whose backend fails is
 * retried on another one, so that clients do not see a backend die.
 */
final class ReadPath {
    private final BackendArray vdb;
    private final BackendConnections connections;
    private final BackendLanes lanes;
    private final SnapshotReads snapshots;
    private final CheckedReads checkedReads;

    ReadPath(BackendArray vdb, BackendConnections connections, BackendLanes lanes, SnapshotReads snapshots) {
        this.vdb = vdb;
        this.connections = connections;
        this.lanes = lanes;
        this.snapshots = snapshots;
        this.checkedReads = new CheckedReads(vdb, connections, lanes);
    }

    StatementResult read(SessionState s, AnalyzedStatement a, ExecuteRequest r) throws SQLException {
        Optional<ReadVoting> vote = vdb.balancer().readVote();
        if (vote.isPresent()) {
            return checkedReads.read(s, a, r, vote.get());
        }
        Transaction tx = s.transaction();
        SQLException lastFailure = null;
        // Backends whose pool had no free connection: tried last, and not disabled for it.
        Set<DatabaseBackend> busy = new HashSet<>();
        for (int attempt = 0; attempt < vdb.backends().size(); attempt++) {
            DatabaseBackend b = readBackend(a, tx, s, lastFailure, busy);
            b.requestStarted();
            // A hung backend is found by the watch, which aborts its connections: the read fails here and goes
            // elsewhere.
            try (HealthMonitor.Watch watch = vdb.health().watch(b)) {
                StatementResult result;
                if (tx != null) {
                    BackendLane lane = lanes.joinTransaction(tx, b, s);
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
                    lanes.leaveTransaction(tx, b);
                    lastFailure = e;
                    continue;
                }
                if (SqlStates.TOO_MANY_CONNECTIONS.equals(e.getSQLState())
                        && busy.add(b)
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
    private DatabaseBackend readBackend(
            AnalyzedStatement a, Transaction tx, SessionState s, SQLException lastFailure, Set<DatabaseBackend> busy)
            throws SQLException {
        Request request = new Request(
                RequestKind.READ,
                a.tablesRead(),
                Set.of(),
                a.touchesEverything(),
                tx == null ? 0 : tx.id(),
                tx == null ? Set.of() : tx.backendNames(),
                tx != null && tx.hasWritten());
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
        List<DatabaseBackend> free =
                candidates.stream().filter(b -> !busy.contains(b)).toList();
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
}
