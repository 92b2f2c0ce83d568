package org.raidb.controller.request;

import java.sql.SQLException;
import java.util.Set;
import org.raidb.balancer.CheckedRead;
import org.raidb.balancer.NoBackendAvailableException;
import org.raidb.balancer.ReadVoting;
import org.raidb.balancer.Request;
import org.raidb.balancer.RequestKind;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backend.NoAnswerException;
import org.raidb.controller.health.HealthMonitor;
import org.raidb.controller.result.RowsetFrames;
import org.raidb.controller.transaction.BackendLane;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.transaction.Transaction;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.recovery.DisableCause;

/**
 * Reads under RAIDb-1ec and RAIDb-2ec: the read runs on several backends at once and their answers
 * are voted on while they stream ({@link VotedRows}): a batch at a time, each backend's rows so far
 * reduced to a running hash of what the client would receive. The majority's rows go to the client
 * and a backend that answered otherwise is disabled; without a majority the client gets an error and
 * nothing is disabled. Memory holds one batch per backend asked, however large the result.
 */
final class CheckedReads {
    /** SQLState when the backends disagree without a majority: the data cannot be trusted. */
    static final String NO_MAJORITY = SqlStates.DATA_CORRUPTED;

    private final BackendArray vdb;
    private final BackendConnections connections;
    private final BackendLanes lanes;

    CheckedReads(BackendArray vdb, BackendConnections connections, BackendLanes lanes) {
        this.vdb = vdb;
        this.connections = connections;
        this.lanes = lanes;
    }

    StatementResult read(SessionState s, AnalyzedStatement a, ExecuteRequest r, ReadVoting vote) throws SQLException {
        Transaction tx = s.transaction();
        Request request = new Request(
                RequestKind.READ,
                a.tablesRead(),
                Set.of(),
                a.touchesEverything(),
                tx == null ? 0 : tx.id(),
                tx == null ? Set.of() : tx.backendNames(),
                tx != null && tx.hasWritten());
        CheckedRead<DatabaseBackend> plan;
        try {
            plan = vote.checkedRead(request, vdb.backends());
        } catch (NoBackendAvailableException e) {
            throw Errors.unavailable(vdb, e, null);
        }
        VotedRows rows = new VotedRows(plan, r.sql(), new SessionVoters(s, tx, r), vdb.backendThreads());
        return rows.start(r.fetchSize(), RowsetFrames.BATCH_BYTES);
    }

    /** The backends' side of one session's read: asking them, and what happens to those outvoted. */
    private final class SessionVoters implements VotedRows.Voters {
        private final SessionState s;
        private final Transaction tx;
        private final ExecuteRequest r;

        SessionVoters(SessionState s, Transaction tx, ExecuteRequest r) {
            this.s = s;
            this.tx = tx;
            this.r = r;
        }

        @Override
        public BackendAnswer ask(DatabaseBackend b, long agreedRows, int maxRows, int maxBytes) {
            b.requestStarted();
            try (HealthMonitor.Watch watch = vdb.health().watch(b)) {
                BackendAnswer answer = BackendAnswer.of(
                        b,
                        tx != null
                                ? readInTransaction(b)
                                // Asked mid-stream, the result is known to be larger than a batch.
                                : connections.readAutoCommit(b, s, r, agreedRows == 0));
                answer.readBatch(agreedRows, maxRows, maxBytes);
                return answer;
            } catch (SQLException e) {
                if (e instanceof NoAnswerException) {
                    vdb.disableFailed(b, "read failed", e); // a hang: judged against the others, and cut loose
                }
                return BackendAnswer.of(b, e);
            } finally {
                b.requestEnded();
            }
        }

        /** On the transaction's own connection to the backend, which stays the transaction's. */
        private StatementResult readInTransaction(DatabaseBackend b) throws SQLException {
            BackendLane lane = lanes.joinTransaction(tx, b, s);
            lane.idle().join(); // the transaction's earlier writes on this backend come first
            return connections.runner().run(lane.connection(), r, true, () -> {}, s.running());
        }

        @Override
        public void disable(DatabaseBackend b, DisableCause cause) {
            vdb.disableWithoutWaiting(b, cause);
            lanes.leaveTransaction(tx, b);
        }

        @Override
        public SQLException majorityError(SQLException e) {
            if (tx != null) {
                tx.abort(e); // PostgreSQL refuses the rest of a transaction after an error
            }
            return e;
        }
    }
}
