package org.raidb.controller.it.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.raidb.controller.cache.CacheFigures;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.test.PostgresClusterExtension;

/**
 * Several clients insert, update, delete and read rows through a controller with a result cache, and
 * every read is checked against a model of the committed history: a read returns a version of the row
 * no older than the last write acknowledged before the read started, and none that no write had begun
 * to make before the read ended. A stale cached result breaks the first rule.
 *
 * <p>Each client writes only its own rows (so each row's versions have one order, the model's), and
 * reads everyone's, one row at a time and all rows at once. Values are unique per version.
 */
class ResultCacheModelIT {
    private static final int CLIENTS = 4;
    private static final int ROWS = 40;
    private static final int OPERATIONS_PER_CLIENT = Integer.getInteger("raidb.cache.model.operations", 400);

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    /**
     * One version of a row as the model knows it.
     *
     * @param start when the write that made it was sent (for a transaction, its COMMIT)
     * @param acknowledged when the client had its answer
     */
    private record Version(long start, long acknowledged, boolean present, int value) {}

    /** What one read saw of one row. */
    private record Seen(int id, long start, long end, boolean present, int value, String how) {}

    @ParameterizedTest(name = "granularity {0}")
    @ValueSource(strings = {"table", "column"})
    void noReadReturnsARowOlderThanACommittedWriteBeforeIt(String granularity) throws Exception {
        String table = "kv_" + granularity;
        try (ControllerFixture raidb = ControllerFixture.start(
                pg.controllerConfig("shop").extraXml("<resultCache granularity=\"" + granularity + "\"/>"), "shop")) {
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, v int NOT NULL, note int NOT NULL)");
            }
            List<List<Version>> history = new ArrayList<>();
            for (int id = 0; id < ROWS; id++) {
                List<Version> h = Collections.synchronizedList(new ArrayList<>());
                h.add(new Version(Long.MIN_VALUE, Long.MIN_VALUE, false, 0));
                history.add(h);
            }
            ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
            AtomicInteger values = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
            try {
                List<Future<?>> clients = new ArrayList<>();
                for (int client = 0; client < CLIENTS; client++) {
                    int me = client;
                    clients.add(pool.submit(() -> {
                        clientLoop(raidb, table, me, history, seen, values);
                        return null;
                    }));
                }
                for (Future<?> f : clients) {
                    f.get(10, TimeUnit.MINUTES);
                }
            } finally {
                pool.shutdownNow();
            }

            List<String> violations = new ArrayList<>();
            for (Seen s : seen) {
                String problem = check(s, history.get(s.id()));
                if (problem != null) {
                    violations.add(problem);
                }
            }
            CacheFigures f =
                    raidb.controller().virtualDatabase("shop").resultCache().figures();
            System.out.printf(
                    "granularity %s: %d row observations checked, cache hits %d, misses %d, invalidations %d%n",
                    granularity, seen.size(), f.hits(), f.misses(), f.invalidations());
            assertThat(violations)
                    .as("reads that returned a version older than a committed write")
                    .isEmpty();
            assertThat(seen).hasSizeGreaterThan(CLIENTS * OPERATIONS_PER_CLIENT / 2);
            assertThat(f.hits())
                    .as("the cache served reads, so the check covered it")
                    .isPositive();
        }
    }

    private static void clientLoop(
            ControllerFixture raidb,
            String table,
            int me,
            List<List<Version>> history,
            ConcurrentLinkedQueue<Seen> seen,
            AtomicInteger values)
            throws SQLException {
        Random random = new Random(1000L * me + 7);
        List<Integer> mine = new ArrayList<>();
        for (int id = me; id < ROWS; id += CLIENTS) {
            mine.add(id);
        }
        try (Connection c = raidb.connect()) {
            for (int op = 0; op < OPERATIONS_PER_CLIENT; op++) {
                int dice = random.nextInt(100);
                if (dice < 75) {
                    readOne(c, table, random.nextInt(ROWS), seen);
                } else if (dice < 85) {
                    readAll(c, table, seen);
                } else {
                    int id = mine.get(random.nextInt(mine.size()));
                    write(c, table, id, history.get(id), random, values);
                }
            }
        }
    }

    private static void readOne(Connection c, String table, int id, ConcurrentLinkedQueue<Seen> seen)
            throws SQLException {
        long start = System.nanoTime();
        try (PreparedStatement ps = c.prepareStatement("SELECT v FROM " + table + " WHERE id = ?")) {
            ps.setInt(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                boolean present = rs.next();
                int value = present ? rs.getInt(1) : 0;
                seen.add(new Seen(id, start, System.nanoTime(), present, value, "one row"));
            }
        }
    }

    private static void readAll(Connection c, String table, ConcurrentLinkedQueue<Seen> seen) throws SQLException {
        long start = System.nanoTime();
        Map<Integer, Integer> rows = new java.util.HashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id, v FROM " + table + " ORDER BY id")) {
            while (rs.next()) {
                rows.put(rs.getInt(1), rs.getInt(2));
            }
        }
        long end = System.nanoTime();
        for (int id = 0; id < ROWS; id++) {
            Integer v = rows.get(id);
            seen.add(new Seen(id, start, end, v != null, v == null ? 0 : v, "all rows"));
        }
    }

    /** The client's own row: inserted when absent, else its value or its note changed, or deleted. */
    private static void write(Connection c, String table, int id, List<Version> h, Random random, AtomicInteger values)
            throws SQLException {
        Version last = h.get(h.size() - 1);
        boolean inTransaction = random.nextInt(4) == 0;
        int value = values.incrementAndGet();
        String sql;
        Boolean present; // null: the value does not change (a note)
        if (!last.present()) {
            sql = "INSERT INTO " + table + " (id, v, note) VALUES (" + id + ", " + value + ", 0)";
            present = true;
        } else {
            int choice = random.nextInt(10);
            if (choice < 5) {
                sql = "UPDATE " + table + " SET v = " + value + " WHERE id = " + id;
                present = true;
            } else if (choice < 7) {
                sql = "UPDATE " + table + " SET note = note + 1 WHERE id = " + id;
                present = null;
            } else {
                sql = "DELETE FROM " + table + " WHERE id = " + id;
                present = false;
            }
        }
        long start;
        try (Statement st = c.createStatement()) {
            if (inTransaction) {
                c.setAutoCommit(false);
                st.executeUpdate(sql);
                start = System.nanoTime(); // others may see it from its commit on
                c.commit();
                c.setAutoCommit(true);
            } else {
                start = System.nanoTime();
                st.executeUpdate(sql);
            }
        }
        long acknowledged = System.nanoTime();
        if (present != null) {
            h.add(new Version(start, acknowledged, present, present ? value : 0));
        }
    }

    /** Null when {@code s} is a version the history allows, else what is wrong. */
    private static String check(Seen s, List<Version> h) {
        List<Version> versions;
        synchronized (h) {
            versions = List.copyOf(h);
        }
        int oldest = 0; // the last version acknowledged before the read started
        int newest = 0; // the last version whose write had started before the read ended
        for (int k = 0; k < versions.size(); k++) {
            if (versions.get(k).acknowledged() < s.start()) {
                oldest = k;
            }
            if (versions.get(k).start() < s.end()) {
                newest = k;
            }
        }
        for (int k = oldest; k <= newest; k++) {
            Version v = versions.get(k);
            if (v.present() == s.present() && (!s.present() || v.value() == s.value())) {
                return null;
            }
        }
        return "row " + s.id() + " read (" + s.how() + ") as " + (s.present() ? "v=" + s.value() : "absent")
                + ", allowed versions "
                + versions.subList(oldest, newest + 1).stream()
                        .map(v -> v.present() ? "v=" + v.value() : "absent")
                        .collect(Collectors.joining(", "));
    }
}
