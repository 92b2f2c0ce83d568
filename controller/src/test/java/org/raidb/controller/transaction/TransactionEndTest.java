package org.raidb.controller.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.determinism.SqlDialect;
import org.raidb.driver.protocol.SqlStates;

/**
 * The end of a transaction without a controller: a session, its transaction, lanes on in-process H2
 * databases, and a {@link TransactionPath} that records what the end asks of the request path and runs
 * each command on every lane at once.
 */
class TransactionEndTest {
    private final RecordingPath path = new RecordingPath();
    private final TransactionEnd ends = new TransactionEnd(path, BetweenCommitPhases.NONE);
    private final SessionState session = new SessionState(1, "app", new TransactionIds());
    private final List<Connection> opened = new ArrayList<>();

    @AfterEach
    void closeConnections() throws SQLException {
        for (Connection c : opened) {
            c.close();
        }
    }

    @Test
    void committingWithoutATransactionDoesNothing() throws SQLException {
        ends.commit(session);

        assertThat(path.calls).isEmpty();
    }

    @Test
    void aCommitRunsOnEveryLaneThenGivesBackItsConnectionsAndReleasesWhatItHeldOnce() throws SQLException {
        CountingUnit unit = new CountingUnit();
        Transaction tx = loggedTransaction(unit);
        Connection db1 = laneOn(tx, "db1");
        Connection db2 = laneOn(tx, "db2");
        insert(db1);
        insert(db2);

        ends.commit(session);

        assertThat(path.calls)
                .containsExactly(
                        "logEnd commit on 2 lanes", "committing", "run COMMIT", "giveBack", "giveBack", "ended");
        assertThat(unit.closed).as("the log unit, closed once at the end").hasValue(1);
        assertThat(tx.isEmpty()).as("every lane forgotten").isTrue();
        assertThat(session.currentTransaction()).isNull();
        assertThat(rows("db1")).isEqualTo(1);
        assertThat(rows("db2")).isEqualTo(1);
    }

    @Test
    void aTransactionThatFailedEarlierIsRolledBackNotCommitted() throws SQLException {
        session.autoCommit(false);
        Transaction tx = session.transaction();
        insert(laneOn(tx, "db1"));
        tx.abort(new SQLException("duplicate key", "23505"));

        assertThatThrownBy(() -> ends.commit(session))
                .isInstanceOf(SQLException.class)
                .hasMessageStartingWith(
                        "the transaction was rolled back, not committed, because an earlier statement in it failed")
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo(SqlStates.IN_FAILED_TRANSACTION);
        assertThat(path.calls)
                .startsWith("logEnd rollback on 1 lanes")
                .contains("run ROLLBACK")
                .endsWith("ended");
        assertThat(rows("db1")).isZero();
    }

    @Test
    void aVictimKeepsItsOwnStateWhenItsCommitIsRefused() {
        session.autoCommit(false);
        session.transaction().abort(new SQLException("could not serialize access", SqlStates.SERIALIZATION_FAILURE));

        assertThatThrownBy(() -> ends.commit(session))
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo(SqlStates.SERIALIZATION_FAILURE);
    }

    @Test
    void aTransactionWithoutLanesLogsItsRollbackAndReleasesWhatItHeld() throws SQLException {
        CountingUnit unit = new CountingUnit();
        Transaction tx = loggedTransaction(unit);

        ends.commit(session);

        assertThat(path.calls).containsExactly("logEnd rollback on 0 lanes", "awaitDurable", "ended");
        assertThat(unit.closed).hasValue(1);
    }

    @Test
    void onlyAClass40FailureRollsTheTransactionBack() {
        session.autoCommit(false);
        Transaction tx = session.transaction();
        SQLException duplicate = new SQLException("duplicate key", "23505");

        assertThat((Object) ends.rollBackVictim(session, duplicate)).isSameAs(duplicate);
        assertThat(session.currentTransaction()).isSameAs(tx);

        ends.rollBackVictim(session, new SQLException("deadlock detected", "40P01"));
        assertThat(session.currentTransaction()).isNull();
        assertThat(path.calls).endsWith("ended");
    }

    @Test
    void anAbortedTransactionRefusesStatementsUntilRolledBack() {
        session.autoCommit(false);
        session.transaction().abort(new SQLException("division by zero", "22012"));

        assertThatThrownBy(() -> ends.refuseIfAborted(session))
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo(SqlStates.IN_FAILED_TRANSACTION);
        assertThat(session.currentTransaction()).as("the client rolls it back").isNotNull();
    }

    @Test
    void savepointsNeedATransactionAndAName() {
        Savepoints savepoints = new Savepoints(path, ends);

        assertThatThrownBy(() -> savepoints.run(session, "SAVEPOINT", "a"))
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo(SqlStates.INVALID_TRANSACTION_STATE);
        session.autoCommit(false);
        assertThatThrownBy(() -> savepoints.run(session, "SAVEPOINT", "a; DROP TABLE t"))
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo(SqlStates.INVALID_SAVEPOINT);
        assertThat(path.calls).isEmpty();
    }

    /** A transaction of the session that has logged a statement, holding {@code unit} of the write gate. */
    private Transaction loggedTransaction(WriteUnit unit) {
        session.autoCommit(false);
        Transaction tx = session.transaction();
        tx.markLogged(unit);
        return tx;
    }

    private Connection laneOn(Transaction tx, String name) throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1", "sa", "");
        opened.add(c);
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS items (id INT)");
            st.execute("DELETE FROM items");
        }
        c.setAutoCommit(false);
        DatabaseBackend b =
                new DatabaseBackend("shop", new BackendConfig(name, "jdbc:h2:mem:" + name, "sa", "", 1, 1, List.of()));
        tx.join(new BackendLane(b, c));
        return c;
    }

    private static void insert(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("INSERT INTO items VALUES (1)");
        }
    }

    private int rows(String name) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1", "sa", "");
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM items")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static final class CountingUnit implements WriteUnit {
        final AtomicInteger closed = new AtomicInteger();

        @Override
        public void close() {
            closed.incrementAndGet();
        }
    }

    /** Runs each command on every lane in turn, on the calling thread, and records what was asked. */
    private static final class RecordingPath implements TransactionPath {
        final List<String> calls = new ArrayList<>();

        @Override
        public String virtualDatabase() {
            return "shop";
        }

        @Override
        public boolean commitsInTwoPhases() {
            return false;
        }

        @Override
        public SqlDialect dialect() {
            return SqlDialect.GENERIC;
        }

        @Override
        public Executor backendThreads() {
            return Runnable::run;
        }

        @Override
        public boolean keepsOneSnapshot(Transaction tx) {
            return false;
        }

        @Override
        public LoggedCommand logEnd(Transaction tx, SessionState s, boolean commit, List<BackendLane> lanes) {
            calls.add("logEnd " + (commit ? "commit" : "rollback") + " on " + lanes.size() + " lanes");
            return command(lanes);
        }

        @Override
        public LoggedCommand logSavepoint(Transaction tx, SessionState s, String command, String name) {
            calls.add("logSavepoint " + command + " " + name);
            return command(new ArrayList<>(tx.lanes()));
        }

        private LoggedCommand command(List<BackendLane> lanes) {
            return new LoggedCommand() {
                @Override
                public void awaitDurable() {
                    calls.add("awaitDurable");
                }

                @Override
                public void run(
                        String statement, LaneWork work, Transaction tx, Runnable whenAllDone, boolean waitForAll)
                        throws SQLException {
                    calls.add("run " + statement);
                    try {
                        for (BackendLane lane : lanes) {
                            work.run(lane.connection());
                        }
                    } finally {
                        whenAllDone.run();
                    }
                }
            };
        }

        @Override
        public Runnable committing(Transaction tx) {
            calls.add("committing");
            return () -> calls.add("catalogue undone");
        }

        @Override
        public void giveBack(Connection c, SessionState s) {
            calls.add("giveBack");
        }

        @Override
        public void ended(Transaction tx) {
            calls.add("ended");
        }
    }
}
