package org.raidb.tools.demo;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * The demo workload's own idea of what the shop database holds, kept in Java as the workload
 * writes: the row counts of each statement and the final state of the database are checked
 * against it, so a wrong answer through the RAIDb driver shows up as an error, not as a
 * plausible-looking run.
 */
final class ShopModel {

    record Order(int customerId, int productId, int quantity, BigDecimal amount, String status, LocalDate ordered) {}

    private record Product(BigDecimal price, int stock) {}

    private final Map<String, BigDecimal> balanceByName = new HashMap<>();
    private final Map<String, Product> productByName = new HashMap<>();
    private final TreeMap<Integer, BigDecimal> balances = new TreeMap<>();
    private final TreeMap<Integer, Product> products = new TreeMap<>();
    private final List<Order> orders = new ArrayList<>();
    private List<Integer> customerIds = List.of();
    private List<Integer> productIds = List.of();
    private Order pending;

    void addCustomer(String name, BigDecimal balance) {
        balanceByName.put(name, balance);
    }

    void addProduct(String name, BigDecimal price, int stock) {
        productByName.put(name, new Product(price, stock));
    }

    /** The database chose the serial ids: learn them by the unique names the workload gave. */
    void assignCustomerIds(Connection c) throws SQLException {
        for (Map.Entry<Integer, String> row : idsByName(c, "customers").entrySet()) {
            balances.put(row.getKey(), required(balanceByName.get(row.getValue()), row.getValue()));
        }
        customerIds = List.copyOf(balances.keySet());
    }

    void assignProductIds(Connection c) throws SQLException {
        for (Map.Entry<Integer, String> row : idsByName(c, "products").entrySet()) {
            products.put(row.getKey(), required(productByName.get(row.getValue()), row.getValue()));
        }
        productIds = List.copyOf(products.keySet());
    }

    private static Map<Integer, String> idsByName(Connection c, String table) throws SQLException {
        Map<Integer, String> ids = new TreeMap<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, name FROM " + table)) {
            while (rs.next()) {
                ids.put(rs.getInt(1), rs.getString(2));
            }
        }
        return ids;
    }

    private static <T> T required(T value, String name) {
        if (value == null) {
            throw new IllegalStateException("the database holds a row the workload never wrote: " + name);
        }
        return value;
    }

    int randomCustomer(Random random) {
        return customerIds.get(random.nextInt(customerIds.size()));
    }

    int randomProduct(Random random) {
        return productIds.get(random.nextInt(productIds.size()));
    }

    Order newOrder(int customer, int product, int quantity, String status, LocalDate day) {
        Order order = order(customer, product, quantity, status, day);
        orders.add(order);
        return order;
    }

    private Order order(int customer, int product, int quantity, String status, LocalDate day) {
        BigDecimal amount = products.get(product).price().multiply(BigDecimal.valueOf(quantity));
        return new Order(customer, product, quantity, amount, status, day);
    }

    int shipPaidBefore(LocalDate day) {
        int changed = 0;
        for (int i = 0; i < orders.size(); i++) {
            Order o = orders.get(i);
            if (o.status().equals("paid") && o.ordered().isBefore(day)) {
                orders.set(
                        i, new Order(o.customerId(), o.productId(), o.quantity(), o.amount(), "shipped", o.ordered()));
                changed++;
            }
        }
        return changed;
    }

    void adjustBalance(int customer, BigDecimal delta) {
        balances.merge(customer, delta, BigDecimal::add);
    }

    int raisePricesBelowStock(int stockLimit, BigDecimal factor) {
        int changed = 0;
        for (Map.Entry<Integer, Product> e : products.entrySet()) {
            Product p = e.getValue();
            if (p.stock() < stockLimit) {
                // numeric(10,2) assignment rounds half away from zero; prices are positive: HALF_UP.
                e.setValue(new Product(p.price().multiply(factor).setScale(2, RoundingMode.HALF_UP), p.stock()));
                changed++;
            }
        }
        return changed;
    }

    int deleteOrdersWithStatus(String status) {
        int before = orders.size();
        orders.removeIf(o -> o.status().equals(status));
        return before - orders.size();
    }

    int deleteCustomersWithoutOrders() {
        Set<Integer> ordering = new HashSet<>();
        orders.forEach(o -> ordering.add(o.customerId()));
        int before = balances.size();
        balances.keySet().removeIf(id -> !ordering.contains(id));
        customerIds = List.copyOf(balances.keySet());
        return before - balances.size();
    }

    /** What a read inside a transaction returned must be what the model holds. */
    void checkProduct(int product, BigDecimal price, int stock) {
        Product expected = products.get(product);
        if (expected.price().compareTo(price) != 0 || expected.stock() != stock) {
            throw new IllegalStateException("product " + product + " read as price " + price + " stock " + stock
                    + ", expected " + expected.price() + " and " + expected.stock());
        }
    }

    /** A purchase written in an open transaction: applied to the model only on commit. */
    Order pendingPurchase(int customer, int product, int quantity, String status, LocalDate day) {
        pending = order(customer, product, quantity, status, day);
        return pending;
    }

    void commitPending() {
        Order o = pending;
        pending = null;
        orders.add(o);
        Product p = products.get(o.productId());
        products.put(o.productId(), new Product(p.price(), p.stock() - o.quantity()));
        balances.merge(o.customerId(), o.amount().negate(), BigDecimal::add);
    }

    void discardPending() {
        pending = null;
    }

    long customerCount() {
        return balances.size();
    }

    long productCount() {
        return products.size();
    }

    long orderCount() {
        return orders.size();
    }

    BigDecimal totalBalance() {
        return balances.values().stream().reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    long totalStock() {
        return products.values().stream().mapToLong(Product::stock).sum();
    }

    BigDecimal totalPrice() {
        return products.values().stream().map(Product::price).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    BigDecimal totalOrdered() {
        return orders.stream().map(Order::amount).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    Map<String, Long> ordersPerStatus() {
        Map<String, Long> counts = new TreeMap<>();
        orders.forEach(o -> counts.merge(o.status(), 1L, Long::sum));
        return counts;
    }
}
