package org.raidb.controller.it.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.test.PostgresClusterExtension;

/** An application's pool pointed at RAIDb: 16 threads of mixed reads and writes, no error, identical replicas. */
class HikariConcurrencyIT {
    private static final int THREADS = 16;
    private static final long RUN_MILLIS = 10_000;
    private static final int ROWS = 200;

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    @Test
    void sixteenThreadsOfMixedWorkKeepReplicasIdentical() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            HikariConfig hc = new HikariConfig();
            hc.setJdbcUrl(raidb.url());
            hc.setUsername(ControllerFixture.USER);
            hc.setPassword(ControllerFixture.PASSWORD);
            hc.setMaximumPoolSize(THREADS);
            hc.setPoolName("app-pool");
            try (HikariDataSource ds = new HikariDataSource(hc)) {
                try (Connection c = ds.getConnection();
                        Statement st = c.createStatement()) {
                    st.execute("CREATE TABLE stock (id int PRIMARY KEY, qty int NOT NULL, version int NOT NULL)");
                    st.execute(
                            "CREATE TABLE movements (id bigserial PRIMARY KEY, stock_id int NOT NULL, delta int NOT NULL)");
                    st.executeUpdate("INSERT INTO stock SELECT g, 1000, 0 FROM generate_series(1, " + ROWS + ") g");
                }
                ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
                AtomicLong operations = new AtomicLong();
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RUN_MILLIS);
                ExecutorService pool = Executors.newFixedThreadPool(THREADS);
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    long seed = t;
                    futures.add(pool.submit(() -> {
                        Random random = new Random(seed);
                        while (System.nanoTime() < deadline && errors.isEmpty()) {
                            try (Connection c = ds.getConnection()) {
                                mixedOperation(c, random);
                                operations.incrementAndGet();
                            } catch (Throwable e) {
                                errors.add(e);
                            }
                        }
                    }));
                }
                for (Future<?> f : futures) {
                    f.get(RUN_MILLIS + 120_000, TimeUnit.MILLISECONDS);
                }
                pool.shutdown();
                assertThat(errors).as("errors seen by clients").isEmpty();
                assertThat(operations.get()).isGreaterThan(THREADS);
                // Every movement changed the stock by its delta: the books balance through the driver.
                try (Connection c = ds.getConnection();
                        Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery(
                                "SELECT (SELECT sum(qty) FROM stock), (SELECT coalesce(sum(delta), 0) FROM movements)")) {
                    rs.next();
                    assertThat(rs.getLong(1)).isEqualTo(1000L * ROWS + rs.getLong(2));
                }
            }
            Map<String, Map<String, String>> sums =
                    ControllerFixture.checksums(pg.cluster().servers());
            Map<String, String> first = sums.values().iterator().next();
            assertThat(first).containsKeys("stock", "movements");
            assertThat(sums.values()).allSatisfy(s -> assertThat(s).isEqualTo(first));
            assertThat(raidb.controller().virtualDatabase("shop").backends())
                    .allSatisfy(b -> assertThat(b.isEnabled()).isTrue());
        }
    }

    private static void mixedOperation(Connection c, Random random) throws Exception {
        int id = 1 + random.nextInt(ROWS);
        int kind = random.nextInt(10);
        if (kind < 5) {
            try (PreparedStatement ps = c.prepareStatement("SELECT qty, version FROM stock WHERE id = ?")) {
                ps.setInt(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new AssertionError("stock row " + id + " missing");
                    }
                }
            }
        } else if (kind < 8) {
            int delta = random.nextInt(21) - 10;
            c.setAutoCommit(false);
            try (PreparedStatement up =
                            c.prepareStatement("UPDATE stock SET qty = qty + ?, version = version + 1 WHERE id = ?");
                    PreparedStatement log =
                            c.prepareStatement("INSERT INTO movements (stock_id, delta) VALUES (?, ?)")) {
                up.setInt(1, delta);
                up.setInt(2, id);
                if (up.executeUpdate() != 1) {
                    throw new AssertionError("update of stock " + id + " touched no row");
                }
                log.setInt(1, id);
                log.setInt(2, delta);
                log.executeUpdate();
                c.commit();
            } catch (Exception e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } else if (kind < 9) {
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(
                            "SELECT stock_id, count(*) FROM movements GROUP BY stock_id ORDER BY 2 DESC LIMIT 5")) {
                while (rs.next()) {
                    rs.getInt(1);
                }
            }
        } else {
            // An auto-commit write that cancels itself out, to mix statement-level writes in.
            try (PreparedStatement ps = c.prepareStatement("UPDATE stock SET version = version + 1 WHERE id = ?")) {
                ps.setInt(1, id);
                ps.executeUpdate();
            }
        }
    }
}
