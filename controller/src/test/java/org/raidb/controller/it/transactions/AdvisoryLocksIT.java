package org.raidb.controller.it.transactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * Advisory locks through RAIDb behave as on one PostgreSQL server: every lock call goes to one lock
 * backend, on the session's own connection there, and nothing a session locked outlives it on a
 * pooled connection. Each scenario runs once through pgjdbc straight on one server (in its
 * {@code postgres} database, whose lock keys are apart from the virtual database's) and once through
 * RAIDb over three backends that spread reads round robin, and both must observe the same.
 */
class AdvisoryLocksIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    /** Opens connections of one kind: straight to one server, or through the controller. */
    @FunctionalInterface
    interface Connections {
        Connection open() throws SQLException;
    }

    /** What a client does and sees. */
    @FunctionalInterface
    interface Scenario {
        List<Object> run(Connections db) throws SQLException;
    }

    /** The scenario sees {@code expected} on one server, and the same through RAIDb, which keeps no lock after it. */
    private void assertAsOnOnePostgres(Scenario scenario, Object... expected) throws Exception {
        List<Object> single = scenario.run(() -> pg.server(0).connect("postgres"));
        assertThat(single).containsExactly(expected);
        try (ControllerFixture raidb = start()) {
            assertThat(scenario.run(raidb::connect)).isEqualTo(single);
            assertNoAdvisoryLockLeft();
        }
    }

    @Test
    void anotherSessionsTryLockFailsAsLongAsATransactionHoldsTheLock() throws Exception {
        assertAsOnOnePostgres(AdvisoryLocksIT::tryWhileAnotherTransactionHolds, true, false, false, false, false, true);
    }

    private static List<Object> tryWhileAnotherTransactionHolds(Connections db) throws SQLException {
        List<Object> seen = new ArrayList<>();
        try (Connection holder = db.open();
                Connection other = db.open()) {
            holder.setAutoCommit(false);
            seen.add(bool(holder, "SELECT pg_try_advisory_xact_lock(777)"));
            for (int i = 0; i < 4; i++) {
                seen.add(bool(other, "SELECT pg_try_advisory_xact_lock(777)"));
            }
            holder.commit();
            seen.add(bool(other, "SELECT pg_try_advisory_xact_lock(777)"));
        }
        return seen;
    }

    @Test
    void aSessionUnlocksWhatItLockedWhateverRanInBetween() throws Exception {
        assertAsOnOnePostgres(AdvisoryLocksIT::lockReadUnlock, "", true, "", true, 3L, true, true, "", false);
    }

    /** Lock, plain reads (spread over backends), a transaction, then unlock: every unlock finds its lock. */
    private static List<Object> lockReadUnlock(Connections db) throws SQLException {
        List<Object> seen = new ArrayList<>();
        try (Connection c = db.open()) {
            seen.add(string(c, "SELECT pg_advisory_lock(4242)"));
            seen.add(bool(c, "SELECT pg_advisory_unlock(4242)"));
            seen.add(string(c, "SELECT pg_advisory_lock(4242)"));
            seen.add(bool(c, "SELECT pg_try_advisory_lock_shared(4243)"));
            long reads = 0;
            for (int i = 0; i < 3; i++) {
                reads += ((Number) single(c, "SELECT 1")).longValue();
            }
            seen.add(reads);
            c.setAutoCommit(false);
            // A transaction-level lock on a key the session holds at session level: granted at once.
            seen.add(bool(c, "SELECT pg_try_advisory_xact_lock(4242)"));
            c.commit();
            c.setAutoCommit(true);
            seen.add(bool(c, "SELECT pg_advisory_unlock(4242)"));
            seen.add(string(c, "SELECT pg_advisory_unlock_all()"));
            seen.add(bool(c, "SELECT pg_advisory_unlock_shared(4243)")); // released by unlock_all
        }
        return seen;
    }

    @Test
    void aTransactionWritesAfterTakingALockAsFlywayDoes() throws Exception {
        // Before the fix the SET waited forever for the transaction's own part on the lock backend to end.
        assertTimeoutPreemptively(
                Duration.ofMinutes(2),
                () -> assertAsOnOnePostgres(AdvisoryLocksIT::lockThenWrite, true, 1L, false, 1L, true));
    }

    /** Flyway's migration transaction: a transaction-level lock first, then its role restored, DDL and a write. */
    private static List<Object> lockThenWrite(Connections db) throws SQLException {
        List<Object> seen = new ArrayList<>();
        try (Connection c = db.open();
                Connection other = db.open();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            seen.add(bool(c, "SELECT pg_try_advisory_xact_lock(31)"));
            st.execute("SET ROLE NONE");
            st.execute("CREATE TABLE locked_writes (id int PRIMARY KEY)");
            seen.add((long) st.executeUpdate("INSERT INTO locked_writes VALUES (1)"));
            seen.add(bool(other, "SELECT pg_try_advisory_xact_lock(31)"));
            c.commit();
            seen.add(single(other, "SELECT count(*) FROM locked_writes"));
            seen.add(bool(other, "SELECT pg_try_advisory_xact_lock(31)"));
            c.setAutoCommit(true);
            st.execute("DROP TABLE locked_writes");
        }
        return seen;
    }

    @Test
    void transactionLocksAreReleasedAtCommitAndRollback() throws Exception {
        assertAsOnOnePostgres(AdvisoryLocksIT::transactionLocks, false, true, false, true);
    }

    private static List<Object> transactionLocks(Connections db) throws SQLException {
        List<Object> seen = new ArrayList<>();
        try (Connection holder = db.open();
                Connection other = db.open()) {
            holder.setAutoCommit(false);
            string(holder, "SELECT pg_advisory_xact_lock(51)");
            seen.add(bool(other, "SELECT pg_try_advisory_lock(51)"));
            holder.commit();
            seen.add(bool(other, "SELECT pg_try_advisory_lock(51)"));
            bool(other, "SELECT pg_advisory_unlock(51)");
            string(holder, "SELECT pg_advisory_xact_lock_shared(52)");
            seen.add(bool(other, "SELECT pg_try_advisory_lock(52)"));
            holder.rollback();
            seen.add(bool(other, "SELECT pg_try_advisory_lock(52)"));
            bool(other, "SELECT pg_advisory_unlock(52)");
        }
        return seen;
    }

    @Test
    void aBlockingLockWaitsUntilTheHolderUnlocks() throws Exception {
        try (ControllerFixture raidb = start();
                Connection holder = raidb.connect();
                Connection waiter = raidb.connect()) {
            string(holder, "SELECT pg_advisory_lock(4343)");
            EmbeddedPostgresServer lockServer = onlyServerWithGrantedLock(4343);
            CompletableFuture<Object> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return string(waiter, "SELECT pg_advisory_lock(4343)");
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(PATIENCE).until(() -> advisoryLocks(lockServer, 4343, false) == 1);
            assertThat(waiting)
                    .as("the second session's lock call while the first holds the lock")
                    .isNotDone();
            assertThat(bool(holder, "SELECT pg_advisory_unlock(4343)")).isTrue();
            assertThat(waiting.get(PATIENCE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS))
                    .isEqualTo("");
            assertThat(advisoryLocks(lockServer, 4343, true))
                    .as("granted to the waiter")
                    .isEqualTo(1);
            assertThat(bool(waiter, "SELECT pg_advisory_unlock(4343)")).isTrue();
        }
    }

    @Test
    void locksOfAClosedSessionAreReleasedAndNoPooledConnectionKeepsThem() throws Exception {
        try (ControllerFixture raidb = start()) {
            try (Connection holder = raidb.connect()) {
                string(holder, "SELECT pg_advisory_lock(4444)");
                string(holder, "SELECT pg_advisory_lock_shared(4445)");
                holder.setAutoCommit(false);
                string(holder, "SELECT pg_advisory_lock(4446)"); // session-level, taken inside a transaction
                holder.commit();
                assertThat(onlyServerWithGrantedLock(4446)).isEqualTo(onlyServerWithGrantedLock(4444));
            }
            await().atMost(PATIENCE).untilAsserted(this::assertNoAdvisoryLockLeft);
            // Sessions now borrowing every pooled connection find no lock of the closed one.
            List<Connection> sessions = new ArrayList<>();
            try {
                for (int i = 0; i < 6; i++) {
                    Connection c = raidb.connect();
                    sessions.add(c);
                    assertThat(bool(c, "SELECT pg_try_advisory_lock(4444)")).isTrue();
                    assertThat(bool(c, "SELECT pg_advisory_unlock(4444)")).isTrue();
                }
            } finally {
                for (Connection c : sessions) {
                    c.close();
                }
            }
            await().atMost(PATIENCE).untilAsserted(this::assertNoAdvisoryLockLeft);
        }
    }

    @Test
    void aSessionWhoseLockBackendFailedLearnsItHasLostItsLocks() throws Exception {
        try (ControllerFixture raidb = start();
                Connection holder = raidb.connect();
                Connection other = raidb.connect()) {
            string(holder, "SELECT pg_advisory_lock(99)");
            EmbeddedPostgresServer lockServer = onlyServerWithGrantedLock(99);
            lockServer.kill();
            assertThatThrownBy(() -> bool(holder, "SELECT pg_advisory_unlock(99)"))
                    .isInstanceOf(SQLTransactionRollbackException.class)
                    .hasMessageContaining("advisory locks")
                    .hasMessageContaining(lockServer.name())
                    .extracting(e -> ((SQLException) e).getSQLState())
                    .isEqualTo("40001");
            // The session goes on, without the lock: another session may take it on the new lock backend.
            assertThat(bool(other, "SELECT pg_try_advisory_lock(99)")).isTrue();
            assertThat(bool(holder, "SELECT pg_try_advisory_lock(99)")).isFalse();
            assertThat(bool(other, "SELECT pg_advisory_unlock(99)")).isTrue();
            assertThat(bool(holder, "SELECT pg_try_advisory_lock(99)")).isTrue();
        }
    }

    @Test
    void aLockBackendDisabledByAnAdministratorFailsTheHoldersNextStatementAndItsTransaction() throws Exception {
        try (ControllerFixture raidb = start();
                Connection holder = raidb.connect();
                Connection inTransaction = raidb.connect();
                Connection other = raidb.connect()) {
            string(holder, "SELECT pg_advisory_lock(98)");
            inTransaction.setAutoCommit(false);
            string(inTransaction, "SELECT pg_advisory_xact_lock(97)");
            EmbeddedPostgresServer lockServer = onlyServerWithGrantedLock(98);
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            vdb.disableBackend(vdb.backend(lockServer.name()), "disabled by the test")
                    .join();
            // Any statement, not only a lock call: the session is in the part its lock protected.
            assertThatThrownBy(() -> single(holder, "SELECT 1"))
                    .isInstanceOf(SQLTransactionRollbackException.class)
                    .hasMessageContaining(lockServer.name());
            assertThat(single(holder, "SELECT 2"))
                    .as("the next statement after the one that reported the loss")
                    .isEqualTo(2L);
            assertThatThrownBy(() -> single(inTransaction, "SELECT 1"))
                    .isInstanceOf(SQLTransactionRollbackException.class)
                    .hasMessageContaining("run the transaction again");
            inTransaction.rollback();
            // The disabled backend's connections are closed: its server keeps none of the locks.
            await().atMost(PATIENCE).until(() -> advisoryLocks(lockServer, -1, true) == 0);
            assertThat(bool(other, "SELECT pg_try_advisory_lock(98)")).isTrue();
            assertThat(bool(inTransaction, "SELECT pg_try_advisory_xact_lock(97)"))
                    .isTrue();
            inTransaction.commit();
        }
    }

    // ---- helpers ----------------------------------------------------------------------------------

    private static ControllerFixture start() throws Exception {
        return ControllerFixture.start(pg.controllerConfig("shop"), "shop");
    }

    /** The one server holding a granted advisory lock on {@code key}; fails if none or several do. */
    private static EmbeddedPostgresServer onlyServerWithGrantedLock(long key) throws SQLException {
        List<EmbeddedPostgresServer> holders = new ArrayList<>();
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            if (s.isRunning() && advisoryLocks(s, key, true) > 0) {
                holders.add(s);
            }
        }
        assertThat(holders).as("servers holding advisory lock %s", key).hasSize(1);
        return holders.get(0);
    }

    /** Advisory locks in the virtual database's database of one server: on {@code key} (-1: any), granted or waiting. */
    private static int advisoryLocks(EmbeddedPostgresServer s, long key, boolean granted) throws SQLException {
        try (Connection c = s.connect();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database"
                                + " WHERE l.locktype = 'advisory' AND d.datname = 'shop' AND l.granted = " + granted
                                + (key < 0 ? "" : " AND l.objid = " + key))) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private void assertNoAdvisoryLockLeft() throws SQLException {
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            if (s.isRunning()) {
                assertThat(advisoryLocks(s, -1, true))
                        .as("advisory locks held on %s", s.name())
                        .isZero();
            }
        }
    }

    private static Object single(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).as("a row from %s", sql).isTrue();
            Object value = rs.getObject(1);
            return value instanceof Integer i ? Long.valueOf(i) : value;
        }
    }

    private static boolean bool(Connection c, String sql) throws SQLException {
        return (Boolean) single(c, sql);
    }

    /** The text of a void result ("") or of any other single value. */
    private static String string(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).as("a row from %s", sql).isTrue();
            return rs.getString(1);
        }
    }
}
