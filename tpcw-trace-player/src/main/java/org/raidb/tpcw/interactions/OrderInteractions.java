package org.raidb.tpcw.interactions;

import static org.raidb.tpcw.interactions.SqlLiteral.date;
import static org.raidb.tpcw.interactions.SqlLiteral.number;
import static org.raidb.tpcw.interactions.SqlLiteral.text;
import static org.raidb.tpcw.interactions.SqlLiteral.timestamp;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.raidb.tpcw.populate.TpcwRandom;
import org.raidb.tpcw.schema.Scale;

/** The eight order interactions (cart, registration, purchase, order status, administration) and their SQL. */
final class OrderInteractions {

    /** Cart quantities stay in 1..10 so that the stock update below stays commutative. */
    static final int MAX_QUANTITY = 10;

    private OrderInteractions() {}

    /** Adds an item (or one more of it), sometimes changes a quantity, shows the cart. */
    static void shoppingCart(SqlSession db, BrowserState b) throws SQLException {
        db.begin();
        List<Object[]> lines = ensureCart(db, b);
        if (lines.isEmpty() || b.random.uniform() < 0.5) {
            addItem(db, b, b.randomItem());
        } else {
            Object[] line = lines.get(b.random.between(0, lines.size() - 1));
            db.update("UPDATE shopping_cart_line SET scl_qty = " + b.random.between(1, MAX_QUANTITY)
                    + " WHERE scl_sc_id = " + b.cart + " AND scl_i_id = " + line[0]);
        }
        db.update("UPDATE shopping_cart SET sc_time = " + timestamp(BrowserState.now()) + " WHERE sc_id = " + b.cart);
        showCart(db, b);
        db.commit();
        BrowseInteractions.promotionalItems(db, b);
    }

    /** A new customer with a new address; the browser is that customer from now on. */
    static void customerRegistration(SqlSession db, BrowserState b) throws SQLException {
        int customer = b.ids.nextCustomer();
        int address = b.ids.nextAddress();
        String uname = TpcwRandom.digitSyllables(customer);
        LocalDateTime now = BrowserState.now();
        db.begin();
        insertAddress(db, b, address);
        db.update(
                "INSERT INTO customer (c_id, c_uname, c_passwd, c_fname, c_lname, c_addr_id, c_phone, c_email, c_since,"
                        + " c_last_login, c_login, c_expiration, c_discount, c_balance, c_ytd_pmt, c_birthdate, c_data) VALUES ("
                        + customer + ", " + text(uname) + ", " + text(uname.toLowerCase(Locale.ROOT)) + ", "
                        + text(b.random.aString(8, 15))
                        + ", " + text(b.random.aString(8, 15)) + ", " + address + ", " + text(b.random.nString(9, 16))
                        + ", "
                        + text(uname + "@example.com") + ", " + date(now.toLocalDate()) + ", " + date(now.toLocalDate())
                        + ", "
                        + timestamp(now) + ", " + timestamp(now.plusHours(2)) + ", "
                        + BigDecimal.valueOf(b.random.between(0, 50), 2)
                        + ", 0.00, 0.00, " + date(b.random.dayBefore(365 * 80)) + ", "
                        + text(b.random.aString(100, 500)) + ")");
        db.commit();
        b.customer = customer;
    }

    /** Logs the customer in (login and expiry times) and shows what the cart holds. */
    static void buyRequest(SqlSession db, BrowserState b) throws SQLException {
        LocalDateTime now = BrowserState.now();
        db.begin();
        db.query("SELECT c_id, c_fname, c_lname, c_discount, addr_street1, addr_city, addr_zip, co_name"
                + " FROM customer, address, country WHERE c_id = " + b.customer()
                + " AND c_addr_id = addr_id AND addr_co_id = co_id");
        db.update("UPDATE customer SET c_login = " + timestamp(now) + ", c_expiration = " + timestamp(now.plusHours(2))
                + " WHERE c_id = " + b.customer());
        if (ensureCart(db, b).isEmpty()) {
            addItem(db, b, b.randomItem());
        }
        showCart(db, b);
        db.commit();
    }

    /**
     * Turns the cart into an order: order, lines, stock, credit card transaction, empty cart.
     *
     * <p>The stock update is {@code 10 + (stock - 10 - qty) mod 21}: the specification's "subtract,
     * and add 21 when below 10" for stocks in 10..30 and quantities in 1..10, written as an addition
     * modulo 21 so that concurrent purchases of an item give the same stock in any order. Items are
     * updated in key order so that two purchases never deadlock.
     */
    static void buyConfirm(SqlSession db, BrowserState b) throws SQLException {
        LocalDateTime now = BrowserState.now();
        db.begin();
        List<Object[]> lines = ensureCart(db, b);
        if (lines.isEmpty()) {
            addItem(db, b, b.randomItem());
            lines = showCart(db, b);
        }
        List<Object[]> customer = db.query("SELECT c_discount, c_addr_id FROM customer WHERE c_id = " + b.customer());
        BigDecimal discount = decimal(customer.get(0)[0]);
        int billing = ((Number) customer.get(0)[1]).intValue();
        int shipping = billing;
        if (b.random.uniform() < 0.05) { // the specification ships 5% of orders to a new address
            shipping = b.ids.nextAddress();
            insertAddress(db, b, shipping);
        }
        BigDecimal subTotal = BigDecimal.ZERO;
        for (Object[] line : lines) {
            subTotal = subTotal.add(decimal(line[2]).multiply(BigDecimal.valueOf(((Number) line[5]).intValue())));
        }
        subTotal = subTotal.multiply(BigDecimal.ONE.subtract(discount)).setScale(2, RoundingMode.HALF_UP);
        BigDecimal tax = subTotal.multiply(new BigDecimal("0.0825")).setScale(2, RoundingMode.HALF_UP);
        BigDecimal total =
                subTotal.add(tax).add(BigDecimal.valueOf(3L + lines.size())).setScale(2, RoundingMode.HALF_UP);
        int order = b.ids.nextOrder();
        db.update("INSERT INTO orders (o_id, o_c_id, o_date, o_sub_total, o_tax, o_total, o_ship_type, o_ship_date,"
                + " o_bill_addr_id, o_ship_addr_id, o_status) VALUES (" + order + ", " + b.customer() + ", "
                + timestamp(now) + ", "
                + number(subTotal) + ", " + number(tax) + ", " + number(total) + ", "
                + text(b.random.pick(TpcwRandom.SHIP_TYPES))
                + ", " + timestamp(now.plusDays(b.random.between(1, 7))) + ", " + billing + ", " + shipping
                + ", 'PENDING')");
        int lineNumber = 0;
        for (Object[] line : lines) {
            db.update("INSERT INTO order_line (ol_id, ol_o_id, ol_i_id, ol_qty, ol_discount, ol_comments) VALUES ("
                    + ++lineNumber + ", " + order + ", " + line[0] + ", " + line[5] + ", " + number(discount) + ", "
                    + text(b.random.aString(20, 100)) + ")");
        }
        for (Object[] line : lines.stream()
                .sorted(Comparator.comparingInt(l -> ((Number) l[0]).intValue()))
                .toList()) {
            db.update("UPDATE item SET i_stock = 10 + mod(i_stock - " + line[5] + " + 11, 21) WHERE i_id = " + line[0]);
        }
        db.update(
                "INSERT INTO cc_xacts (cx_o_id, cx_type, cx_num, cx_name, cx_expire, cx_auth_id, cx_xact_amt, cx_xact_date,"
                        + " cx_co_id) VALUES (" + order + ", " + text(b.random.pick(TpcwRandom.CARD_TYPES)) + ", "
                        + text(b.random.nString(16, 16)) + ", " + text(b.random.aString(14, 30)) + ", "
                        + date(now.toLocalDate().plusDays(b.random.between(10, 730))) + ", "
                        + text(b.random.aString(15, 15)) + ", "
                        + number(total) + ", " + timestamp(now) + ", " + b.random.between(1, Scale.COUNTRIES) + ")");
        db.update("DELETE FROM shopping_cart_line WHERE scl_sc_id = " + b.cart);
        db.commit();
    }

    static void orderInquiry(SqlSession db, BrowserState b) throws SQLException {
        db.query("SELECT c_uname FROM customer WHERE c_id = " + b.customer());
    }

    /** The customer's last order with its addresses and lines. */
    static void orderDisplay(SqlSession db, BrowserState b) throws SQLException {
        String uname = TpcwRandom.digitSyllables(b.customer());
        db.query("SELECT c_passwd FROM customer WHERE c_uname = " + text(uname));
        List<Object[]> last = db.query("SELECT max(o_id) FROM orders WHERE o_c_id = " + b.customer());
        Object order = last.get(0)[0];
        if (order == null) {
            return;
        }
        db.query(
                "SELECT o_id, o_date, o_sub_total, o_tax, o_total, o_ship_type, o_ship_date, o_status, c_fname, c_lname,"
                        + " c_email, bill.addr_street1, bill.addr_city, bill_co.co_name, ship.addr_street1, ship.addr_city, ship_co.co_name,"
                        + " cx_type, cx_auth_id FROM orders, customer, address bill, address ship, country bill_co, country ship_co, cc_xacts"
                        + " WHERE o_id = " + order
                        + " AND cx_o_id = o_id AND o_c_id = c_id AND o_bill_addr_id = bill.addr_id"
                        + " AND bill.addr_co_id = bill_co.co_id AND o_ship_addr_id = ship.addr_id AND ship.addr_co_id = ship_co.co_id");
        db.query("SELECT ol_i_id, i_title, i_publisher, i_cost, ol_qty, ol_discount, ol_comments FROM order_line, item"
                + " WHERE ol_o_id = " + order + " AND ol_i_id = i_id");
    }

    static void adminRequest(SqlSession db, BrowserState b) throws SQLException {
        db.query("SELECT i_id, i_title, i_cost, i_image, i_thumbnail, a_fname, a_lname FROM item, author"
                + " WHERE i_a_id = a_id AND i_id = " + b.ownItem().orElse(b.randomItem()));
    }

    /** New price and pictures for one of this browser's items; its related items from recent buyers' orders. */
    static void adminConfirm(SqlSession db, BrowserState b) throws SQLException {
        int item = b.ownItem().orElse(b.randomItem());
        List<Object[]> related = db.query(
                "SELECT ol_i_id FROM orders, order_line WHERE o_id = ol_o_id AND ol_i_id <> " + item
                        + " AND o_c_id IN (SELECT o_c_id FROM orders, order_line WHERE o_id = ol_o_id AND ol_i_id = "
                        + item
                        + " AND o_id > (SELECT max(o_id) - 10000 FROM orders)) GROUP BY ol_i_id ORDER BY sum(ol_qty) DESC, ol_i_id LIMIT 5");
        if (b.ownItem().isEmpty()) {
            return; // another session owns every item: writing one would make replays order-dependent
        }
        StringBuilder relatedColumns = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            Object id = i < related.size() ? related.get(i)[0] : b.randomItem();
            relatedColumns.append(", i_related").append(i + 1).append(" = ").append(id);
        }
        db.update("UPDATE item SET i_cost = " + number(b.random.money(1, 9999)) + ", i_image = "
                + text("img" + item % 100 + "/image_" + item + "_" + b.random.nString(4, 4) + ".gif")
                + ", i_thumbnail = "
                + text("img" + item % 100 + "/thumb_" + item + "_" + b.random.nString(4, 4) + ".gif")
                + ", i_pub_date = "
                + date(BrowserState.now().toLocalDate()) + relatedColumns + " WHERE i_id = " + item);
    }

    /** Creates the browser's cart on first use; returns its lines. */
    private static List<Object[]> ensureCart(SqlSession db, BrowserState b) throws SQLException {
        if (b.cart == null) {
            int cart = b.ids.nextCart();
            db.update("INSERT INTO shopping_cart (sc_id, sc_time) VALUES (" + cart + ", "
                    + timestamp(BrowserState.now()) + ")");
            b.cart = cart;
        }
        return showCart(db, b);
    }

    /** Lines as (item, title, cost, srp, backing, quantity), by item. */
    private static List<Object[]> showCart(SqlSession db, BrowserState b) throws SQLException {
        return db.query("SELECT scl_i_id, i_title, i_cost, i_srp, i_backing, scl_qty FROM shopping_cart_line, item"
                + " WHERE scl_i_id = i_id AND scl_sc_id = " + b.cart + " ORDER BY scl_i_id");
    }

    /** Drivers differ in the Java type of a NUMERIC column; its text is the same. */
    private static BigDecimal decimal(Object value) {
        return new BigDecimal(value.toString());
    }

    private static void addItem(SqlSession db, BrowserState b, int item) throws SQLException {
        List<Object[]> existing = db.query(
                "SELECT scl_qty FROM shopping_cart_line WHERE scl_sc_id = " + b.cart + " AND scl_i_id = " + item);
        if (existing.isEmpty()) {
            db.update("INSERT INTO shopping_cart_line (scl_sc_id, scl_qty, scl_i_id) VALUES (" + b.cart + ", 1, " + item
                    + ")");
        } else {
            int quantity = Math.min(MAX_QUANTITY, ((Number) existing.get(0)[0]).intValue() + 1);
            db.update("UPDATE shopping_cart_line SET scl_qty = " + quantity + " WHERE scl_sc_id = " + b.cart
                    + " AND scl_i_id = " + item);
        }
    }

    private static void insertAddress(SqlSession db, BrowserState b, int address) throws SQLException {
        String country = "Country" + b.random.between(1, Scale.COUNTRIES);
        List<Object[]> found = db.query("SELECT co_id FROM country WHERE co_name = " + text(country));
        int co = found.isEmpty() ? 1 : ((Number) found.get(0)[0]).intValue();
        db.update(
                "INSERT INTO address (addr_id, addr_street1, addr_street2, addr_city, addr_state, addr_zip, addr_co_id)"
                        + " VALUES (" + address + ", " + text(b.random.aString(15, 40)) + ", "
                        + text(b.random.aString(15, 40)) + ", "
                        + text(b.random.aString(4, 30)) + ", " + text(b.random.aString(2, 20)) + ", "
                        + text(b.random.aString(5, 10))
                        + ", " + co + ")");
    }
}
