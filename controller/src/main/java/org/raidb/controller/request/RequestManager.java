package org.raidb.controller.request;

import java.sql.SQLException;
import java.util.List;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.determinism.DeterministicBatch;
import org.raidb.controller.result.UpdateCount;
import org.raidb.controller.transaction.BetweenCommitPhases;
import org.raidb.controller.transaction.Savepoints;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.transaction.TransactionEnd;
import org.raidb.controller.transaction.TransactionModes;
import org.raidb.driver.protocol.SqlStates;

/**
 * The request path of DESIGN.md, in order: analyse the statement, then hand it to the path for its
 * kind: transaction demarcation ({@link TransactionEnd}, {@link Savepoints}), advisory-lock calls
 * ({@link AdvisoryLockPath}), reads ({@link ReadPath}) or writes ({@link WriteEntry}, then
 * {@link WritePath}: schedule, balance, execute, complete).
 */
public final class RequestManager {
    private static final StatementResult NO_RESULT = new StatementResult(List.of(new UpdateCount(0)), null);

    private final BackendArray vdb;
    private final BackendConnections connections = new BackendConnections();
    private final DeterministicStatements deterministic;
    private final TransactionEnd ends;
    private final Savepoints savepoints;
    private final AdvisoryLockPath advisoryLocks;
    private final CachedReads reads;
    private final WriteEntry writes;
    private volatile RequestListener listener = RequestListener.NONE;

    /**
     * Builds the request path's parts for one virtual database.
     *
     * @param betweenCommitPhases run after every backend prepared a two-phase commit (a test's crash point)
     */
    public RequestManager(BackendArray vdb, BetweenCommitPhases betweenCommitPhases) {
        this.vdb = vdb;
        BackendLanes lanes = new BackendLanes(vdb, connections);
        WritePath writePath = new WritePath(vdb, connections, lanes);
        SnapshotReads snapshots = new SnapshotReads(vdb);
        WriteClaims keys = new WriteClaims(vdb);
        this.deterministic = new DeterministicStatements(vdb);
        RequestTransactionPath transactions =
                new RequestTransactionPath(vdb, connections, writePath, lanes, deterministic, keys);
        this.ends = new TransactionEnd(transactions, betweenCommitPhases);
        this.savepoints = new Savepoints(transactions, ends);
        this.advisoryLocks = new AdvisoryLockPath(vdb, connections, lanes, snapshots, ends);
        this.reads = new CachedReads(vdb, new ReadPath(vdb, connections, lanes, snapshots));
        this.writes = new WriteEntry(vdb, connections, writePath, deterministic, keys, advisoryLocks, ends);
    }

    /** Who is told of each request answered (the controller's metrics); set once, before clients connect. */
    public void listenWith(RequestListener listener) {
        this.listener = listener;
    }

    public StatementResult execute(SessionState s, ExecuteRequest request) throws SQLException {
        long start = System.nanoTime();
        AnalyzedStatement a = analyze(request);
        boolean failed = true;
        try {
            StatementResult r = execute(s, request, a);
            failed = false;
            return r;
        } finally {
            listener.answered(a.kind(), System.nanoTime() - start, failed);
        }
    }

    private StatementResult execute(SessionState s, ExecuteRequest request, AnalyzedStatement a) throws SQLException {
        if (a.kind() == StatementKind.TRANSACTION_CONTROL) {
            transactionCommand(s, a, request.sql());
            return NO_RESULT;
        }
        ends.refuseIfAborted(s);
        advisoryLocks.refuseIfLocksLost(s);
        if (a.refusal() != null) {
            throw new SQLException(a.refusal(), SqlStates.FEATURE_NOT_SUPPORTED);
        }
        if (a.advisoryLocks() != null) {
            try {
                return advisoryLocks.execute(s, a, request);
            } catch (SQLException e) {
                throw ends.rollBackVictim(s, e);
            }
        }
        List<ExecuteRequest> statements = deterministic.of(s, a, request);
        if (a.kind() == StatementKind.READ) {
            try {
                return reads.read(s, a, request, statements.get(statements.size() - 1));
            } catch (SQLException e) {
                throw ends.rollBackVictim(s, e);
            }
        }
        return writes.statement(s, a, request, statements);
    }

    /**
     * The request as every backend of every controller must run it: now(), random() and the volatile
     * defaults it relies on replaced by literals computed here once. A request the path would rewrite
     * into several statements (MariaDB's ALTER TABLE in two), or handle before analysis, is returned as
     * it is: it is deterministic already.
     */
    public ExecuteRequest deterministic(SessionState s, ExecuteRequest request) throws SQLException {
        AnalyzedStatement a = analyze(request);
        if (a.kind() == StatementKind.TRANSACTION_CONTROL || a.refusal() != null || a.advisoryLocks() != null) {
            return request;
        }
        List<ExecuteRequest> statements = deterministic.of(s, a, request);
        return statements.size() == 1 ? statements.get(0) : request;
    }

    /** Whether the request only reads: it then runs on one backend, outside the write order. */
    public boolean reads(ExecuteRequest request) throws SQLException {
        AnalyzedStatement a = analyze(request);
        return a.kind() == StatementKind.READ && a.advisoryLocks() == null;
    }

    private AnalyzedStatement analyze(ExecuteRequest request) throws SQLException {
        return request.call()
                ? vdb.analyzer().analyzeCall(request.sql())
                : vdb.analyzer().analyze(request.sql());
    }

    /** A write built outside a statement (a JDBC batch: {@link Write#batch}) enters where every write does. */
    public StatementResult write(Write w) throws SQLException {
        long start = System.nanoTime();
        boolean failed = true;
        try {
            StatementResult r = writes.write(w);
            failed = false;
            return r;
        } finally {
            listener.answered(StatementKind.WRITE, System.nanoTime() - start, failed);
        }
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
    public DeterministicBatch deterministicBatch(SessionState s, String sql, List<List<Object>> rows)
            throws SQLException {
        return deterministic.batch(s, vdb.analyzer().analyze(sql), sql, rows);
    }

    private void transactionCommand(SessionState s, AnalyzedStatement a, String sql) throws SQLException {
        switch (a.transactionCommand()) {
            case BEGIN -> {
                if (!s.inTransactionMode()) {
                    s.beginExplicitTransaction(TransactionModes.ofBegin(sql)); // set on each backend it joins
                }
            }
            // Timed as the statement that carried them, not a second time here.
            case COMMIT -> commitNow(s);
            case ROLLBACK -> ends.rollback(s);
            case SAVEPOINT -> savepoints.run(s, "SAVEPOINT", a.savepointName());
            case ROLLBACK_TO_SAVEPOINT -> savepoints.run(s, "ROLLBACK TO SAVEPOINT", a.savepointName());
            case RELEASE_SAVEPOINT -> savepoints.run(s, "RELEASE SAVEPOINT", a.savepointName());
            default -> throw new IllegalStateException(a.transactionCommand().toString());
        }
    }

    /** A session whose advisory locks were lost cannot commit as if it still held them: it is told, and rolled back. */
    public void commit(SessionState s) throws SQLException {
        long start = System.nanoTime();
        boolean failed = true;
        try {
            commitNow(s);
            failed = false;
        } finally {
            transactionAnswered(start, failed);
        }
    }

    private void commitNow(SessionState s) throws SQLException {
        advisoryLocks.refuseIfLocksLost(s);
        ends.commit(s);
    }

    public void rollback(SessionState s) throws SQLException {
        long start = System.nanoTime();
        boolean failed = true;
        try {
            ends.rollback(s);
            failed = false;
        } finally {
            transactionAnswered(start, failed);
        }
    }

    public void savepoint(SessionState s, String command, String name) throws SQLException {
        long start = System.nanoTime();
        boolean failed = true;
        try {
            savepoints.run(s, command, name);
            failed = false;
        } finally {
            transactionAnswered(start, failed);
        }
    }

    private void transactionAnswered(long start, boolean failed) {
        listener.answered(StatementKind.TRANSACTION_CONTROL, System.nanoTime() - start, failed);
    }

    /** The client's session has ended: its transaction is rolled back, its advisory locks released. */
    public void sessionEnded(SessionState s) throws SQLException {
        try {
            ends.rollback(s);
        } finally {
            advisoryLocks.sessionEnded(s);
        }
    }

    public BackendConnections connections() {
        return connections;
    }
}
