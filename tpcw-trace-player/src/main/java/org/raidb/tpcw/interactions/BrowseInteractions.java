package org.raidb.tpcw.interactions;

import static org.raidb.tpcw.interactions.SqlLiteral.text;

import java.sql.SQLException;
import org.raidb.tpcw.populate.TpcwRandom;

/** The six read-only interactions and the SQL each issues. */
final class BrowseInteractions {

    /** Best Sellers looks at the order lines of the most recent orders, as the specification says. */
    static final int RECENT_ORDERS = 3333;

    private BrowseInteractions() {}

    static void home(SqlSession db, BrowserState b) throws SQLException {
        db.query("SELECT c_fname, c_lname FROM customer WHERE c_id = " + b.customer());
        promotionalItems(db, b);
    }

    static void newProducts(SqlSession db, BrowserState b) throws SQLException {
        db.query("SELECT i_id, i_title, a_fname, a_lname FROM item, author WHERE i_a_id = a_id AND i_subject = "
                + text(b.random.pick(TpcwRandom.SUBJECTS)) + " ORDER BY i_pub_date DESC, i_title LIMIT 50");
    }

    static void bestSellers(SqlSession db, BrowserState b) throws SQLException {
        String subject = text(b.random.pick(TpcwRandom.SUBJECTS));
        String select = "SELECT i_id, i_title, a_fname, a_lname, sum(ol_qty) AS sold FROM item, author, order_line";
        String grouping = " AND i_a_id = a_id AND ol_i_id = i_id AND i_subject = " + subject
                + " GROUP BY i_id, i_title, a_fname, a_lname ORDER BY sold DESC, i_id LIMIT 50";
        if (b.bestSellers == BestSellersVariant.SUBQUERY) {
            db.query(select + " WHERE ol_o_id > (SELECT max(o_id) - " + RECENT_ORDERS + " FROM orders)" + grouping);
            return;
        }
        // One name per session: through a controller, sessions may share pooled backend connections.
        String temp = "best_sellers_" + (b.session + 1);
        db.begin();
        db.update("CREATE TEMPORARY TABLE " + temp + " AS SELECT o_id FROM orders ORDER BY o_id DESC LIMIT "
                + RECENT_ORDERS);
        db.query(select + ", " + temp + " WHERE ol_o_id = " + temp + ".o_id" + grouping);
        db.update("DROP TABLE " + temp);
        db.commit();
    }

    static void productDetail(SqlSession db, BrowserState b) throws SQLException {
        db.query(
                "SELECT i_id, i_title, a_fname, a_lname, i_pub_date, i_publisher, i_subject, i_desc, i_thumbnail, i_image,"
                        + " i_srp, i_cost, i_avail, i_isbn, i_page, i_backing, i_dimensions FROM item, author"
                        + " WHERE i_id = " + b.randomItem() + " AND i_a_id = a_id");
    }

    static void searchRequest(SqlSession db, BrowserState b) throws SQLException {
        promotionalItems(db, b);
    }

    /** By author, title or subject, a third of the time each. */
    static void searchResults(SqlSession db, BrowserState b) throws SQLException {
        String select = "SELECT i_id, i_title, a_fname, a_lname FROM item, author WHERE i_a_id = a_id AND ";
        String where = switch (b.random.between(1, 3)) {
            case 1 -> "a_lname LIKE " + text(b.random.aString(1, 2) + "%");
            case 2 -> "i_title LIKE " + text("%" + b.random.aString(2, 3) + "%");
            default -> "i_subject = " + text(b.random.pick(TpcwRandom.SUBJECTS));
        };
        db.query(select + where + " ORDER BY i_title LIMIT 50");
    }

    /** The five items related to a random one, shown as promotions on several pages. */
    static void promotionalItems(SqlSession db, BrowserState b) throws SQLException {
        db.query("SELECT j.i_id, j.i_thumbnail FROM item i, item j WHERE i.i_id = " + b.randomItem()
                + " AND j.i_id IN (i.i_related1, i.i_related2, i.i_related3, i.i_related4, i.i_related5)");
    }
}
