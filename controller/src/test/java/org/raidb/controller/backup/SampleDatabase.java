package org.raidb.controller.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.raidb.controller.verification.TableChecksum;

/**
 * The source schema of the backup tests, on PostgreSQL or MariaDB: a serial key with a gap after
 * it (the last row deleted), numeric, text, bytea, timestamps, bool, uuid, NULLs, indexes, a
 * foreign key, an empty table, a table of the controller's own (not to be copied), and a sequence
 * advanced to 42.
 */
public final class SampleDatabase {

    /** Tables a copy must hold, keyed as {@link TableChecksum} keys them. */
    public static final List<String> TABLES = List.of("customers", "empty_table", "orders");
    /** customers' rows get keys 1..5; 5 is deleted, so the next key is 6 although the largest is 4. */
    public static final long NEXT_CUSTOMER_ID = 6;

    public static final long NEXT_INVOICE_NUMBER = 43;

    private static final String[] POSTGRES = {
        "CREATE TABLE customers (id serial PRIMARY KEY, name varchar(40) NOT NULL, email text, balance numeric(12,2) DEFAULT 0,"
                + " active boolean NOT NULL DEFAULT true, joined date, created timestamp, seen_at timestamptz, wake time, token uuid,"
                + " rating real, score double precision, photo bytea, age smallint, visits bigint, country varchar(2) DEFAULT 'FR')",
        "CREATE UNIQUE INDEX customers_email ON customers (email)",
        "CREATE INDEX customers_name ON customers (name, joined DESC)",
        "CREATE TABLE orders (id bigserial PRIMARY KEY, customer_id int NOT NULL REFERENCES customers (id) ON DELETE CASCADE,"
                + " total numeric(12,2), note text, placed_at timestamp DEFAULT now())",
        "CREATE INDEX orders_customer ON orders (customer_id)",
        "CREATE TABLE empty_table (code varchar(10) PRIMARY KEY, label text)",
        "CREATE TABLE raidb_internal (x int)",
        "INSERT INTO raidb_internal VALUES (1)",
        "CREATE SEQUENCE invoice_numbers",
        "SELECT setval('invoice_numbers', 42)",
    };

    private static final String[] MARIADB = {
        "CREATE TABLE customers (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(40) NOT NULL, email VARCHAR(100),"
                + " balance DECIMAL(12,2) DEFAULT 0, active BOOLEAN NOT NULL DEFAULT TRUE, joined DATE, created DATETIME(6),"
                + " seen_at DATETIME(6), wake TIME(6), token UUID, rating FLOAT, score DOUBLE, photo LONGBLOB, age SMALLINT,"
                + " visits BIGINT, country VARCHAR(2) DEFAULT 'FR', UNIQUE INDEX customers_email (email), INDEX customers_name (name, joined DESC))"
                + " COLLATE utf8mb4_bin",
        "CREATE TABLE orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, customer_id INT NOT NULL, total DECIMAL(12,2), note TEXT,"
                + " placed_at DATETIME(6) DEFAULT CURRENT_TIMESTAMP(6), INDEX orders_customer (customer_id),"
                + " CONSTRAINT orders_customer_fkey FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE)",
        "CREATE TABLE empty_table (code VARCHAR(10) PRIMARY KEY, label TEXT)",
        "CREATE TABLE raidb_internal (x INT)",
        "INSERT INTO raidb_internal VALUES (1)",
        "CREATE SEQUENCE invoice_numbers",
        "SELECT SETVAL(invoice_numbers, 42)",
    };

    // One row per line, with NULLs, quotes, unicode, zero bytes, negative and fractional values.
    private static final String CUSTOMER_COLUMNS =
            "(name, email, balance, active, joined, created, seen_at, wake, token, rating, score, photo, age, visits)";
    private static final Object[][] CUSTOMERS = {
        {
            "Ada",
            "ada@example.com",
            "10.50",
            true,
            "2024-01-02",
            "2024-01-02 10:11:12.123456",
            "2024-01-02 09:11:12.5+00",
            "08:30:00",
            "6f1c9a56-4c3e-4e0b-9d57-1c3f0a9b2e11",
            1.5f,
            2.25,
            new byte[] {0, 1, 2, (byte) 255},
            36,
            12345678901L
        },
        {
            "Bob O'Brien",
            "bob@example.com",
            "-0.01",
            false,
            "1999-12-31",
            "1999-12-31 23:59:59",
            "1999-12-31 23:59:59-05",
            "23:59:59.999999",
            "00000000-0000-0000-0000-000000000000",
            0.1f,
            -1e-10,
            new byte[0],
            -3,
            -1L
        },
        {"Zoë ünïcode 漢字", null, null, true, null, null, null, null, null, null, null, null, null, null},
        {
            "Eve",
            "EVE@example.com",
            "12345678.99",
            true,
            "2024-02-29",
            "2024-02-29 00:00:00",
            "2024-02-29 12:00:00+02",
            "00:00:00",
            "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
            -2.5f,
            3.141592653589793,
            "photo".getBytes(),
            0,
            0L
        },
        {
            "Mallory",
            "mallory@example.com",
            "1.00",
            true,
            "2024-03-01",
            "2024-03-01 00:00:00",
            "2024-03-01 00:00:00+00",
            "12:00:00",
            null,
            0f,
            0.0,
            null,
            1,
            1L
        },
    };

    private SampleDatabase() {}

    public static void createOnPostgres(Connection c) throws SQLException {
        execute(c, POSTGRES);
        fill(c, "?::date", "?::timestamp", "?::timestamptz", "?::time", "?::uuid", "?::numeric");
    }

    /** MariaDB stores seen_at as UTC date-time, as jdbcCopy writes a timestamptz there. */
    public static void createOnMariaDb(Connection c) throws SQLException {
        execute(c, MARIADB);
        fill(c, "?", "?", "CONVERT_TZ(?, '+00:00', '+00:00')", "?", "?", "?");
    }

    /**
     * Rows through placeholders that each product casts its own way; seen_at values are written with
     * their offset on PostgreSQL and as the same instant in UTC on MariaDB.
     */
    private static void fill(
            Connection c, String date, String timestamp, String instant, String time, String uuid, String decimal)
            throws SQLException {
        String sql = "INSERT INTO customers " + CUSTOMER_COLUMNS + " VALUES (?, ?, " + decimal + ", ?, " + date + ", "
                + timestamp + ", " + instant + ", " + time + ", " + uuid + ", ?, ?, ?, ?, ?)";
        boolean postgres = TableChecksum.isPostgreSql(c);
        try (PreparedStatement p = c.prepareStatement(sql)) {
            for (Object[] row : CUSTOMERS) {
                for (int i = 0; i < row.length; i++) {
                    Object value = i == 6 && row[i] != null && !postgres ? utc((String) row[i]) : row[i];
                    p.setObject(i + 1, value);
                }
                p.executeUpdate();
            }
        }
        execute(
                c,
                "DELETE FROM customers WHERE id = 5",
                "INSERT INTO orders (customer_id, total, note, placed_at) VALUES (1, 20.00, 'first', '2024-01-03 10:00:00'),"
                        + " (1, 5.5, NULL, '2024-01-04 11:00:00'), (2, 0, 'it''s \\\\ a note', '2024-01-05 12:00:00')");
    }

    /** "1999-12-31 23:59:59-05" as MariaDB's UTC date-time "2000-01-01 04:59:59". */
    private static String utc(String withOffset) {
        String iso = withOffset.replace(' ', 'T');
        String offset = iso.substring(iso.lastIndexOf(iso.contains("+") ? '+' : '-'));
        String normalized =
                iso.substring(0, iso.length() - offset.length()) + offset + (offset.length() == 3 ? ":00" : "");
        return java.time.OffsetDateTime.parse(normalized)
                .withOffsetSameInstant(java.time.ZoneOffset.UTC)
                .toLocalDateTime()
                .toString()
                .replace('T', ' ');
    }

    /**
     * Checksums of the tables a copy holds, without the controller's own: the generic path, which
     * agrees across products.
     */
    public static Map<String, String> checksums(Connection c) throws SQLException {
        Map<String, String> all = new TreeMap<>(TableChecksum.portableChecksums(c));
        all.keySet().removeIf(table -> table.startsWith("raidb_"));
        return all;
    }

    /** Asserts that serial keys and the sequence go on after the copied values, in PostgreSQL or MariaDB. */
    public static void assertKeysContinue(Connection c) throws SQLException {
        boolean postgres = TableChecksum.isPostgreSql(c);
        try (Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO customers (name) VALUES ('new')");
            try (ResultSet rs = s.executeQuery("SELECT max(id) FROM customers")) {
                rs.next();
                assertThat(rs.getLong(1)).as("key of a new customer").isEqualTo(NEXT_CUSTOMER_ID);
            }
            try (ResultSet rs = s.executeQuery("SELECT country, active, balance FROM customers WHERE name = 'new'")) {
                rs.next();
                assertThat(rs.getString(1)).as("literal defaults came along").isEqualTo("FR");
                assertThat(rs.getBoolean(2)).isTrue();
                assertThat(rs.getBigDecimal(3)).isEqualByComparingTo("0");
            }
            try (ResultSet rs = s.executeQuery(
                    postgres ? "SELECT nextval('invoice_numbers')" : "SELECT NEXTVAL(invoice_numbers)")) {
                rs.next();
                assertThat(rs.getLong(1)).as("next invoice number").isEqualTo(NEXT_INVOICE_NUMBER);
            }
            s.executeUpdate("INSERT INTO orders (customer_id, total) VALUES (2, 1)");
            try (ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT id), max(id) FROM orders")) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(4);
                assertThat(rs.getLong(2)).isEqualTo(4);
                assertThat(rs.getLong(3)).isEqualTo(4);
            }
        }
    }

    /** Tables of the connection's schema, lower-cased. */
    public static List<String> tableNames(Connection c) throws SQLException {
        return TableChecksum.checksums(c).keySet().stream()
                .map(n -> n.toLowerCase(Locale.ROOT))
                .toList();
    }

    /** Where a test's write after a dump's snapshot gets its connection. */
    @FunctionalInterface
    public interface ConnectionSource {
        Connection connect() throws SQLException;
    }

    /**
     * What a test's {@code snapshotTaken} callback writes to the sample source: a customer and an order (keys
     * drawn from their sequences) and an invoice number. A dump must show none of it, nor the sequence values
     * drawn: {@link #assertKeysContinue} on a restored copy checks the keys. Written by the callback itself, on
     * the dumping thread, so that it is committed before the dump reads anything after the callback: a backuper
     * that ran the callback before its snapshot was fixed would carry it.
     */
    public static void writeAfterSnapshot(ConnectionSource source) {
        boolean postgres;
        try (Connection c = source.connect()) {
            postgres = TableChecksum.isPostgreSql(c);
            execute(
                    c,
                    "INSERT INTO customers (name, email) VALUES ('after the snapshot', 'after@example.com')",
                    "INSERT INTO orders (customer_id, total) VALUES (1, 99)",
                    postgres ? "SELECT nextval('invoice_numbers')" : "SELECT NEXTVAL(invoice_numbers)");
        } catch (SQLException e) {
            throw new IllegalStateException("the write after the snapshot failed", e);
        }
    }

    public static void execute(Connection c, String... statements) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }
}
