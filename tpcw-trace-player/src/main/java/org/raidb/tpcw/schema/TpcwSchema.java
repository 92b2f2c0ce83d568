package org.raidb.tpcw.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;

/**
 * The ten TPC-W tables in PostgreSQL syntax. Primary keys are created with the tables; the
 * secondary indexes after populate, because loading without them is several times faster.
 */
public final class TpcwSchema {

    /**
     * Version of the tables and of the SQL the interactions issue. A trace records it, and the player
     * refuses a trace recorded against another version: its literal SQL would not fit.
     */
    public static final int VERSION = 1;

    /** Child tables first, so that dropping in this order never violates a foreign key. */
    public static final List<String> TABLES = List.of(
            "shopping_cart_line",
            "shopping_cart",
            "cc_xacts",
            "order_line",
            "orders",
            "item",
            "author",
            "customer",
            "address",
            "country");

    private static final List<String> CREATE_TABLES = List.of(
            "CREATE TABLE country (co_id integer PRIMARY KEY, co_name varchar(50) NOT NULL, co_exchange numeric(12,6) NOT NULL,"
                    + " co_currency varchar(18) NOT NULL)",
            "CREATE TABLE address (addr_id integer PRIMARY KEY, addr_street1 varchar(40), addr_street2 varchar(40),"
                    + " addr_city varchar(30), addr_state varchar(20), addr_zip varchar(10), addr_co_id integer NOT NULL REFERENCES country)",
            "CREATE TABLE customer (c_id integer PRIMARY KEY, c_uname varchar(20) NOT NULL, c_passwd varchar(20) NOT NULL,"
                    + " c_fname varchar(15), c_lname varchar(15), c_addr_id integer NOT NULL REFERENCES address, c_phone varchar(16),"
                    + " c_email varchar(50), c_since date, c_last_login date, c_login timestamp, c_expiration timestamp,"
                    + " c_discount numeric(5,2), c_balance numeric(15,2), c_ytd_pmt numeric(15,2), c_birthdate date, c_data varchar(500))",
            "CREATE TABLE author (a_id integer PRIMARY KEY, a_fname varchar(20), a_lname varchar(20), a_mname varchar(20),"
                    + " a_dob date, a_bio varchar(500))",
            "CREATE TABLE item (i_id integer PRIMARY KEY, i_title varchar(60), i_a_id integer NOT NULL REFERENCES author,"
                    + " i_pub_date date, i_publisher varchar(60), i_subject varchar(60), i_desc varchar(500), i_related1 integer,"
                    + " i_related2 integer, i_related3 integer, i_related4 integer, i_related5 integer, i_thumbnail varchar(40),"
                    + " i_image varchar(40), i_srp numeric(15,2), i_cost numeric(15,2), i_avail date, i_stock integer,"
                    + " i_isbn char(13), i_page integer, i_backing varchar(15), i_dimensions varchar(25))",
            "CREATE TABLE orders (o_id integer PRIMARY KEY, o_c_id integer NOT NULL REFERENCES customer, o_date timestamp,"
                    + " o_sub_total numeric(15,2), o_tax numeric(15,2), o_total numeric(15,2), o_ship_type varchar(10),"
                    + " o_ship_date timestamp, o_bill_addr_id integer REFERENCES address, o_ship_addr_id integer REFERENCES address,"
                    + " o_status varchar(15))",
            "CREATE TABLE order_line (ol_id integer NOT NULL, ol_o_id integer NOT NULL REFERENCES orders,"
                    + " ol_i_id integer NOT NULL REFERENCES item, ol_qty integer, ol_discount numeric(5,2), ol_comments varchar(110),"
                    + " PRIMARY KEY (ol_o_id, ol_id))",
            "CREATE TABLE cc_xacts (cx_o_id integer PRIMARY KEY REFERENCES orders, cx_type varchar(10), cx_num varchar(20),"
                    + " cx_name varchar(30), cx_expire date, cx_auth_id char(15), cx_xact_amt numeric(15,2), cx_xact_date timestamp,"
                    + " cx_co_id integer REFERENCES country)",
            "CREATE TABLE shopping_cart (sc_id integer PRIMARY KEY, sc_time timestamp)",
            "CREATE TABLE shopping_cart_line (scl_sc_id integer NOT NULL REFERENCES shopping_cart, scl_qty integer,"
                    + " scl_i_id integer NOT NULL REFERENCES item, PRIMARY KEY (scl_sc_id, scl_i_id))");

    /** The indexes the interactions' WHERE clauses need (by user name, subject, title, author, customer's orders). */
    private static final List<String> CREATE_INDEXES = List.of(
            "CREATE UNIQUE INDEX customer_uname ON customer (c_uname)",
            "CREATE INDEX item_subject ON item (i_subject)",
            "CREATE INDEX item_title ON item (i_title)",
            "CREATE INDEX item_author ON item (i_a_id)",
            "CREATE INDEX author_lname ON author (a_lname)",
            "CREATE INDEX orders_customer ON orders (o_c_id)",
            "CREATE INDEX order_line_item ON order_line (ol_i_id)");

    private TpcwSchema() {}

    /** Drops the TPC-W tables that exist, then creates all ten, empty and without secondary indexes. */
    public static void create(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String table : TABLES) {
                s.execute("DROP TABLE IF EXISTS " + table + " CASCADE");
            }
            for (String ddl : CREATE_TABLES) {
                s.execute(ddl);
            }
        }
    }

    /**
     * Partial replication (RAIDb-0/2): drops every TPC-W table but {@code held}, children first. CASCADE
     * drops with a table the foreign keys of the kept tables that reference it: a foreign key between
     * tables on different backends cannot exist (docs/tpcw.md, "bench").
     */
    public static void keepOnly(Connection c, Set<String> held) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String table : TABLES) {
                if (!held.contains(table)) {
                    s.execute("DROP TABLE " + table + " CASCADE");
                }
            }
        }
    }

    /** Secondary indexes, then statistics, once the tables are filled. */
    public static void createIndexesAndAnalyze(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String ddl : CREATE_INDEXES) {
                s.execute(ddl);
            }
            for (String table : TABLES) {
                s.execute("ANALYZE " + table);
            }
        }
    }
}
