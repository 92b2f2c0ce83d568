package org.raidb.controller.request;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.determinism.SqlDialect;
import org.raidb.controller.recovery.LoggedRequest;
import org.raidb.controller.transaction.BackendLane;
import org.raidb.controller.transaction.LoggedCommand;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.transaction.Transaction;
import org.raidb.controller.transaction.TransactionPath;

/** The request path as the end of a transaction uses it: its log, its lanes, its pools, and what writes left behind. */
final class RequestTransactionPath implements TransactionPath {
    /** A statement that goes to every enabled backend and names no table (savepoints). */
    private static final AnalyzedStatement EVERY_BACKEND =
            new AnalyzedStatement(StatementKind.WRITE, Set.of(), Set.of(), false, null, null);

    private static final StatementResult NOTHING = new StatementResult(List.of(), null);

    private final BackendArray vdb;
    private final BackendConnections connections;
    private final WritePath writes;
    private final BackendLanes lanes;
    private final DeterministicStatements deterministic;
    private final WriteClaims keys;

    RequestTransactionPath(
            BackendArray vdb,
            BackendConnections connections,
            WritePath writes,
            BackendLanes lanes,
            DeterministicStatements deterministic,
            WriteClaims keys) {
        this.vdb = vdb;
        this.connections = connections;
        this.writes = writes;
        this.lanes = lanes;
        this.deterministic = deterministic;
        this.keys = keys;
    }

    @Override
    public String virtualDatabase() {
        return vdb.name();
    }

    @Override
    public boolean commitsInTwoPhases() {
        return vdb.balancer().commitsInTwoPhases();
    }

    @Override
    public SqlDialect dialect() throws SQLException {
        return vdb.dialect();
    }

    @Override
    public Executor backendThreads() {
        return vdb.backendThreads();
    }

    @Override
    public boolean keepsOneSnapshot(Transaction tx) throws SQLException {
        return SnapshotReads.keepsOneSnapshot(vdb, tx);
    }

    @Override
    public LoggedCommand logEnd(Transaction tx, SessionState s, boolean commit, List<BackendLane> lanes)
            throws SQLException {
        LoggedRequest logged = vdb.writeLog()
                .logEnd(
                        tx,
                        s.virtualUser(),
                        commit,
                        lanes.stream().map(BackendLane::backend).toList());
        return new Command(logged, s, lanes);
    }

    @Override
    public LoggedCommand logSavepoint(Transaction tx, SessionState s, String command, String name) throws SQLException {
        List<BackendLane> joined = lanes.lanes(writes.writeBackends(EVERY_BACKEND, tx), s, tx);
        vdb.writeLog().enterUnit(tx); // the transaction holds the unit until it ends
        return new Command(vdb.writeLog().logSavepoint(tx, s.virtualUser(), command, name), s, joined);
    }

    @Override
    public Runnable committing(Transaction tx) {
        return deterministic.committing(tx);
    }

    @Override
    public void giveBack(Connection c, SessionState s) {
        connections.giveBack(c, s);
    }

    @Override
    public void ended(Transaction tx) {
        keys.ended(tx); // before its classes go: the next writer of its tables sees their keys as they now are
        vdb.scheduler().transactionDone(tx.id());
        vdb.functions().settled(tx.id());
        deterministic.ended(tx);
        vdb.resultCache().transactionEnded(tx.id());
    }

    /** A logged command, run on its lanes as a write without a statement of its own. */
    private final class Command implements LoggedCommand {
        private final LoggedRequest logged;
        private final SessionState s;
        private final List<BackendLane> lanes;

        Command(LoggedRequest logged, SessionState s, List<BackendLane> lanes) {
            this.logged = logged;
            this.s = s;
            this.lanes = lanes;
        }

        @Override
        public void awaitDurable() throws SQLException {
            logged.awaitDurable();
        }

        @Override
        public void run(String statement, LaneWork work, Transaction tx, Runnable whenAllDone, boolean waitForAll)
                throws SQLException {
            BackendWork onLane = c -> {
                work.run(c);
                return NOTHING;
            };
            writes.runCommand(Write.command(s, tx, statement, onLane, lanes, logged, waitForAll), whenAllDone);
        }
    }
}
