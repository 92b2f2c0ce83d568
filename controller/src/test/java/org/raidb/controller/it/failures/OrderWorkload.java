package org.raidb.controller.it.failures;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.raidb.controller.it.support.ControllerFixture;

/**
 * Clients that keep committing small transactions (an order and its line, by primary key) and others
 * that keep reading, until closed. Only inserts with keys: a write left in doubt on a backend that
 * hung is told apart on replay (its key is there or not), so the backend can be brought back exactly.
 */
final class OrderWorkload implements AutoCloseable {
    final AtomicLong commits = new AtomicLong();
    final AtomicLong reads = new AtomicLong();
    /** SQLState → count of the errors clients saw. */
    final Map<String, AtomicLong> errors = new ConcurrentHashMap<>();

    final ConcurrentLinkedQueue<String> errorSamples = new ConcurrentLinkedQueue<>();
    private final ExecutorService clients;
    private final List<Future<?>> running = new ArrayList<>();
    private volatile boolean stop;

    static void createTables(String url) throws SQLException {
        try (Connection c = connect(url);
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE orders (id BIGINT PRIMARY KEY, client INT NOT NULL, n INT NOT NULL)");
            st.execute("CREATE TABLE order_lines (order_id BIGINT PRIMARY KEY REFERENCES orders, qty INT NOT NULL)");
        }
    }

    private OrderWorkload(int writers, int readers) {
        this.clients = Executors.newFixedThreadPool(writers + readers);
    }

    static OrderWorkload start(String url, int writers, int readers) {
        OrderWorkload w = new OrderWorkload(writers, readers);
        for (int i = 0; i < writers; i++) {
            int client = i;
            w.running.add(w.clients.submit(() -> w.write(url, client)));
        }
        for (int i = 0; i < readers; i++) {
            w.running.add(w.clients.submit(() -> w.read(url)));
        }
        return w;
    }

    long commits() {
        return commits.get();
    }

    private Void write(String url, int client) throws SQLException {
        try (Connection c = connect(url);
                PreparedStatement order = c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?)");
                PreparedStatement line = c.prepareStatement("INSERT INTO order_lines VALUES (?, ?)")) {
            c.setAutoCommit(false);
            for (int n = 1; !stop; n++) {
                long id = client * 100_000_000L + n;
                try {
                    order.setLong(1, id);
                    order.setInt(2, client);
                    order.setInt(3, n);
                    order.executeUpdate();
                    line.setLong(1, id);
                    line.setInt(2, n % 7 + 1);
                    line.executeUpdate();
                    c.commit();
                    commits.incrementAndGet();
                } catch (SQLException e) {
                    failed(e);
                    try {
                        c.rollback();
                    } catch (SQLException ignored) {
                        // counted above; the next transaction tells whether the connection still works
                    }
                }
            }
        }
        return null;
    }

    private Void read(String url) throws SQLException {
        try (Connection c = connect(url);
                Statement st = c.createStatement()) {
            while (!stop) {
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM orders")) {
                    rs.next();
                    reads.incrementAndGet();
                } catch (SQLException e) {
                    failed(e);
                }
            }
        }
        return null;
    }

    private void failed(SQLException e) {
        errors.computeIfAbsent(String.valueOf(e.getSQLState()), k -> new AtomicLong())
                .incrementAndGet();
        if (errorSamples.size() < 5) {
            errorSamples.add(e.getSQLState() + ": " + e.getMessage());
        }
    }

    private static Connection connect(String url) throws SQLException {
        return DriverManager.getConnection(url, ControllerFixture.USER, ControllerFixture.PASSWORD);
    }

    /** Stops the clients and waits for them; a client that died of an exception fails here. */
    @Override
    public void close() throws Exception {
        stop = true;
        clients.shutdown();
        for (Future<?> f : running) {
            f.get(2, TimeUnit.MINUTES);
        }
    }

    /** Orders on a backend, straight through pgjdbc. */
    static long orders(org.raidb.embedded.EmbeddedPostgresServer s) throws SQLException {
        try (Connection c = s.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM orders")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
