package org.raidb.controller.verification;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.test.MariaDbServer;
import org.raidb.test.PostgresClusterExtension;

class TableChecksumIT {

    @RegisterExtension
    static PostgresClusterExtension pg = PostgresClusterExtension.servers(2).database("checks");

    private static final String CREATE_ITEMS =
            "CREATE TABLE items (id int PRIMARY KEY, name text, price numeric(12,2), added date, flag boolean)";
    private static final List<String> ROWS = List.of(
            "(1, 'apple', 10.50, DATE '2024-01-02', true)",
            "(2, 'pear', 0.00, DATE '2024-02-29', false)",
            "(3, NULL, NULL, NULL, NULL)",
            "(4, 'it''s | 3:x', 12345678.99, DATE '1999-12-31', true)",
            "(5, '', -1.25, DATE '2024-01-02', false)");

    @AfterEach
    void emptyDatabases() {
        pg.cluster().recreateDatabases();
    }

    @Test
    void identicalContentsGiveEqualChecksumsWhateverTheInsertionOrder() throws SQLException {
        load(pg.server(0), ROWS);
        load(pg.server(1), reversed(ROWS));
        try (Connection a = pg.server(0).connect();
                Connection b = pg.server(1).connect()) {
            // Physical order differs further on b: an update moves the row to the end of the heap.
            execute(b, "UPDATE items SET name = name WHERE id = 1");
            Map<String, String> onA = TableChecksum.checksums(a);
            assertThat(onA).containsOnlyKeys("items", "empty");
            assertThat(onA.get("items")).startsWith("5:").hasSize(2 + 32);
            assertThat(onA.get("empty")).startsWith("0:");
            assertThat(TableChecksum.checksums(b)).isEqualTo(onA);
            assertThat(TableChecksum.genericChecksums(b)).isEqualTo(TableChecksum.genericChecksums(a));
            assertThat(TableChecksum.rowCount(a, "items")).isEqualTo(5);
            assertThat(TableChecksum.rowCount(b, "empty")).isZero();
        }
    }

    @Test
    void oneDifferentValueChangesTheChecksumOfItsTableOnly() throws SQLException {
        load(pg.server(0), ROWS);
        load(pg.server(1), ROWS);
        try (Connection a = pg.server(0).connect();
                Connection b = pg.server(1).connect()) {
            execute(b, "UPDATE items SET price = 10.51 WHERE id = 1");
            assertDifferOnlyInItems(TableChecksum.checksums(a), TableChecksum.checksums(b));
            assertDifferOnlyInItems(TableChecksum.genericChecksums(a), TableChecksum.genericChecksums(b));

            execute(b, "UPDATE items SET price = 10.50 WHERE id = 1");
            assertThat(TableChecksum.checksums(b)).isEqualTo(TableChecksum.checksums(a));
            execute(b, "UPDATE items SET name = NULL WHERE id = 5"); // '' and NULL must differ
            assertDifferOnlyInItems(TableChecksum.checksums(a), TableChecksum.checksums(b));
            assertDifferOnlyInItems(TableChecksum.genericChecksums(a), TableChecksum.genericChecksums(b));
        }
    }

    @Test
    void duplicateRowsCountInTheGenericPath() throws SQLException {
        try (Connection a = pg.server(0).connect();
                Connection b = pg.server(1).connect()) {
            for (Connection c : List.of(a, b)) {
                execute(c, "CREATE TABLE log (line text)");
            }
            execute(a, "INSERT INTO log VALUES ('x'), ('x'), ('y')");
            execute(b, "INSERT INTO log VALUES ('x'), ('y'), ('y')");
            assertThat(TableChecksum.genericChecksums(a)).isNotEqualTo(TableChecksum.genericChecksums(b));
            assertThat(TableChecksum.checksums(a)).isNotEqualTo(TableChecksum.checksums(b));
        }
    }

    @Test
    void tableNamesAreLowerCasedAndOtherSchemasIgnored() throws SQLException {
        try (Connection a = pg.server(0).connect()) {
            execute(a, "CREATE TABLE \"MixedCase\" (id int)");
            execute(a, "CREATE SCHEMA elsewhere");
            execute(a, "CREATE TABLE elsewhere.hidden (id int)");
            execute(a, "CREATE VIEW not_a_table AS SELECT 1 AS one");
            assertThat(TableChecksum.checksums(a)).containsOnlyKeys("mixedcase");
            assertThat(TableChecksum.genericChecksums(a)).containsOnlyKeys("mixedcase");
        }
    }

    @Test
    void genericPathAgreesBetweenPostgresqlAndMariaDb() throws SQLException {
        Assumptions.assumeTrue(MariaDbServer.mariaDbAvailable(), "no MariaDB on 127.0.0.1:3306 (root, empty password)");
        String database = "raidb_checksum_it";
        MariaDbServer.recreateDatabase(database);
        try (Connection postgres = pg.server(0).connect();
                Connection maria = MariaDbServer.connect(database)) {
            execute(
                    postgres,
                    "CREATE TABLE items (id int PRIMARY KEY, name text, price numeric(12,2), added date, flag boolean)");
            execute(
                    maria,
                    "CREATE TABLE items (id int PRIMARY KEY, name text, price decimal(12,2), added date, flag boolean)");
            for (String row : ROWS) {
                execute(postgres, "INSERT INTO items VALUES " + row);
            }
            for (String row : reversed(ROWS)) {
                execute(maria, "INSERT INTO items VALUES " + row);
            }
            assertThat(TableChecksum.checksums(maria)).isEqualTo(TableChecksum.genericChecksums(maria));
            assertThat(TableChecksum.genericChecksums(maria)).isEqualTo(TableChecksum.genericChecksums(postgres));
            execute(maria, "UPDATE items SET added = DATE '2024-01-03' WHERE id = 5");
            assertThat(TableChecksum.genericChecksums(maria)).isNotEqualTo(TableChecksum.genericChecksums(postgres));
        } finally {
            MariaDbServer.dropDatabase(database);
        }
    }

    @Test
    void timestamptzIsComparedAsAnInstantAndAsUtcDateTimeAcrossProducts() throws SQLException {
        try (Connection a = pg.server(0).connect();
                Connection b = pg.server(1).connect()) {
            execute(a, "CREATE TABLE events (id int PRIMARY KEY, at timestamptz)");
            execute(b, "CREATE TABLE events (id int PRIMARY KEY, at timestamptz)");
            execute(a, "INSERT INTO events VALUES (1, '2024-01-02 10:00:00+02'), (2, NULL)");
            execute(b, "INSERT INTO events VALUES (1, '2024-01-02 08:00:00+00'), (2, NULL)"); // the same instant
            assertThat(TableChecksum.genericChecksums(a)).isEqualTo(TableChecksum.genericChecksums(b));
            assertThat(TableChecksum.portableChecksums(a)).isEqualTo(TableChecksum.portableChecksums(b));
            execute(b, "UPDATE events SET at = at + interval '1 microsecond' WHERE id = 1");
            assertThat(TableChecksum.genericChecksums(a)).isNotEqualTo(TableChecksum.genericChecksums(b));
            assertThat(TableChecksum.portableChecksums(a)).isNotEqualTo(TableChecksum.portableChecksums(b));
        }
        Assumptions.assumeTrue(MariaDbServer.mariaDbAvailable(), "no MariaDB on 127.0.0.1:3306 (root, empty password)");
        String database = "raidb_checksum_tz_it";
        MariaDbServer.recreateDatabase(database);
        try (Connection postgres = pg.server(0).connect();
                Connection maria = MariaDbServer.connect(database)) {
            execute(maria, "CREATE TABLE events (id int PRIMARY KEY, at DATETIME(6))");
            execute(maria, "INSERT INTO events VALUES (1, '2024-01-02 08:00:00'), (2, NULL)");
            assertThat(TableChecksum.portableChecksums(maria)).isEqualTo(TableChecksum.portableChecksums(postgres));
            assertThat(TableChecksum.genericChecksums(maria)).isNotEqualTo(TableChecksum.genericChecksums(postgres));
        } finally {
            MariaDbServer.dropDatabase(database);
        }
    }

    private static void assertDifferOnlyInItems(Map<String, String> a, Map<String, String> b) {
        assertThat(b.get("items")).isNotEqualTo(a.get("items"));
        assertThat(b.get("empty")).isEqualTo(a.get("empty"));
    }

    private static void load(org.raidb.embedded.EmbeddedPostgresServer server, List<String> rows) throws SQLException {
        try (Connection c = server.connect()) {
            execute(c, CREATE_ITEMS);
            execute(c, "CREATE TABLE empty (id int)");
            for (String row : rows) {
                execute(c, "INSERT INTO items VALUES " + row);
            }
        }
    }

    private static List<String> reversed(List<String> rows) {
        List<String> copy = new java.util.ArrayList<>(rows);
        java.util.Collections.reverse(copy);
        return copy;
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
