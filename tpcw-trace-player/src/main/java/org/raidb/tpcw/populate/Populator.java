package org.raidb.tpcw.populate;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.concurrent.atomic.AtomicLong;
import org.raidb.tpcw.schema.Scale;
import org.raidb.tpcw.schema.TpcwSchema;

/**
 * Creates the TPC-W tables and fills them at a {@link Scale}. Every table draws from its own
 * generator seeded from the one seed, so two populates with the same seed and scale hold exactly
 * the same rows whatever database (or RAIDb virtual database) receives them.
 */
public final class Populator {

    private static final int ORDERS_PER_BATCH = 300;

    private final Scale scale;
    private final long seed;
    private final AtomicLong rowsDone = new AtomicLong();

    public Populator(Scale scale, long seed) {
        this.scale = scale;
        this.seed = seed;
    }

    /** Rows inserted so far, for a progress bar. */
    public AtomicLong rowsDone() {
        return rowsDone;
    }

    /** Drops and recreates the tables, fills them, indexes and analyzes them. Leaves auto-commit on. */
    public void populate(Connection c) throws SQLException {
        c.setAutoCommit(true);
        TpcwSchema.create(c);
        c.setAutoCommit(false);
        try {
            countries(c);
            authors(c);
            items(c);
            addresses(c);
            customers(c);
            orders(c);
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
        TpcwSchema.createIndexesAndAnalyze(c);
    }

    private TpcwRandom random(int table) {
        return new TpcwRandom(seed * 31 + table);
    }

    private void countries(Connection c) throws SQLException {
        TpcwRandom r = random(1);
        try (BatchInserter in = new BatchInserter(c, "country", 4, rowsDone)) {
            for (int id = 1; id <= Scale.COUNTRIES; id++) {
                in.row(id, "Country" + id, r.money(0.01, 10).setScale(6), "Currency" + id);
            }
        }
    }

    private void authors(Connection c) throws SQLException {
        TpcwRandom r = random(2);
        try (BatchInserter in = new BatchInserter(c, "author", 6, rowsDone)) {
            for (int id = 1; id <= scale.authors(); id++) {
                in.row(
                        id,
                        r.aString(3, 20),
                        r.aString(1, 20),
                        r.aString(1, 20),
                        Date.valueOf(r.dayBefore(36_500)),
                        r.aString(125, 500));
            }
        }
    }

    private void items(Connection c) throws SQLException {
        TpcwRandom r = random(3);
        int items = scale.items();
        try (BatchInserter in = new BatchInserter(c, "item", 22, rowsDone)) {
            for (int id = 1; id <= items; id++) {
                BigDecimal srp = r.money(1, 9999);
                BigDecimal cost = srp.multiply(BigDecimal.valueOf(r.between(50, 100), 2))
                        .setScale(2, java.math.RoundingMode.HALF_UP);
                in.row(
                        id,
                        r.aString(14, 60),
                        id <= scale.authors() ? id : r.between(1, scale.authors()),
                        Date.valueOf(r.dayBefore(365 * 30)),
                        r.aString(14, 60),
                        r.pick(TpcwRandom.SUBJECTS),
                        r.aString(100, 500),
                        r.between(1, items),
                        r.between(1, items),
                        r.between(1, items),
                        r.between(1, items),
                        r.between(1, items),
                        "img" + id % 100 + "/thumb_" + id + ".gif",
                        "img" + id % 100 + "/image_" + id + ".gif",
                        srp,
                        cost,
                        Date.valueOf(r.dayBefore(30)),
                        r.between(10, 30),
                        r.nString(13, 13),
                        r.between(20, 9999),
                        r.pick(TpcwRandom.BACKINGS),
                        r.between(1, 99) + "x" + r.between(1, 99) + "x" + r.between(1, 99));
            }
        }
    }

    private void addresses(Connection c) throws SQLException {
        TpcwRandom r = random(4);
        try (BatchInserter in = new BatchInserter(c, "address", 7, rowsDone)) {
            for (int id = 1; id <= scale.addresses(); id++) {
                in.row(
                        id,
                        r.aString(15, 40),
                        r.aString(15, 40),
                        r.aString(4, 30),
                        r.aString(2, 20),
                        r.aString(5, 10),
                        r.between(1, Scale.COUNTRIES));
            }
        }
    }

    private void customers(Connection c) throws SQLException {
        TpcwRandom r = random(5);
        try (BatchInserter in = new BatchInserter(c, "customer", 17, rowsDone)) {
            for (int id = 1; id <= scale.customers(); id++) {
                String uname = TpcwRandom.digitSyllables(id);
                var since = r.dayBefore(730);
                var lastLogin = since.plusDays(r.between(0, 60));
                in.row(
                        id,
                        uname,
                        uname.toLowerCase(java.util.Locale.ROOT),
                        r.aString(8, 15),
                        r.aString(8, 15),
                        r.between(1, scale.addresses()),
                        r.nString(9, 16),
                        uname + "@" + r.aString(2, 9) + ".com",
                        Date.valueOf(since),
                        Date.valueOf(lastLogin),
                        Timestamp.valueOf(lastLogin.atStartOfDay()),
                        Timestamp.valueOf(lastLogin.atStartOfDay().plusHours(2)),
                        BigDecimal.valueOf(r.between(0, 50), 2),
                        BigDecimal.ZERO.setScale(2),
                        r.money(0, 999.99),
                        Date.valueOf(r.dayBefore(365 * 80)),
                        r.aString(100, 500));
            }
        }
    }

    /** Orders with their lines and credit card transactions, from one generator so each order's parts agree. */
    private void orders(Connection c) throws SQLException {
        TpcwRandom r = random(6);
        int manual = Integer.MAX_VALUE;
        try (BatchInserter orders = new BatchInserter(c, "orders", 11, rowsDone, manual);
                BatchInserter lines = new BatchInserter(c, "order_line", 6, rowsDone, manual);
                BatchInserter xacts = new BatchInserter(c, "cc_xacts", 9, rowsDone, manual)) {
            for (int id = 1; id <= scale.orders(); id++) {
                int customer = r.between(1, scale.customers());
                var date = r.timeBefore(60);
                BigDecimal subTotal = r.money(10, 9999.99);
                BigDecimal tax =
                        subTotal.multiply(new BigDecimal("0.0825")).setScale(2, java.math.RoundingMode.HALF_UP);
                BigDecimal total = subTotal.add(tax).add(BigDecimal.valueOf(3)).setScale(2);
                orders.row(
                        id,
                        customer,
                        Timestamp.valueOf(date),
                        subTotal,
                        tax,
                        total,
                        r.pick(TpcwRandom.SHIP_TYPES),
                        Timestamp.valueOf(date.plusDays(r.between(0, 7))),
                        r.between(1, scale.addresses()),
                        r.between(1, scale.addresses()),
                        r.pick(TpcwRandom.ORDER_STATUSES));
                int lineCount = r.between(1, 5);
                for (int line = 1; line <= lineCount; line++) {
                    lines.row(
                            line,
                            id,
                            r.between(1, scale.items()),
                            r.between(1, 300),
                            BigDecimal.valueOf(r.between(0, 30), 2),
                            r.aString(20, 100));
                }
                xacts.row(
                        id,
                        r.pick(TpcwRandom.CARD_TYPES),
                        r.nString(16, 16),
                        r.aString(14, 30),
                        Date.valueOf(date.toLocalDate().plusDays(r.between(10, 730))),
                        r.aString(15, 15),
                        total,
                        Timestamp.valueOf(date),
                        r.between(1, Scale.COUNTRIES));
                if (id % ORDERS_PER_BATCH == 0) {
                    // Parents first: a line or transaction must never reach the database before its order.
                    orders.flush();
                    lines.flush();
                    xacts.flush();
                }
            }
            orders.flush(); // close() would flush lines before orders
        }
    }
}
