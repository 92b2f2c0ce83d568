package org.raidb.controller.it.transactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.raidb.controller.it.transactions.SchedulerSteps.async;
import static org.raidb.controller.it.transactions.SchedulerSteps.awaitWaiting;
import static org.raidb.controller.it.transactions.SchedulerSteps.execute;
import static org.raidb.controller.it.transactions.SchedulerSteps.scheduler;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * Issue 12 item 3: the scheduler's conflict classes are rows (primary-key values), unique values,
 * foreign-key parents and sequences where a statement pins them, else whole tables. Writers of
 * different rows of one table run at once on every backend; writers that may touch the same row,
 * unique value or parent meet in the controller and run in one order everywhere. Three backends,
 * RAIDb-1, the default scheduler and the recovery log on: the product's defaults.
 *
 * <p>"Waits" is shown by the controller's count of writes waiting for a class, never by time; the
 * preemptive timeouts only keep a scheduler that wrongly makes a statement wait from hanging the
 * build.
 */
class KeyConflictsIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static final Duration HANG_GUARD = Duration.ofMinutes(2);

    @BeforeEach
    void freshDatabases() {
        pg.cluster().recreateDatabases();
    }

    @Test
    void anAutoCommitInsertOfAnotherKeyDoesNotWaitForAnOpenTransaction() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            execute(raidb, "CREATE TABLE r (id int PRIMARY KEY, v text)");
            try (Connection b = raidb.connect();
                    Connection c = raidb.connect();
                    Statement sb = b.createStatement();
                    Statement sc = c.createStatement()) {
                // Spring: an outer transaction, then a REQUIRES_NEW insert on another connection of the same thread.
                b.setAutoCommit(false);
                assertThat(sb.executeUpdate("INSERT INTO r VALUES (600, 'a')")).isEqualTo(1);
                assertTimeoutPreemptively(
                        HANG_GUARD,
                        () -> assertThat(sc.executeUpdate("INSERT INTO r VALUES (601, 'b')"))
                                .isEqualTo(1));
                // C committed on every backend while B is still open there.
                ReplicaChecks.assertRowsOnEach(servers(), "SELECT id, v FROM r ORDER BY id", "601|b|");
                b.commit();
            }
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertRowsOnEach(servers(), "SELECT id, v FROM r ORDER BY id", "600|a|", "601|b|");
        ReplicaChecks.assertIdentical(servers());
    }

    @Test
    void insertsLeavingARandomUuidKeyToItsDefaultDoNotWaitForEachOther() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            execute(raidb, "CREATE TABLE audit (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), kind text)");
            try (Connection b = raidb.connect();
                    Connection c = raidb.connect();
                    Statement sb = b.createStatement();
                    Statement sc = c.createStatement()) {
                // An audit row in the outer transaction, another from a REQUIRES_NEW insert: before, the
                // second waited for the whole primary key the first held (its value unknown) until the timeout.
                b.setAutoCommit(false);
                assertThat(sb.executeUpdate("INSERT INTO audit (kind) VALUES ('outer')"))
                        .isEqualTo(1);
                assertTimeoutPreemptively(
                        HANG_GUARD,
                        () -> assertThat(sc.executeUpdate("INSERT INTO audit (kind) VALUES ('inner')"))
                                .isEqualTo(1));
                assertThat(scheduler(raidb).waitingWrites()).isZero();
                b.commit();
            }
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertRowsOnEach(servers(), "SELECT kind FROM audit ORDER BY kind", "inner|", "outer|");
        ReplicaChecks.assertIdentical(servers());
    }

    @Test
    void writersOfDifferentKeysHoldTheirRowLocksAtTheSameTimeOnEveryBackend() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            execute(
                    raidb,
                    "CREATE TABLE r (id int PRIMARY KEY, v text)",
                    "INSERT INTO r VALUES (1, 'x'), (2, 'x'), (3, 'x')");
            String update =
                    "UPDATE r SET v = ? WHERE id = ?"; // one text: its analysis is cached, the keys come per execution
            try (Connection a = raidb.connect();
                    Connection b = raidb.connect();
                    PreparedStatement pa = a.prepareStatement(update);
                    PreparedStatement pb = b.prepareStatement(update)) {
                a.setAutoCommit(false);
                b.setAutoCommit(false);
                assertThat(run(pa, "a", 1)).isEqualTo(1);
                assertTimeoutPreemptively(
                        HANG_GUARD, () -> assertThat(run(pb, "b", 2)).isEqualTo(1));
                assertThat(scheduler(raidb).waitingWrites()).isZero();
                for (EmbeddedPostgresServer s : servers()) {
                    // Both rows are locked by other transactions at this moment, row 3 by none.
                    assertThat(ReplicaChecks.rowsOn(s, "SELECT id FROM r ORDER BY id FOR UPDATE SKIP LOCKED"))
                            .as("rows of r free on %s", s.name())
                            .containsExactly("3|");
                    assertThat(ReplicaChecks.count(
                                    s.connect(),
                                    "SELECT count(DISTINCT l.pid) FROM pg_locks l JOIN pg_class c"
                                            + " ON c.oid = l.relation WHERE c.relname = 'r' AND l.mode = 'RowExclusiveLock' AND l.granted"
                                            + " AND l.pid <> pg_backend_pid()"))
                            .as("open writers of r on %s", s.name())
                            .isEqualTo(2);
                }
                b.commit();
                a.commit();
            }
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertRowsOnEach(servers(), "SELECT id, v FROM r ORDER BY id", "1|a|", "2|b|", "3|x|");
        ReplicaChecks.assertIdentical(servers());
    }

    @Test
    void writersOfOneKeyRunInTheSameOrderOnEveryBackend() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            execute(raidb, "CREATE TABLE r (id int PRIMARY KEY, v text)", "INSERT INTO r VALUES (1, 'x'), (2, '')");
            try (Connection b = raidb.connect();
                    Statement sb = b.createStatement();
                    Connection a = raidb.connect();
                    Statement sa = a.createStatement()) {
                a.setAutoCommit(false);
                b.setAutoCommit(false);
                sa.executeUpdate("UPDATE r SET v = v || 'a' WHERE id = 1");
                CompletableFuture<Integer> second =
                        async(() -> sb.executeUpdate("UPDATE r SET v = v || 'b' WHERE id = 1"));
                awaitWaiting(raidb, 1);
                a.commit();
                assertThat(second.get(2, TimeUnit.MINUTES)).isEqualTo(1);
                b.commit();
            }
            // Many auto-commit writers appending to one row: the final text is the order they ran in.
            ConcurrentClients.run(8, w -> {
                try (Connection c = raidb.connect();
                        PreparedStatement ps = c.prepareStatement("UPDATE r SET v = v || ? WHERE id = ?")) {
                    for (int i = 0; i < 15; i++) {
                        ps.setString(1, Character.toString('c' + w));
                        ps.setInt(2, 2);
                        ps.executeUpdate();
                    }
                }
            });
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertRowsOnEach(servers(), "SELECT v FROM r WHERE id = 1", "xab|");
        ReplicaChecks.assertRowsOnEach(servers(), "SELECT length(v) FROM r WHERE id = 2", "120|");
        ReplicaChecks.assertIdentical(servers());
    }

    @Test
    void aDeadlockOnKeysHasOneVictimRolledBackEverywhereAndTheOtherCommits() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            execute(
                    raidb,
                    "CREATE TABLE r (id int PRIMARY KEY, owner text)",
                    "INSERT INTO r VALUES (1, 'nobody'), (2, 'nobody')");
            try (Connection a = raidb.connect();
                    Statement sa = a.createStatement();
                    Connection b = raidb.connect();
                    Statement sb = b.createStatement()) {
                a.setAutoCommit(false);
                b.setAutoCommit(false);
                sa.executeUpdate("UPDATE r SET owner = 'a' WHERE id = 1");
                assertTimeoutPreemptively(HANG_GUARD, () -> sb.executeUpdate("UPDATE r SET owner = 'b' WHERE id = 2"));
                CompletableFuture<Integer> aBlocked =
                        async(() -> sa.executeUpdate("UPDATE r SET owner = 'a' WHERE id = 2"));
                awaitWaiting(raidb, 1);
                assertThatThrownBy(() -> sb.executeUpdate("UPDATE r SET owner = 'b' WHERE id = 1"))
                        .isInstanceOf(SQLException.class)
                        .hasMessageContaining("deadlock")
                        .hasMessageContaining("(id)=(1)")
                        .hasMessageContaining("run the transaction again")
                        .satisfies(e ->
                                assertThat(((SQLException) e).getSQLState()).isEqualTo("40P01"));
                // The victim was rolled back on every backend by the controller: A's blocked UPDATE (which needs
                // the victim's row 2 on all three backends) completes before B's client calls rollback().
                assertThat(aBlocked.get(2, TimeUnit.MINUTES)).isEqualTo(1);
                a.commit();
                ReplicaChecks.assertRowsOnEach(servers(), "SELECT id, owner FROM r ORDER BY id", "1|a|", "2|a|");
                b.rollback();
                assertThat(sb.executeUpdate("UPDATE r SET owner = 'b' WHERE id = 2"))
                        .isEqualTo(1);
                b.commit();
            }
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertRowsOnEach(servers(), "SELECT id, owner FROM r ORDER BY id", "1|a|", "2|b|");
        ReplicaChecks.assertIdentical(servers());
    }

    @Test
    void aRangeUpdateWaitsForAKeyedWriteOfItsTable() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            execute(raidb, "CREATE TABLE r (id int PRIMARY KEY, v int)", "INSERT INTO r VALUES (1, 0), (2, 0), (3, 0)");
            try (Connection b = raidb.connect();
                    Statement sb = b.createStatement();
                    Connection a = raidb.connect();
                    Statement sa = a.createStatement()) {
                a.setAutoCommit(false);
                sa.executeUpdate("UPDATE r SET v = 10 WHERE id = 3");
                CompletableFuture<Integer> range =
                        async(() -> sb.executeUpdate("UPDATE r SET v = v + 1 WHERE id >= 2"));
                awaitWaiting(raidb, 1);
                // A keyed write of another row of the table waits too: the range holds the whole table once admitted.
                a.commit();
                assertThat(range.get(2, TimeUnit.MINUTES)).isEqualTo(2);
            }
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertRowsOnEach(servers(), "SELECT id, v FROM r ORDER BY id", "1|0|", "2|1|", "3|11|");
        ReplicaChecks.assertIdentical(servers());
    }

    /**
     * Issue 14, bad input: a write whose rows the controller cannot derive (here a subquery picks the
     * row) claims its whole table, never nothing: it waits for a keyed write of another row of the table,
     * and, once admitted in a transaction, a keyed write of yet another row waits for it.
     */
    @Test
    void aWriteOfUnknownRowsWaitsForAKeyedWriteOfItsTableAndAKeyedWriteWaitsForIt() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            execute(raidb, "CREATE TABLE r (id int PRIMARY KEY, v int)", "INSERT INTO r VALUES (1, 0), (2, 0), (3, 0)");
            try (Connection b = raidb.connect();
                    Statement sb = b.createStatement();
                    Connection a = raidb.connect();
                    Statement sa = a.createStatement();
                    Connection c = raidb.connect();
                    Statement sc = c.createStatement()) {
                a.setAutoCommit(false);
                b.setAutoCommit(false);
                sa.executeUpdate("UPDATE r SET v = 10 WHERE id = 3");
                CompletableFuture<Integer> unknown = async(() ->
                        sb.executeUpdate("UPDATE r SET v = v + 1 WHERE id = (SELECT min(id) FROM r WHERE v = 0)"));
                awaitWaiting(raidb, 1);
                a.commit();
                assertThat(unknown.get(2, TimeUnit.MINUTES)).isEqualTo(1);
                // b's transaction holds the whole table now: an auto-commit write of row 2 waits for its end.
                CompletableFuture<Integer> keyed = async(() -> sc.executeUpdate("UPDATE r SET v = 20 WHERE id = 2"));
                awaitWaiting(raidb, 1);
                b.commit();
                assertThat(keyed.get(2, TimeUnit.MINUTES)).isEqualTo(1);
            }
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertRowsOnEach(servers(), "SELECT id, v FROM r ORDER BY id", "1|1|", "2|20|", "3|10|");
        ReplicaChecks.assertIdentical(servers());
    }

    @Test
    void anInsertOfAChildMeetsADeleteOfItsParentInEitherOrder() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            execute(
                    raidb,
                    "CREATE TABLE parent (id int PRIMARY KEY)",
                    "CREATE TABLE child (id int PRIMARY KEY, parent_id int REFERENCES parent (id))",
                    "INSERT INTO parent VALUES (1), (2)");
            try (Connection b = raidb.connect();
                    Statement sb = b.createStatement();
                    Connection a = raidb.connect();
                    Statement sa = a.createStatement()) {
                // Parent deleted first: the child insert waits, then fails with 23503 on every backend.
                a.setAutoCommit(false);
                sa.executeUpdate("DELETE FROM parent WHERE id = 1");
                CompletableFuture<Integer> orphan = async(() -> sb.executeUpdate("INSERT INTO child VALUES (10, 1)"));
                awaitWaiting(raidb, 1);
                a.commit();
                assertFailsWith(orphan, "23503");
                // Child inserted first: the parent's delete waits, then fails with 23503 on every backend.
                sa.executeUpdate("INSERT INTO child VALUES (20, 2)");
                CompletableFuture<Integer> delete = async(() -> sb.executeUpdate("DELETE FROM parent WHERE id = 2"));
                awaitWaiting(raidb, 1);
                a.commit();
                assertFailsWith(delete, "23503");
            }
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertRowsOnEach(servers(), "SELECT id FROM parent ORDER BY id", "2|");
        ReplicaChecks.assertRowsOnEach(servers(), "SELECT id, parent_id FROM child ORDER BY id", "20|2|");
        ReplicaChecks.assertIdentical(servers());
    }

    @Test
    void insertsOfOneUniqueValueUnderDifferentKeysEndTheSameEverywhere() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            execute(raidb, "CREATE TABLE users (id int PRIMARY KEY, email text UNIQUE)");
            try (Connection b = raidb.connect();
                    Statement sb = b.createStatement();
                    Connection a = raidb.connect();
                    Statement sa = a.createStatement()) {
                a.setAutoCommit(false);
                sa.executeUpdate("INSERT INTO users VALUES (1, 'x@example.org')");
                CompletableFuture<Integer> second =
                        async(() -> sb.executeUpdate("INSERT INTO users VALUES (2, 'x@example.org')"));
                awaitWaiting(raidb, 1);
                a.commit();
                assertFailsWith(second, "23505");
            }
            // Many writers racing for a few addresses under distinct keys: each address is won by the same row
            // everywhere.
            ConcurrentClients.run(8, w -> {
                try (Connection c = raidb.connect();
                        PreparedStatement ps = c.prepareStatement("INSERT INTO users VALUES (?, ?)")) {
                    for (int i = 0; i < 10; i++) {
                        ps.setInt(1, 100 + w * 100 + i);
                        ps.setString(2, "user" + i + "@example.org");
                        try {
                            ps.executeUpdate();
                        } catch (SQLException e) {
                            if (!"23505".equals(e.getSQLState())) {
                                throw e;
                            }
                        }
                    }
                }
            });
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertRowsOnEach(servers(), "SELECT count(*) FROM users", "11|");
        ReplicaChecks.assertIdentical(servers());
    }

    @Test
    void aUniqueIndexDroppedInARolledBackTransactionStillOrdersItsValues() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            execute(raidb, "CREATE TABLE users (id int PRIMARY KEY, email text CONSTRAINT users_email_key UNIQUE)");
            try (Connection b = raidb.connect();
                    Statement sb = b.createStatement();
                    Connection a = raidb.connect();
                    Statement sa = a.createStatement()) {
                a.setAutoCommit(false);
                sa.execute("ALTER TABLE users DROP CONSTRAINT users_email_key"); // read into the catalogue as it runs
                a.rollback(); // and read again once it is undone everywhere
                sa.executeUpdate("INSERT INTO users VALUES (1, 'x@example.org')");
                CompletableFuture<Integer> second =
                        async(() -> sb.executeUpdate("INSERT INTO users VALUES (2, 'x@example.org')"));
                awaitWaiting(raidb, 1);
                a.commit();
                assertFailsWith(second, "23505");
            }
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertRowsOnEach(servers(), "SELECT id, email FROM users", "1|x@example.org|");
    }

    @Test
    void ddlWaitsForKeyedWritesOfItsTableAndTheyWaitForIt() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            execute(raidb, "CREATE TABLE r (id int PRIMARY KEY, v text)", "INSERT INTO r VALUES (1, 'x')");
            try (Connection b = raidb.connect();
                    Statement sb = b.createStatement();
                    Connection a = raidb.connect();
                    Statement sa = a.createStatement()) {
                a.setAutoCommit(false);
                sa.executeUpdate("UPDATE r SET v = 'a' WHERE id = 1");
                CompletableFuture<Boolean> alter = async(() -> sb.execute("ALTER TABLE r ADD COLUMN w int"));
                awaitWaiting(raidb, 1);
                a.commit();
                assertThat(alter.get(2, TimeUnit.MINUTES)).isFalse();

                sa.execute("ALTER TABLE r ADD COLUMN z int");
                CompletableFuture<Integer> insert =
                        async(() -> sb.executeUpdate("INSERT INTO r (id, v) VALUES (2, 'b')"));
                awaitWaiting(raidb, 1);
                a.commit();
                assertThat(insert.get(2, TimeUnit.MINUTES)).isEqualTo(1);
            }
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertRowsOnEach(
                servers(), "SELECT id, v, w, z FROM r ORDER BY id", "1|a|null|null|", "2|b|null|null|");
        ReplicaChecks.assertIdentical(servers());
    }

    @Test
    void aWaitPastTheLockTimeoutNamesTheTableAndTheKeyAndTheSessionGoesOn() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(
                pg.controllerConfig("shop").extraXml("<scheduler lockTimeout=\"1000\"/>"), "shop")) {
            execute(raidb, "CREATE TABLE r (id int PRIMARY KEY, v text)", "INSERT INTO r VALUES (1, 'x'), (2, 'x')");
            try (Connection b = raidb.connect();
                    Statement sb = b.createStatement();
                    Connection a = raidb.connect();
                    Statement sa = a.createStatement()) {
                a.setAutoCommit(false);
                sa.executeUpdate("UPDATE r SET v = 'a' WHERE id = 1");
                assertThatThrownBy(() -> sb.executeUpdate("UPDATE r SET v = 'b' WHERE id = 1"))
                        .isInstanceOf(SQLException.class)
                        .hasMessageContaining("row (id)=(1) of table r")
                        .hasMessageContaining("lockTimeout")
                        .satisfies(e ->
                                assertThat(((SQLException) e).getSQLState()).isEqualTo("55P03"));
                assertThat(sb.executeUpdate("UPDATE r SET v = 'b' WHERE id = 2"))
                        .isEqualTo(1);
                a.commit();
                assertThat(sb.executeUpdate("UPDATE r SET v = v || 'b' WHERE id = 1"))
                        .isEqualTo(1);
            }
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertRowsOnEach(servers(), "SELECT id, v FROM r ORDER BY id", "1|ab|", "2|b|");
    }

    @Test
    void aPreparedBatchClaimsTheKeysOfEachOfItsRows() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            execute(raidb, "CREATE TABLE r (id int PRIMARY KEY, v text)");
            try (Connection b = raidb.connect();
                    Statement sb = b.createStatement();
                    Connection a = raidb.connect();
                    PreparedStatement pa = a.prepareStatement("INSERT INTO r VALUES (?, ?)")) {
                a.setAutoCommit(false);
                for (int id : new int[] {10, 11}) {
                    pa.setInt(1, id);
                    pa.setString(2, "a");
                    pa.addBatch();
                }
                pa.executeBatch();
                assertTimeoutPreemptively(
                        HANG_GUARD,
                        () -> assertThat(sb.executeUpdate("INSERT INTO r VALUES (12, 'b')"))
                                .isEqualTo(1));
                CompletableFuture<Integer> same = async(() -> sb.executeUpdate("INSERT INTO r VALUES (11, 'b')"));
                awaitWaiting(raidb, 1);
                a.commit();
                assertFailsWith(same, "23505");
            }
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertRowsOnEach(servers(), "SELECT id, v FROM r ORDER BY id", "10|a|", "11|a|", "12|b|");
        ReplicaChecks.assertIdentical(servers());
    }

    // ---- helpers ----------------------------------------------------------------------------------

    private static List<EmbeddedPostgresServer> servers() {
        return pg.cluster().servers();
    }

    private static int run(PreparedStatement ps, String v, int id) throws SQLException {
        ps.setString(1, v);
        ps.setInt(2, id);
        return ps.executeUpdate();
    }

    /** The statement failed, on every backend alike (its SQLState is the backends'), with this SQLState. */
    private static void assertFailsWith(CompletableFuture<?> statement, String sqlState) {
        Throwable failure = org.assertj.core.api.Assertions.catchThrowable(() -> statement.get(2, TimeUnit.MINUTES));
        while (failure != null && !(failure instanceof SQLException)) {
            failure = failure.getCause();
        }
        assertThat(failure).as("the statement's failure").isInstanceOf(SQLException.class);
        assertThat(((SQLException) failure).getSQLState())
                .as("SQLState of " + failure.getMessage())
                .isEqualTo(sqlState);
    }
}
