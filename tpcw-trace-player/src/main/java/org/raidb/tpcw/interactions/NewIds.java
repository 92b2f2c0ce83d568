package org.raidb.tpcw.interactions;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Keys for new rows, shared by all emulated browsers of a recording and handed out by the
 * recorder rather than by the database, so that each INSERT carries its key as a literal and a
 * replay in another interleaving inserts exactly the same rows.
 */
public final class NewIds {

    private final int items;
    private final int customersAtStart;
    private final AtomicInteger customer;
    private final AtomicInteger address;
    private final AtomicInteger order;
    private final AtomicInteger cart;

    private NewIds(int items, int customers, int addresses, int orders, int carts) {
        this.items = items;
        this.customersAtStart = customers;
        this.customer = new AtomicInteger(customers);
        this.address = new AtomicInteger(addresses);
        this.order = new AtomicInteger(orders);
        this.cart = new AtomicInteger(carts);
    }

    /** Continues after the largest keys of a populated database. */
    public static NewIds after(Connection c) throws SQLException {
        return new NewIds(
                max(c, "i_id", "item"),
                max(c, "c_id", "customer"),
                max(c, "addr_id", "address"),
                max(c, "o_id", "orders"),
                max(c, "sc_id", "shopping_cart"));
    }

    private static int max(Connection c, String column, String table) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT coalesce(max(" + column + "), 0) FROM " + table)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** Items are never added: 1..items all exist. */
    public int items() {
        return items;
    }

    /** Customers 1..this existed before the recording started. */
    public int customersAtStart() {
        return customersAtStart;
    }

    public int nextCustomer() {
        return customer.incrementAndGet();
    }

    public int nextAddress() {
        return address.incrementAndGet();
    }

    public int nextOrder() {
        return order.incrementAndGet();
    }

    public int nextCart() {
        return cart.incrementAndGet();
    }
}
