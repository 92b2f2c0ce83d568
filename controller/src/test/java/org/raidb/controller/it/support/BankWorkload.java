package org.raidb.controller.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.raidb.embedded.EmbeddedPostgresServer;

/**
 * The bank test of issue 3: accounts, and threads moving money between two random accounts in one
 * transaction. Whatever the interleaving, the total never changes, so a replica whose total moved
 * (or that differs from the others) shows a broken write order.
 */
public final class BankWorkload {
    public static final int ACCOUNTS = 100;
    public static final long INITIAL_BALANCE = 1_000;

    public final AtomicLong committed = new AtomicLong();
    /**
     * Transfers that failed with a conflict a client is expected to retry (40xxx: a deadlock or
     * serialization victim; 55P03: a lock wait that timed out), rolled back and not retried here: each
     * test says whether such a conflict is possible in its set-up and asserts the count.
     */
    public final AtomicLong retried = new AtomicLong();
    /** SQLState → count of those conflicts, for the assertion messages. */
    public final Map<String, AtomicLong> retriedByState = new ConcurrentHashMap<>();
    /**
     * The same conflicts by who resolved them: {@link #CONTROLLER_DEADLOCK} for the controller's scheduler,
     * else the SQLState "from elsewhere" (a backend, a lock timeout). The controller and PostgreSQL both give
     * a deadlock victim 40P01; only the controller's message tells its victims apart.
     */
    public final Map<String, AtomicLong> retriedByOrigin = new ConcurrentHashMap<>();

    public static final String CONTROLLER_DEADLOCK = "40P01 from the controller's scheduler";
    /** SQLState → count of errors the clients saw that are not retryable conflicts. */
    public final Map<String, AtomicLong> errors = new ConcurrentHashMap<>();

    public final ConcurrentLinkedQueue<String> errorSamples = new ConcurrentLinkedQueue<>();

    public static void createAccounts(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, ControllerFixture.USER, ControllerFixture.PASSWORD);
                Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS accounts");
            st.execute("CREATE TABLE accounts (id int PRIMARY KEY, balance bigint NOT NULL)");
            st.executeUpdate("INSERT INTO accounts SELECT g, " + INITIAL_BALANCE + " FROM generate_series(1, "
                    + ACCOUNTS + ") g");
        }
    }

    /**
     * Transfers after which a run may stop before its time is up. The tests assert more than 100
     * commits, a constant total and identical replicas; 3,000 transfers of 16 clients over 100 accounts
     * (each account in about 60 of them, a kill after the first 300) give every interleaving those
     * assertions look for many times over, and take 3 to 8 s where the full 20 s made 8,000 to 21,000.
     * A run that commits slowly (the query scheduler: about 400 in 20 s) still runs its full time.
     */
    public static final long ENOUGH_TRANSFERS = 3_000;

    /**
     * Runs {@code threads} clients for {@code millis}, or until {@code enough} transfers committed if
     * that comes first; {@code midway} runs once, after 300 transfers committed, while the clients keep
     * going (a backend kill, for example).
     */
    public void run(String url, int threads, long millis, long enough, Runnable midway) throws Exception {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(millis);
        CountDownLatch ready = new CountDownLatch(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long seed = t * 7919L;
            futures.add(pool.submit(() -> {
                try (Connection c =
                        DriverManager.getConnection(url, ControllerFixture.USER, ControllerFixture.PASSWORD)) {
                    c.setAutoCommit(false);
                    ready.countDown();
                    Random random = new Random(seed);
                    try (PreparedStatement debit =
                                    c.prepareStatement("UPDATE accounts SET balance = balance - ? WHERE id = ?");
                            PreparedStatement credit =
                                    c.prepareStatement("UPDATE accounts SET balance = balance + ? WHERE id = ?")) {
                        while (System.nanoTime() < deadline && committed.get() < enough) {
                            transfer(c, debit, credit, random);
                        }
                    }
                }
                return null;
            }));
        }
        ready.await(60, TimeUnit.SECONDS);
        if (midway != null) {
            // Mid-workload means: once a good number of transfers went through, with clients still running.
            org.awaitility.Awaitility.await()
                    .atMost(millis, TimeUnit.MILLISECONDS)
                    .until(() -> committed.get() >= 300);
            midway.run();
        }
        for (Future<?> f : futures) {
            f.get(millis + 180_000, TimeUnit.MILLISECONDS);
        }
        pool.shutdown();
    }

    private void transfer(Connection c, PreparedStatement debit, PreparedStatement credit, Random random)
            throws SQLException {
        int from = 1 + random.nextInt(ACCOUNTS);
        int to = 1 + random.nextInt(ACCOUNTS - 1);
        if (to >= from) {
            to++;
        }
        long amount = 1 + random.nextInt(50);
        try {
            debit.setLong(1, amount);
            debit.setInt(2, from);
            assertOneRow(debit.executeUpdate());
            credit.setLong(1, amount);
            credit.setInt(2, to);
            assertOneRow(credit.executeUpdate());
            c.commit();
            committed.incrementAndGet();
        } catch (SQLException e) {
            rollbackQuietly(c);
            String state = String.valueOf(e.getSQLState());
            if (state.startsWith("40") || state.equals("55P03")) {
                retried.incrementAndGet(); // a conflict the scheduler or a backend resolved: the client would retry
                retriedByState.computeIfAbsent(state, k -> new AtomicLong()).incrementAndGet();
                retriedByOrigin
                        .computeIfAbsent(origin(e), k -> new AtomicLong())
                        .incrementAndGet();
            } else {
                errors.computeIfAbsent(state, k -> new AtomicLong()).incrementAndGet();
                if (errorSamples.size() < 5) {
                    errorSamples.add(state + ": " + e.getMessage());
                }
            }
        }
    }

    private static String origin(SQLException conflict) {
        boolean controller = "40P01".equals(conflict.getSQLState())
                && String.valueOf(conflict.getMessage()).contains("deadlock detected by the controller");
        return controller ? CONTROLLER_DEADLOCK : conflict.getSQLState() + " from elsewhere";
    }

    private static void assertOneRow(int count) throws SQLException {
        if (count != 1) {
            throw new SQLException("a transfer updated " + count + " rows instead of 1", "XX001");
        }
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the connection may be the thing that failed; the next transfer will tell
        }
    }

    public static long total(EmbeddedPostgresServer s) throws SQLException {
        try (Connection c = s.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT sum(balance), count(*) FROM accounts")) {
            rs.next();
            assertThat(rs.getInt(2)).as("accounts on %s", s.name()).isEqualTo(ACCOUNTS);
            return rs.getLong(1);
        }
    }
}
