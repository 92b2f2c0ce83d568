package org.raidb.tools.demo;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A small shop workload run through any JDBC connection (the RAIDb driver in the demo, a plain
 * pgjdbc connection in tests): schema creation, batched inserts, updates, deletes, multi-statement
 * transactions and rollbacks, with a progress line, and a final check of the database against
 * the workload's own model of what it should hold.
 *
 * <p>Every written value is a literal drawn from a {@link Random} with a fixed seed: no now(), no
 * random() and no serial value chosen by the client, so that running the workload on several
 * databases gives identical contents (replicas can be compared with {@link ReplicaReport}). It
 * drops and re-creates its tables, so it can run again on the same database.
 */
public final class DemoWorkload {

    public static final long SEED = 42L;
    public static final int CUSTOMERS = 1_000;
    public static final int PRODUCTS = 100;
    public static final int ORDERS = 4_000;
    public static final int BALANCE_ADJUSTMENTS = 500;
    public static final int PURCHASES = 200;
    public static final int ROLLED_BACK_PURCHASES = 25;
    static final int BATCH_SIZE = 100;
    static final String[] STATUSES = {"new", "paid", "shipped", "cancelled"};
    static final LocalDate FIRST_DAY = LocalDate.of(2020, 1, 1);
    static final List<String> TABLES = List.of("customers", "products", "orders");

    private final Connection c;
    private final PrintStream out;
    private final Random random = new Random(SEED);
    private final ShopModel model = new ShopModel();
    private long inserts;
    private long updates;
    private long deletes;
    private int committed;
    private int rolledBack;

    private DemoWorkload(Connection c, PrintStream out) {
        this.c = c;
        this.out = out;
    }

    /**
     * Runs the whole workload; throws IllegalStateException if the database does not end up
     * holding what the workload wrote.
     */
    public static WorkloadSummary run(Connection raidb, PrintStream out) throws SQLException {
        return new DemoWorkload(raidb, out).run();
    }

    private WorkloadSummary run() throws SQLException {
        long begin = System.nanoTime();
        boolean autoCommit = c.getAutoCommit();
        try {
            createSchema();
            c.setAutoCommit(false);
            insertRows();
            updateRows();
            deleteRows();
            purchases();
            rollbacks();
            c.setAutoCommit(true);
            WorkloadSummary summary = verify(Duration.ofNanos(System.nanoTime() - begin));
            summary.printTo(out);
            return summary;
        } catch (SQLException | RuntimeException e) {
            if (!c.getAutoCommit()) {
                c.rollback();
            }
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    private void createSchema() throws SQLException {
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS orders");
            s.execute("DROP TABLE IF EXISTS products");
            s.execute("DROP TABLE IF EXISTS customers");
            s.execute("CREATE TABLE customers (id serial PRIMARY KEY, name text NOT NULL UNIQUE,"
                    + " balance numeric(12,2) NOT NULL, created date NOT NULL)");
            s.execute("CREATE TABLE products (id serial PRIMARY KEY, name text NOT NULL UNIQUE,"
                    + " price numeric(10,2) NOT NULL, stock integer NOT NULL)");
            s.execute(
                    "CREATE TABLE orders (id serial PRIMARY KEY,"
                            + " customer_id integer NOT NULL REFERENCES customers(id),"
                            + " product_id integer NOT NULL REFERENCES products(id),"
                            + " quantity integer NOT NULL, amount numeric(12,2) NOT NULL, status text NOT NULL, ordered date NOT NULL)");
        }
        out.println("schema: tables customers, products, orders (orders -> customers, products foreign keys) created");
    }

    private void insertRows() throws SQLException {
        ProgressLine progress = new ProgressLine(out, "inserts", CUSTOMERS + PRODUCTS + ORDERS);
        try (PreparedStatement p =
                c.prepareStatement("INSERT INTO customers (name, balance, created) VALUES (?, ?, ?)")) {
            for (int i = 1; i <= CUSTOMERS; i++) {
                String name = String.format(Locale.ROOT, "customer-%04d", i);
                BigDecimal balance = cents(random.nextInt(1_000_000));
                model.addCustomer(name, balance);
                p.setString(1, name);
                p.setBigDecimal(2, balance);
                p.setObject(3, FIRST_DAY.plusDays(random.nextInt(1500)));
                p.addBatch();
                if (i % BATCH_SIZE == 0 || i == CUSTOMERS) {
                    commitBatch(p, progress);
                }
            }
        }
        // The database chose the ids: read them back rather than assuming 1..N.
        model.assignCustomerIds(c);
        try (PreparedStatement p = c.prepareStatement("INSERT INTO products (name, price, stock) VALUES (?, ?, ?)")) {
            for (int i = 1; i <= PRODUCTS; i++) {
                String name = String.format(Locale.ROOT, "product-%03d", i);
                BigDecimal price = cents(100 + random.nextInt(50_000));
                int stock = 1000 + random.nextInt(4001);
                model.addProduct(name, price, stock);
                p.setString(1, name);
                p.setBigDecimal(2, price);
                p.setInt(3, stock);
                p.addBatch();
                if (i % BATCH_SIZE == 0 || i == PRODUCTS) {
                    commitBatch(p, progress);
                }
            }
        }
        model.assignProductIds(c);
        try (PreparedStatement p = c.prepareStatement(
                "INSERT INTO orders (customer_id, product_id, quantity, amount, status, ordered) VALUES (?, ?, ?, ?, ?, ?)")) {
            for (int i = 1; i <= ORDERS; i++) {
                ShopModel.Order order = model.newOrder(
                        model.randomCustomer(random),
                        model.randomProduct(random),
                        1 + random.nextInt(5),
                        STATUSES[random.nextInt(STATUSES.length)],
                        FIRST_DAY.plusDays(random.nextInt(1500)));
                bindOrder(p, order);
                p.addBatch();
                if (i % BATCH_SIZE == 0 || i == ORDERS) {
                    commitBatch(p, progress);
                }
            }
        }
        progress.finish();
    }

    private void commitBatch(PreparedStatement p, ProgressLine progress) throws SQLException {
        int rows = p.executeBatch().length;
        c.commit();
        inserts += rows;
        progress.advance(rows);
    }

    private void updateRows() throws SQLException {
        ProgressLine progress = new ProgressLine(out, "updates", BALANCE_ADJUSTMENTS + 2);
        LocalDate shipBefore = FIRST_DAY.plusDays(700);
        try (PreparedStatement p =
                c.prepareStatement("UPDATE orders SET status = 'shipped' WHERE status = 'paid' AND ordered < ?")) {
            p.setObject(1, shipBefore);
            updates += expectRows("ship old paid orders", model.shipPaidBefore(shipBefore), p.executeUpdate());
            c.commit();
            progress.advance(1);
        }
        try (PreparedStatement p = c.prepareStatement("UPDATE customers SET balance = balance + ? WHERE id = ?")) {
            for (int i = 1; i <= BALANCE_ADJUSTMENTS; i++) {
                int customer = model.randomCustomer(random);
                BigDecimal delta = cents(random.nextInt(10_001) - 5_000);
                model.adjustBalance(customer, delta);
                p.setBigDecimal(1, delta);
                p.setInt(2, customer);
                p.addBatch();
                if (i % BATCH_SIZE == 0 || i == BALANCE_ADJUSTMENTS) {
                    updates += p.executeBatch().length;
                    c.commit();
                    progress.advance(i % BATCH_SIZE == 0 ? BATCH_SIZE : i % BATCH_SIZE);
                }
            }
        }
        try (Statement s = c.createStatement()) {
            // numeric(10,2) rounds half away from zero on assignment: the model does the same.
            updates += expectRows(
                    "raise scarce products' prices",
                    model.raisePricesBelowStock(2000, new BigDecimal("1.10")),
                    s.executeUpdate("UPDATE products SET price = price * 1.10 WHERE stock < 2000"));
            c.commit();
            progress.advance(1);
        }
        progress.finish();
    }

    private void deleteRows() throws SQLException {
        try (Statement s = c.createStatement()) {
            int cancelled = expectRows(
                    "delete cancelled orders",
                    model.deleteOrdersWithStatus("cancelled"),
                    s.executeUpdate("DELETE FROM orders WHERE status = 'cancelled'"));
            c.commit();
            int idle = expectRows(
                    "delete customers without orders",
                    model.deleteCustomersWithoutOrders(),
                    s.executeUpdate("DELETE FROM customers WHERE id NOT IN (SELECT customer_id FROM orders)"));
            c.commit();
            deletes += cancelled + idle;
            out.println(String.format(
                    Locale.US, "deletes: %,d cancelled orders, %,d customers without orders", cancelled, idle));
        }
    }

    /** Multi-statement transactions: read the product, insert the order, move stock and money. */
    private void purchases() throws SQLException {
        ProgressLine progress = new ProgressLine(out, "transactions", PURCHASES);
        for (int i = 0; i < PURCHASES; i++) {
            purchase(FIRST_DAY.plusDays(1500 + i / 10), "paid");
            c.commit();
            committed++;
            inserts += 1; // counted on commit: the summary tells what the database kept
            updates += 2;
            model.commitPending();
            progress.advance(1);
        }
        progress.finish();
    }

    /** The same purchases, rolled back, then one rejected by a foreign key: none may leave a trace. */
    private void rollbacks() throws SQLException {
        for (int i = 0; i < ROLLED_BACK_PURCHASES; i++) {
            purchase(FIRST_DAY.plusDays(2000), "rolled-back");
            c.rollback();
            rolledBack++;
            model.discardPending();
        }
        boolean rejected = false;
        try (PreparedStatement p = c.prepareStatement(
                "INSERT INTO orders (customer_id, product_id, quantity, amount, status, ordered) VALUES (?, ?, 1, 1.00, 'rolled-back', ?)")) {
            p.setInt(1, -1); // no such customer
            p.setInt(2, model.randomProduct(random));
            p.setObject(3, FIRST_DAY);
            p.executeUpdate();
        } catch (SQLException expected) {
            rejected = true;
            out.println("foreign key: an order for a missing customer was rejected (SQLState " + expected.getSQLState()
                    + ")");
        }
        c.rollback();
        rolledBack++;
        if (!rejected) {
            throw new IllegalStateException("an order for a missing customer was accepted: foreign key not enforced");
        }
        long left;
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM orders WHERE status = 'rolled-back'")) {
            rs.next();
            left = rs.getLong(1);
        }
        c.commit();
        if (left != 0) {
            throw new IllegalStateException(left + " rows of rolled-back transactions are present");
        }
        out.println(String.format(
                Locale.US,
                "rollbacks: %d purchases rolled back, 0 of their orders present, stock and balances untouched",
                ROLLED_BACK_PURCHASES));
    }

    private void purchase(LocalDate day, String status) throws SQLException {
        int customer = model.randomCustomer(random);
        int product = model.randomProduct(random);
        int quantity = 1 + random.nextInt(3);
        try (PreparedStatement read = c.prepareStatement("SELECT price, stock FROM products WHERE id = ?")) {
            read.setInt(1, product);
            try (ResultSet rs = read.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("product " + product + " missing");
                }
                model.checkProduct(product, rs.getBigDecimal(1), rs.getInt(2));
            }
        }
        ShopModel.Order order = model.pendingPurchase(customer, product, quantity, status, day);
        try (PreparedStatement p = c.prepareStatement(
                "INSERT INTO orders (customer_id, product_id, quantity, amount, status, ordered) VALUES (?, ?, ?, ?, ?, ?)")) {
            bindOrder(p, order);
            expectRows("insert the order", 1, p.executeUpdate());
        }
        try (PreparedStatement p = c.prepareStatement("UPDATE products SET stock = stock - ? WHERE id = ?")) {
            p.setInt(1, quantity);
            p.setInt(2, product);
            expectRows("take stock", 1, p.executeUpdate());
        }
        try (PreparedStatement p = c.prepareStatement("UPDATE customers SET balance = balance - ? WHERE id = ?")) {
            p.setBigDecimal(1, order.amount());
            p.setInt(2, customer);
            expectRows("charge customer", 1, p.executeUpdate());
        }
    }

    private static void bindOrder(PreparedStatement p, ShopModel.Order order) throws SQLException {
        p.setInt(1, order.customerId());
        p.setInt(2, order.productId());
        p.setInt(3, order.quantity());
        p.setBigDecimal(4, order.amount());
        p.setString(5, order.status());
        p.setObject(6, order.ordered());
    }

    /** The rows a statement changed must be those the model predicts: else the run stops. */
    private static int expectRows(String what, int expected, int actual) {
        if (expected != actual) {
            throw new IllegalStateException(what + ": " + actual + " rows changed, " + expected + " expected");
        }
        return actual;
    }

    private WorkloadSummary verify(Duration elapsed) throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        List<String> mismatches = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            for (String table : TABLES) {
                counts.put(table, single(s, "SELECT count(*) FROM " + table).longValue());
            }
            compare(mismatches, "customers", model.customerCount(), counts.get("customers"));
            compare(mismatches, "products", model.productCount(), counts.get("products"));
            compare(mismatches, "orders", model.orderCount(), counts.get("orders"));
            BigDecimal balance = single(s, "SELECT coalesce(sum(balance), 0) FROM customers");
            compare(mismatches, "total balance", model.totalBalance(), balance);
            compare(
                    mismatches,
                    "total stock",
                    BigDecimal.valueOf(model.totalStock()),
                    single(s, "SELECT coalesce(sum(stock), 0) FROM products"));
            compare(
                    mismatches,
                    "total price",
                    model.totalPrice(),
                    single(s, "SELECT coalesce(sum(price), 0) FROM products"));
            compare(
                    mismatches,
                    "total ordered amount",
                    model.totalOrdered(),
                    single(s, "SELECT coalesce(sum(amount), 0) FROM orders"));
            Map<String, Long> statuses = new TreeMap<>();
            try (ResultSet rs = s.executeQuery("SELECT status, count(*) FROM orders GROUP BY status")) {
                while (rs.next()) {
                    statuses.put(rs.getString(1), rs.getLong(2));
                }
            }
            compare(mismatches, "orders per status", model.ordersPerStatus(), statuses);
            if (!mismatches.isEmpty()) {
                throw new IllegalStateException(
                        "the database does not hold what the workload wrote: " + String.join("; ", mismatches));
            }
            return new WorkloadSummary(inserts, updates, deletes, committed, rolledBack, counts, balance, elapsed);
        }
    }

    private static BigDecimal single(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getBigDecimal(1);
        }
    }

    private static void compare(List<String> mismatches, String what, Object expected, Object actual) {
        boolean same = (expected instanceof BigDecimal e && actual instanceof BigDecimal a)
                ? e.compareTo(a) == 0
                : (expected instanceof Number e2 && actual instanceof Number a2)
                        ? e2.longValue() == a2.longValue()
                        : expected.equals(actual);
        if (!same) {
            mismatches.add(what + " is " + actual + ", expected " + expected);
        }
    }

    static BigDecimal cents(long cents) {
        return BigDecimal.valueOf(cents, 2).setScale(2, RoundingMode.UNNECESSARY);
    }
}
