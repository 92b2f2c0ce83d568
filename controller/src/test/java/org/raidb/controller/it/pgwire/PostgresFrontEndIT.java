package org.raidb.controller.it.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.test.PostgresClusterExtension;

/**
 * pgjdbc itself, connected to the controller's PostgreSQL front end ({@code jdbc:postgresql://…:pgPort/shop})
 * over three embedded PostgreSQL backends (RAIDb-1): DDL, DML, transactions, errors after which the session goes
 * on, the common types in text and binary, named server-side statements; the backends identical afterwards.
 */
class PostgresFrontEndIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static ControllerFixture raidb;

    @BeforeAll
    static void start() throws Exception {
        raidb = ControllerFixture.start(pg.controllerConfig("shop").controllerAttribute("pgPort", 0), "shop");
    }

    @AfterAll
    static void stop() {
        if (raidb != null) {
            raidb.close();
        }
    }

    @BeforeEach
    void freshTables() throws SQLException {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS item");
        }
    }

    static Connection pgjdbc(String mode) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", ControllerFixture.USER);
        p.setProperty("password", ControllerFixture.PASSWORD);
        p.setProperty("preferQueryMode", mode);
        p.setProperty("prepareThreshold", "1"); // named statements from the first execution on
        p.setProperty("sslmode", "disable");
        return DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + raidb.controller().pgPort() + "/shop", p);
    }

    @ParameterizedTest
    @ValueSource(strings = {"extended", "simple", "extendedForPrepared"})
    void ddlDmlTransactionsAndErrorsThroughPgjdbc(String mode) throws Exception {
        try (Connection c = pgjdbc(mode);
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE item (id int PRIMARY KEY, name varchar(40), price numeric(10,2), "
                    + "qty bigint, ok boolean, born date, seen timestamp, at timestamptz, tag uuid, raw bytea, "
                    + "score float8)");
            assertThat(st.executeUpdate("INSERT INTO item (id, name) VALUES (1, 'one'), (2, 'two')"))
                    .isEqualTo(2);
            UUID tag = UUID.fromString("6c7c2a3e-0f5e-4a55-9d0e-2d3b1d9a8c11");
            try (PreparedStatement ps =
                    c.prepareStatement("INSERT INTO item VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (int i = 3; i <= 5; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "item " + i);
                    ps.setBigDecimal(3, new BigDecimal("12.50").add(BigDecimal.valueOf(i)));
                    ps.setLong(4, 10_000_000_000L + i);
                    ps.setBoolean(5, i % 2 == 0);
                    ps.setObject(6, LocalDate.of(2024, 2, 29));
                    ps.setObject(7, LocalDateTime.of(2024, 3, 1, 12, 30, 45, 123_456_000));
                    ps.setObject(8, OffsetDateTime.of(2024, 3, 1, 12, 0, 0, 0, ZoneOffset.ofHours(2)));
                    ps.setObject(9, tag);
                    ps.setBytes(10, new byte[] {0, 1, (byte) 0xff});
                    ps.setDouble(11, 0.1 * i);
                    assertThat(ps.executeUpdate()).isEqualTo(1);
                }
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT id, name, price, qty, ok, born, seen, at, tag, raw, score FROM item WHERE id = ?")) {
                for (int round = 0; round < 3; round++) { // the named statement is reused
                    ps.setInt(1, 4);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getInt("id")).isEqualTo(4);
                        assertThat(rs.getString("name")).isEqualTo("item 4");
                        assertThat(rs.getBigDecimal("price")).isEqualByComparingTo("16.50");
                        assertThat(rs.getLong("qty")).isEqualTo(10_000_000_004L);
                        assertThat(rs.getBoolean("ok")).isTrue();
                        assertThat(rs.getObject("born", LocalDate.class)).isEqualTo(LocalDate.of(2024, 2, 29));
                        assertThat(rs.getObject("seen", LocalDateTime.class))
                                .isEqualTo(LocalDateTime.of(2024, 3, 1, 12, 30, 45, 123_456_000));
                        assertThat(rs.getObject("at", OffsetDateTime.class).toInstant())
                                .isEqualTo(OffsetDateTime.of(2024, 3, 1, 10, 0, 0, 0, ZoneOffset.UTC)
                                        .toInstant());
                        assertThat(rs.getObject("tag", UUID.class)).isEqualTo(tag);
                        assertThat(rs.getBytes("raw")).containsExactly(0, 1, 0xff);
                        assertThat(rs.getDouble("score")).isEqualTo(0.1 * 4);
                        assertThat(rs.next()).isFalse();
                    }
                }
            }
            assertThat(st.executeUpdate("UPDATE item SET qty = 7 WHERE id >= 2"))
                    .isEqualTo(4);

            // A transaction, an error inside it, the rollback, and the session goes on.
            c.setAutoCommit(false);
            st.executeUpdate("INSERT INTO item (id, name) VALUES (10, 'ten')");
            assertThatThrownBy(() -> st.executeUpdate("INSERT INTO item (id, name) VALUES (1, 'dup')"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23505"));
            assertThatThrownBy(() -> st.executeQuery("SELECT 1"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25P02"));
            c.rollback();
            st.executeUpdate("INSERT INTO item (id, name) VALUES (11, 'eleven')");
            c.commit();
            c.setAutoCommit(true);

            // An error outside a transaction: the next statement runs.
            assertThatThrownBy(() -> st.executeQuery("SELECT * FROM no_such_table"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42P01"));
            try (ResultSet rs = st.executeQuery("SELECT count(*), sum(id) FROM item")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(6);
                assertThat(rs.getLong(2)).isEqualTo(1 + 2 + 3 + 4 + 5 + 11);
            }
        }
        raidb.assertEveryBackendEnabled();
        ReplicaChecks.assertIdentical(pg.cluster().servers());
        ReplicaChecks.assertRowsOnEach(pg.cluster().servers(), "SELECT count(*) FROM item WHERE id = 10", "0|");
    }

    /**
     * PostgreSQL runs the portals of an extended query between two Syncs, outside a transaction block, in one
     * implicit transaction: a pgjdbc batch in auto-commit mode is applied whole or not at all. The same batches
     * through the front end and straight to a PostgreSQL server leave the same rows (a small batch: one Sync;
     * a large one: pgjdbc sends a Sync midway to read answers, so only the failing part is rolled back).
     */
    @ParameterizedTest
    @ValueSource(ints = {3, 3000})
    void aBatchInAutoCommitIsOneImplicitTransactionAsOnPostgresql(int size) throws Exception {
        try (Connection admin = pg.cluster().servers().get(0).connect("postgres");
                Statement st = admin.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS batch_parity");
            st.execute("CREATE DATABASE batch_parity");
        }
        java.util.List<Object> seen = new java.util.ArrayList<>();
        for (boolean throughRaidb : new boolean[] {true, false}) {
            try (Connection c = throughRaidb
                            ? pgjdbc("extended")
                            : pg.cluster().servers().get(0).connect("batch_parity");
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE item (id int PRIMARY KEY, name text)");
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO item VALUES (?, ?)")) {
                    for (int i = 1; i <= size; i++) {
                        ps.setInt(1, i);
                        ps.setString(2, "first " + i);
                        ps.addBatch();
                    }
                    seen.add(java.util.Arrays.stream(ps.executeBatch()).sum());
                    for (int i = size + 1; i <= 2 * size; i++) {
                        ps.setInt(1, i == 2 * size ? 1 : i); // the last row repeats a key: the batch fails
                        ps.setString(2, "second " + i);
                        ps.addBatch();
                    }
                    SQLException failed = org.junit.jupiter.api.Assertions.assertThrows(
                            java.sql.BatchUpdateException.class, ps::executeBatch);
                    seen.add(failed.getSQLState());
                }
                seen.add(c.getAutoCommit());
                assertThat(st.executeUpdate("INSERT INTO item VALUES (-1, 'after')"))
                        .isEqualTo(1);
                seen.add(ReplicaChecks.count(c, "SELECT count(*) FROM item"));
                seen.add(ReplicaChecks.count(c, "SELECT count(*) FROM item WHERE name LIKE 'second%'"));
            }
        }
        assertThat(seen.subList(0, seen.size() / 2))
                .as("through RAIDb, then PostgreSQL")
                .isEqualTo(seen.subList(seen.size() / 2, seen.size()));
        if (size == 3) { // one Sync: nothing of the failed batch stays
            assertThat(seen.get(3)).isEqualTo(size + 1);
            assertThat(seen.get(4)).as("rows of the failed batch").isEqualTo(0);
        } else { // pgjdbc syncs midway through a large batch: what went before the failing part's Sync stays
            assertThat((Integer) seen.get(4)).as("rows of the failed batch").isBetween(1, size - 2);
        }
        raidb.assertEveryBackendEnabled();
        ReplicaChecks.assertIdentical(pg.cluster().servers());
        ReplicaChecks.assertRowsOnEach(
                pg.cluster().servers(), "SELECT count(*) FROM item WHERE name LIKE 'second%'", seen.get(4) + "|");
    }

    /** A batch of one portal each and auto-commit off (pgjdbc's BEGIN in the same messages) stay as they were. */
    @Test
    void aTransactionBlockSentWithItsFirstStatementIsNoImplicitTransaction() throws Exception {
        try (Connection c = pgjdbc("extended");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE item (id int PRIMARY KEY, name text)");
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO item VALUES (?, ?)")) {
                for (int i = 1; i <= 3; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "n" + i);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            assertThat(st.executeUpdate("INSERT INTO item VALUES (4, 'n4')")).isEqualTo(1);
            c.rollback(); // the whole block, batch included
            assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM item")).isZero();
            st.executeUpdate("INSERT INTO item VALUES (5, 'n5')");
            c.commit();
            c.setAutoCommit(true);
            assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM item")).isEqualTo(1);
        }
        ReplicaChecks.assertIdentical(pg.cluster().servers());
    }

    @Test
    void largeResultsAreFetchedInBatchesInsideATransaction() throws Exception {
        try (Connection c = pgjdbc("extended");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE item (id int PRIMARY KEY, name text)");
            st.executeUpdate("INSERT INTO item SELECT g, 'n' || g FROM generate_series(1, 2500) g");
            c.setAutoCommit(false);
            st.setFetchSize(100); // pgjdbc: a named portal, Execute with a row limit, PortalSuspended
            long sum = 0;
            int rows = 0;
            try (ResultSet rs = st.executeQuery("SELECT id FROM item ORDER BY id")) {
                while (rs.next()) {
                    sum += rs.getInt(1);
                    rows++;
                }
            }
            c.commit();
            assertThat(rows).isEqualTo(2500);
            assertThat(sum).isEqualTo(2500L * 2501 / 2);
        }
    }

    /**
     * pgjdbc's Statement.cancel sends a CancelRequest on a connection of its own, with the BackendKeyData the
     * session was given: the running statement ends with 57014 on its connection, which goes on.
     */
    @Test
    void aCancelRequestEndsTheRunningStatementAndTheSessionGoesOn() throws Exception {
        try (Connection c = pgjdbc("extended");
                Statement st = c.createStatement()) {
            java.util.concurrent.CompletableFuture<SQLException> sleeping =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                        try {
                            st.execute("SELECT pg_sleep(60)");
                            return null;
                        } catch (SQLException e) {
                            return e;
                        }
                    });
            // Cancelled as soon as a backend runs the sleep; a cancel that came before it would be lost.
            org.awaitility.Awaitility.await()
                    .atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> pg.cluster().servers().stream().anyMatch(s -> sleepingOn(s)));
            st.cancel();
            SQLException cancelled = sleeping.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertThat((Object) cancelled).isNotNull();
            assertThat(cancelled.getSQLState()).isEqualTo("57014");
            try (ResultSet rs = st.executeQuery("SELECT 42")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(42);
            }
        }
    }

    private static boolean sleepingOn(org.raidb.embedded.EmbeddedPostgresServer s) {
        try {
            return !ReplicaChecks.rowsOn(
                            s,
                            "SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'"
                                    + " AND state = 'active'")
                    .isEmpty();
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * Startup parameters that are settings (pgjdbc's currentSchema sends search_path; options carries -c
     * name=value, libpq's PGOPTIONS) hold for the whole session, on every backend connection it uses; one the
     * backends do not know, or a switch other than -c, refuses the login with FATAL, and the front end goes on.
     */
    @Test
    void startupSettingsHoldForTheSessionAndBadOnesRefuseTheLogin() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS inventory");
            st.execute("DROP TABLE IF EXISTS inventory.item");
            st.execute("CREATE TABLE inventory.item (id int PRIMARY KEY)");
        }
        Properties p = new Properties();
        p.setProperty("user", ControllerFixture.USER);
        p.setProperty("password", ControllerFixture.PASSWORD);
        p.setProperty("sslmode", "disable");
        p.setProperty("currentSchema", "inventory");
        p.setProperty("options", "-c statement_timeout=4321 --lock-timeout=1234 -c work_mem=5MB");
        String url = "jdbc:postgresql://127.0.0.1:" + raidb.controller().pgPort() + "/shop";
        try (Connection c = DriverManager.getConnection(url, p);
                Statement st = c.createStatement()) {
            for (int i = 0; i < 3; i++) { // reads borrow pooled connections: each must carry the settings
                assertThat(ReplicaChecks.rows(st.executeQuery("SHOW statement_timeout")))
                        .containsExactly("4321ms|");
                assertThat(ReplicaChecks.rows(st.executeQuery("SHOW lock_timeout")))
                        .containsExactly("1234ms|");
                assertThat(ReplicaChecks.rows(st.executeQuery("SHOW work_mem"))).containsExactly("5MB|");
            }
            assertThat(st.executeUpdate("INSERT INTO item VALUES (7)")).isEqualTo(1); // inventory.item
            c.setAutoCommit(false);
            assertThat(ReplicaChecks.rows(st.executeQuery("SHOW statement_timeout")))
                    .containsExactly("4321ms|");
            c.commit();
        }
        ReplicaChecks.assertRowsOnEach(pg.cluster().servers(), "SELECT id FROM inventory.item", "7|");
        try (Connection plain = pgjdbc("extended");
                Statement st = plain.createStatement()) { // the settings did not leak into the pool
            assertThat(ReplicaChecks.rows(st.executeQuery("SHOW statement_timeout")))
                    .containsExactly("0|");
        }
        for (String bad : new String[] {"-c no_such_setting=1", "-x 5", "-c statement_timeout"}) {
            p.setProperty("options", bad);
            assertThatThrownBy(() -> DriverManager.getConnection(url, p).close())
                    .as(bad)
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isIn("42704", "08P01", "42601"));
        }
        try (Connection c = pgjdbc("extended");
                Statement st = c.createStatement()) {
            assertThat(ReplicaChecks.rows(st.executeQuery("SELECT 1"))).containsExactly("1|");
        }
    }

    @Test
    void aWrongPasswordIsRefusedWith28P01() {
        Properties p = new Properties();
        p.setProperty("user", ControllerFixture.USER);
        p.setProperty("password", "wrong");
        assertThatThrownBy(() -> DriverManager.getConnection(
                        "jdbc:postgresql://127.0.0.1:" + raidb.controller().pgPort() + "/shop", p))
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("28P01"));
    }
}
