package org.raidb.controller.it.recovery;

import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A write workload that remembers every write a client was told succeeded: auto-commit inserts,
 * transactions of an insert and a counter update, and rolled-back transactions whose rows must
 * appear nowhere. Runs until stopped, so that a test can kill, restore and enable backends while
 * clients keep writing.
 */
final class AcknowledgedWrites implements AutoCloseable {
    static final String USER = "app";
    static final String PASSWORD = "apppw";

    final Queue<Long> acknowledged = new ConcurrentLinkedQueue<>();
    final Queue<Long> rolledBack = new ConcurrentLinkedQueue<>();
    final Queue<String> errors = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();

    static void createSchema(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, USER, PASSWORD);
                Statement st = c.createStatement()) {
            st.execute(
                    "CREATE TABLE events (id BIGINT PRIMARY KEY, writer INT NOT NULL, note VARCHAR(100), amount NUMERIC(12,2))");
            st.execute("CREATE TABLE counters (writer INT PRIMARY KEY, n BIGINT NOT NULL)");
            for (int w = 0; w < 64; w++) {
                st.execute("INSERT INTO counters VALUES (" + w + ", 0)");
            }
        }
    }

    /**
     * Each client's pace in the tests that enable a backend by replay while clients write: 50 writes a
     * second. Unpaced, the writers and the replay chasing them ran neck and neck on a busy machine (a replay
     * of 213,000 entries in 3.5 minutes, BackendRecoveryIT, where an idle machine took 20 s).
     */
    static final int PACE = 50;

    static AcknowledgedWrites start(String url, int clients) {
        return start(url, clients, 0);
    }

    /**
     * Clients writing at most {@code perClientPerSecond} writes a second each (0: as fast as they can). A
     * paced load keeps what a replay must catch up with in proportion to the time a step takes, not to the
     * machine's speed: at full speed the writers and a replay chasing them can run neck and neck for minutes.
     */
    static AcknowledgedWrites start(String url, int clients, int perClientPerSecond) {
        AcknowledgedWrites w = new AcknowledgedWrites();
        long interval = perClientPerSecond > 0 ? 1_000_000_000L / perClientPerSecond : 0;
        for (int i = 0; i < clients; i++) {
            int writer = i;
            Thread t = new Thread(() -> w.write(url, writer, interval), "acknowledged-writes-" + i);
            t.setDaemon(true);
            w.threads.add(t);
            t.start();
        }
        return w;
    }

    private void write(String url, int writer, long intervalNanos) {
        long seq = 0;
        long next = System.nanoTime();
        try (Connection c = DriverManager.getConnection(url, USER, PASSWORD);
                PreparedStatement insert =
                        c.prepareStatement("INSERT INTO events (id, writer, note, amount) VALUES (?, ?, ?, ?)");
                PreparedStatement count = c.prepareStatement("UPDATE counters SET n = n + 1 WHERE writer = ?")) {
            while (running.get()) {
                if (intervalNanos > 0) {
                    next += intervalNanos;
                    // Load shaping, not waiting for a condition: the next write's slot.
                    java.util.concurrent.locks.LockSupport.parkNanos(next - System.nanoTime());
                }
                long id = writer * 10_000_000L + seq++;
                int kind = ThreadLocalRandom.current().nextInt(10);
                try {
                    insert.setLong(1, id);
                    insert.setInt(2, writer);
                    insert.setString(3, kind < 5 ? "auto " + id : "tx " + id);
                    insert.setBigDecimal(4, java.math.BigDecimal.valueOf(id % 100_000, 2));
                    if (kind < 5) {
                        insert.executeUpdate();
                        acknowledged.add(id);
                        continue;
                    }
                    c.setAutoCommit(false);
                    insert.executeUpdate();
                    count.setInt(1, writer);
                    count.executeUpdate();
                    if (kind == 9) {
                        c.rollback();
                        rolledBack.add(id);
                    } else {
                        c.commit();
                        acknowledged.add(id);
                    }
                } catch (SQLException e) {
                    errors.add(e.getSQLState() + ": " + e.getMessage());
                    if (e.getSQLState() != null && e.getSQLState().startsWith("08")) {
                        return; // the connection is gone (the controller stopped): every later write would fail at once
                    }
                    try {
                        c.rollback();
                    } catch (SQLException ignored) {
                        // reported above
                    }
                } finally {
                    c.setAutoCommit(true);
                }
            }
        } catch (SQLException e) {
            errors.add("connection: " + e.getSQLState() + ": " + e.getMessage());
        }
    }

    /** Waits until {@code more} further writes have been acknowledged (the workload is making progress). */
    void awaitMore(int more) {
        int target = acknowledged.size() + more;
        await().atMost(Duration.ofSeconds(120)).until(() -> acknowledged.size() >= target || !errors.isEmpty());
    }

    void stop() throws InterruptedException {
        running.set(false);
        for (Thread t : threads) {
            t.join(60_000);
        }
    }

    /** How many of the given ids the database behind {@code c} holds. */
    static long present(Connection c, Iterable<Long> ids) throws SQLException {
        List<Long> list = new ArrayList<>();
        ids.forEach(list::add);
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM events WHERE id = ANY (?)")) {
            ps.setArray(1, c.createArrayOf("bigint", list.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The ids of every insert into events the log holds (read from its first entry). */
    static java.util.Set<Long> loggedInserts(org.raidb.recovery.RecoveryLog log) throws SQLException {
        java.util.Set<Long> logged = new java.util.HashSet<>();
        try (org.raidb.recovery.ReplayCursor all = log.replayFrom(0)) {
            for (List<org.raidb.recovery.ReplayItem> batch = all.nextBatch(5_000);
                    !batch.isEmpty();
                    batch = all.nextBatch(5_000)) {
                for (org.raidb.recovery.ReplayItem item : batch) {
                    for (org.raidb.recovery.LogEntry e : item.statements()) {
                        if (e.sql().startsWith("INSERT INTO events")) {
                            logged.add((Long) e.parameters().get(0));
                        }
                    }
                }
            }
        }
        return logged;
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
