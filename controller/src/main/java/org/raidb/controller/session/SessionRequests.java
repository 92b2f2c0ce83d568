package org.raidb.controller.session;

import java.sql.SQLException;
import java.util.List;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.group.LocalRequests;
import org.raidb.controller.request.ExecuteRequest;
import org.raidb.controller.request.StatementResult;
import org.raidb.controller.request.Write;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.BatchFrame;

/** A virtual database's own request path, as the sessions (and a group protocol in front of it) use it. */
public final class SessionRequests implements LocalRequests {
    private final VirtualDatabase vdb;
    private final RecentOutcomes outcomes;

    /** @param outcomes what the virtual database's sessions remember for clients that fail over */
    public SessionRequests(VirtualDatabase vdb, RecentOutcomes outcomes) {
        this.vdb = vdb;
        this.outcomes = outcomes;
    }

    @Override
    public StatementResult execute(SessionState s, ExecuteRequest r) throws SQLException {
        return vdb.requests().execute(s, r);
    }

    @Override
    public StatementResult batch(SessionState s, BatchFrame frame) throws SQLException {
        BatchRequest received = BatchRequest.of(frame);
        AnalyzedStatement a = received.analyze(vdb.analyzer());
        BatchRequest batch = received.deterministic(
                sql -> vdb.requests().deterministicText(s, sql),
                (sql, rows) -> vdb.requests().deterministicBatch(s, sql, rows));
        // The statements as the client sent them tell which DDL the batch holds and which rows it claims.
        List<AnalyzedStatement> parts =
                received.texts().stream().map(vdb.analyzer()::analyze).toList();
        return vdb.requests()
                .write(Write.batch(
                        s,
                        a,
                        parts,
                        received.texts(),
                        received.parameterRows(),
                        batch.loggedStatements(),
                        batch.describe(),
                        batch::run));
    }

    @Override
    public void commit(SessionState s) throws SQLException {
        vdb.requests().commit(s);
    }

    @Override
    public void rollback(SessionState s) throws SQLException {
        vdb.requests().rollback(s);
    }

    @Override
    public void savepoint(SessionState s, String command, String name) throws SQLException {
        vdb.requests().savepoint(s, command, name);
    }

    @Override
    public void sessionEnded(SessionState s) throws SQLException {
        vdb.requests().sessionEnded(s);
    }

    @Override
    public ExecuteRequest deterministic(SessionState s, ExecuteRequest r) throws SQLException {
        return vdb.requests().deterministic(s, r);
    }

    @Override
    public BatchFrame deterministic(SessionState s, BatchFrame frame) throws SQLException {
        return BatchRequest.of(frame)
                .deterministic(
                        sql -> vdb.requests().deterministicText(s, sql),
                        (sql, rows) -> vdb.requests().deterministicBatch(s, sql, rows))
                .frame();
    }

    @Override
    public boolean reads(ExecuteRequest r) throws SQLException {
        return vdb.requests().reads(r);
    }

    @Override
    public void expectOutcome(String clientSessionId, long requestId) {
        outcomes.expect(clientSessionId, requestId);
    }

    @Override
    public void ranFor(
            SessionState shadow, String clientSessionId, long requestId, StatementResult result, SQLException failure) {
        try {
            if (shadow.betweenTransactions()) {
                if (failure != null) {
                    if (!ClientSession.mayPassNextTime(failure.getSQLState())) {
                        outcomes.record(clientSessionId, requestId, RequestOutcome.failed(failure));
                    }
                } else {
                    RequestOutcome.of(result).ifPresent(o -> outcomes.record(clientSessionId, requestId, o));
                }
            }
        } finally {
            outcomes.settled(clientSessionId, requestId);
        }
    }
}
