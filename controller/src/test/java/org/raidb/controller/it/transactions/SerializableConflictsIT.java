package org.raidb.controller.it.transactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * Issue 12 item 6: SERIALIZABLE transactions that conflict in ways only a backend sees (PostgreSQL's
 * serialization failures, 40001, and deadlocks, 40P01). Whichever backend picks a victim, the victim
 * is rolled back on every backend and its client is told to retry (40001 or 40P01), whatever the
 * completion policy; no backend is disabled for it, and the replicas stay identical.
 *
 * <p>The workload mixes the classic write skew (two doctors each going off call after seeing that
 * another one is on call: one server lets only one of them) with bank transfers that check the
 * balance they debit, six clients retrying their conflicts as an application does.
 */
class SerializableConflictsIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static final int SHIFTS = 4;
    private static final int DOCTORS_PER_SHIFT = 3;
    private static final int ACCOUNTS = 10;
    private static final long INITIAL_BALANCE = 100;
    private static final long WORKLOAD_MILLIS = 10_000;
    /**
     * Commits after which the workload may stop before its time is up. The test asserts more than 20
     * commits and at least one conflict; in 10 s the six clients made 1,800 to 3,700 commits and 0.6 to
     * 0.8 conflicts per commit, so 600 commits (2 to 4 s) still bring hundreds of write skews and
     * overdrafts refused by a backend, and a slow machine still stops at the time limit.
     */
    private static final long ENOUGH_COMMITS = 600;

    @BeforeEach
    void freshDatabases() {
        pg.cluster().recreateDatabases();
    }

    @ParameterizedTest(name = "completion {0}")
    @ValueSource(strings = {"all", "majority", "first"})
    void conflictingSerializableTransactionsAreRetriedNeverDisableABackendAndLeaveIdenticalReplicas(String completion)
            throws Exception {
        try (ControllerFixture raidb = start(completion)) {
            createTables(raidb);
            Workload w = new Workload();
            ConcurrentClients.run(6, client -> w.client(raidb, client));

            assertThat(w.unexpected)
                    .as("non-retryable errors clients saw with completion %s", completion)
                    .isEmpty();
            assertThat(w.retriedByState.keySet())
                    .as("retryable errors with completion %s", completion)
                    .isSubsetOf("40001", "40P01");
            assertThat(w.retriedByState)
                    .as("conflicts the workload made with completion %s", completion)
                    .isNotEmpty();
            assertThat(w.committed.get()).isGreaterThan(20);
            raidb.assertEveryBackendEnabled();
            System.out.printf(
                    "serializable, completion %s: %d committed, retried %s%n",
                    completion, w.committed.get(), w.retriedByState);
        }
        assertInvariantsOnEveryBackend();
        assertIdenticalChecksums();
    }

    @ParameterizedTest(name = "completion {0}")
    @ValueSource(strings = {"all", "majority", "first"})
    void aWriteSkewFailsOneTransactionWith40001AndItsSessionRunsTheNextTransaction(String completion) throws Exception {
        try (ControllerFixture raidb = start(completion)) {
            createTables(raidb);
            try (Connection b = serializable(raidb)) {
                writeSkewLostBy(b, raidb);
                // The session goes on: its next transaction runs and commits.
                assertThat(onCall(b, 0)).isEqualTo(DOCTORS_PER_SHIFT - 1);
                goOffCall(b, 2);
                b.commit();
            }
            raidb.assertEveryBackendEnabled();
        }
        for (EmbeddedPostgresServer s : servers()) {
            assertThat(ReplicaChecks.rowsOn(s, "SELECT id FROM doctors WHERE shift = 0 AND on_call ORDER BY id"))
                    .as("on call on %s", s.name())
                    .containsExactly("1|");
        }
        assertIdenticalChecksums();
    }

    @Test
    void aVictimRolledBackEverywhereIsNotReplayedToABackendThatMissedIt() throws Exception {
        try (ControllerFixture raidb = start("majority")) {
            createTables(raidb);
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            DatabaseBackend pg3 = vdb.backend(pg.server(2).name());
            vdb.disableBackend(pg3, "taken out by the test").get(2, TimeUnit.MINUTES);
            try (Connection b = serializable(raidb)) {
                writeSkewLostBy(b, raidb);
            }
            vdb.recovery().enable(pg3).run(Progress.NONE);
            raidb.assertEveryBackendEnabled();
        }
        for (EmbeddedPostgresServer s : servers()) {
            assertThat(ReplicaChecks.rowsOn(s, "SELECT id FROM doctors WHERE shift = 0 AND NOT on_call ORDER BY id"))
                    .as("off call on %s", s.name())
                    .containsExactly("0|");
        }
        assertIdenticalChecksums();
    }

    /**
     * Two doctors of shift 0 go off call at once, each having seen the others on call; {@code b} wrote
     * (doctor 1) before it lost: one server would refuse it, at its next write or its commit. {@code b}
     * is rolled back then.
     */
    private static void writeSkewLostBy(Connection b, ControllerFixture raidb) throws SQLException {
        try (Connection a = serializable(raidb)) {
            assertThat(onCall(a, 0)).isEqualTo(DOCTORS_PER_SHIFT);
            assertThat(onCall(b, 0)).isEqualTo(DOCTORS_PER_SHIFT);
            goOffCall(a, 0);
            goOffCall(b, 1);
            a.commit();
        }
        assertThatThrownBy(() -> {
                    goOffCall(b, 2);
                    b.commit();
                })
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"))
                .hasMessageContaining("run the transaction again");
        b.rollback();
    }

    @Test
    void aWriteThatOnlyTheSnapshotBackendRefusesRollsTheTransactionBackEverywhere() throws Exception {
        try (ControllerFixture raidb = start("majority")) {
            createTables(raidb);
            try (Connection a = serializable(raidb);
                    Connection b = raidb.connect();
                    Statement sb = b.createStatement()) {
                assertThat(onCall(a, 0)).isEqualTo(DOCTORS_PER_SHIFT);
                // A row changes after a's snapshot was taken, on the one backend a has read from: a's write of it
                // fails there with 40001 and succeeds on the others, where a starts with its write.
                assertThat(sb.executeUpdate("UPDATE doctors SET on_call = false WHERE id = 0"))
                        .isEqualTo(1);
                assertThatThrownBy(() -> goOffCall(a, 0))
                        .isInstanceOf(SQLException.class)
                        .satisfies(e ->
                                assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"));
                a.rollback();
                assertThat(onCall(a, 0)).isEqualTo(DOCTORS_PER_SHIFT - 1);
                a.commit();
            }
            raidb.assertEveryBackendEnabled();
        }
        assertIdenticalChecksums();
    }

    /**
     * The clients: each runs write skews and transfers at random until the time is up or enough
     * committed, retrying conflicts.
     */
    private static final class Workload {
        final AtomicLong committed = new AtomicLong();
        final Map<String, AtomicLong> retriedByState = new ConcurrentHashMap<>();
        final Queue<String> unexpected = new ConcurrentLinkedQueue<>();

        void client(ControllerFixture raidb, int index) throws SQLException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WORKLOAD_MILLIS);
            Random random = new Random(index * 7919L);
            try (Connection c = serializable(raidb)) {
                while (System.nanoTime() < deadline && committed.get() < ENOUGH_COMMITS && unexpected.size() < 10) {
                    try {
                        if (random.nextBoolean()) {
                            doctorsRound(c, random.nextInt(SHIFTS), random);
                        } else {
                            transfer(c, random);
                        }
                        c.commit();
                        committed.incrementAndGet();
                    } catch (SQLException e) {
                        rollbackQuietly(c);
                        String state = String.valueOf(e.getSQLState());
                        if (state.equals("40001") || state.equals("40P01")) {
                            retriedByState
                                    .computeIfAbsent(state, k -> new AtomicLong())
                                    .incrementAndGet();
                        } else {
                            unexpected.add(state + ": " + e.getMessage());
                        }
                    }
                }
            }
        }

        /** A doctor goes off call if another one of the shift stays on call, else one comes back on call. */
        private static void doctorsRound(Connection c, int shift, Random random) throws SQLException {
            int doctor = shift * DOCTORS_PER_SHIFT + random.nextInt(DOCTORS_PER_SHIFT);
            if (onCall(c, shift) >= 2) {
                goOffCall(c, doctor);
            } else {
                try (PreparedStatement ps = c.prepareStatement("UPDATE doctors SET on_call = true WHERE id = ?")) {
                    ps.setInt(1, doctor);
                    ps.executeUpdate();
                }
            }
        }

        /** Moves money only if the balance covers it, as read in the transaction. */
        private static void transfer(Connection c, Random random) throws SQLException {
            int from = random.nextInt(ACCOUNTS);
            int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
            long amount = 1 + random.nextInt(60);
            long balance;
            try (PreparedStatement ps = c.prepareStatement("SELECT sum(balance) FROM accounts WHERE id = ?")) {
                ps.setInt(1, from);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    balance = rs.getLong(1);
                }
            }
            if (balance < amount) {
                return;
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE accounts SET balance = balance + ? WHERE id = ?")) {
                ps.setLong(1, -amount);
                ps.setInt(2, from);
                ps.executeUpdate();
                ps.setLong(1, amount);
                ps.setInt(2, to);
                ps.executeUpdate();
            }
        }
    }

    private static ControllerFixture start(String completion) throws Exception {
        return ControllerFixture.start(
                pg.controllerConfig("shop")
                        .replication("<raidb1 readPolicy=\"roundRobin\" completion=\"" + completion + "\"/>"),
                "shop");
    }

    private static void createTables(ControllerFixture raidb) throws SQLException {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE doctors (id int PRIMARY KEY, shift int NOT NULL, on_call boolean NOT NULL)");
            st.execute("INSERT INTO doctors SELECT i, i / " + DOCTORS_PER_SHIFT + ", true FROM generate_series(0, "
                    + (SHIFTS * DOCTORS_PER_SHIFT - 1) + ") i");
            st.execute("CREATE TABLE accounts (id int PRIMARY KEY, balance bigint NOT NULL)");
            st.execute("INSERT INTO accounts SELECT i, " + INITIAL_BALANCE + " FROM generate_series(0, "
                    + (ACCOUNTS - 1) + ") i");
        }
    }

    private static Connection serializable(ControllerFixture raidb) throws SQLException {
        Connection c = raidb.connect();
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        return c;
    }

    private static int onCall(Connection c, int shift) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM doctors WHERE shift = ? AND on_call")) {
            ps.setInt(1, shift);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static void goOffCall(Connection c, int doctor) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE doctors SET on_call = false WHERE id = ?")) {
            ps.setInt(1, doctor);
            ps.executeUpdate();
        }
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the next transaction's error tells
        }
    }

    /** Every shift keeps a doctor on call; no account is overdrawn and no money appears or vanishes. */
    private static void assertInvariantsOnEveryBackend() throws SQLException {
        for (EmbeddedPostgresServer s : servers()) {
            assertThat(ReplicaChecks.rowsOn(
                            s, "SELECT shift FROM doctors GROUP BY shift HAVING bool_or(on_call) ORDER BY shift"))
                    .as("shifts with a doctor on call on %s", s.name())
                    .hasSize(SHIFTS);
            assertThat(ReplicaChecks.rowsOn(s, "SELECT count(*), sum(balance), min(balance) >= 0 FROM accounts"))
                    .as("accounts on %s", s.name())
                    .containsExactly(ACCOUNTS + "|" + ACCOUNTS * INITIAL_BALANCE + "|t|");
        }
    }

    private static void assertIdenticalChecksums() throws SQLException {
        Map<String, Map<String, String>> sums = ControllerFixture.checksums(servers());
        Map<String, String> first = sums.values().iterator().next();
        assertThat(first.keySet())
                .as("tables checksummed")
                .anyMatch(t -> t.endsWith("doctors"))
                .anyMatch(t -> t.endsWith("accounts"));
        sums.forEach((backend, tables) ->
                assertThat(tables).as("checksums of %s", backend).isEqualTo(first));
    }

    private static List<EmbeddedPostgresServer> servers() {
        return List.of(pg.server(0), pg.server(1), pg.server(2));
    }
}
