package org.raidb.controller.it.replication;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/** RAIDb-1 over three real PostgreSQL servers: what goes in through the driver is on every backend, identically. */
class Raidb1ReplicationIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    static ControllerFixture raidb;

    @BeforeAll
    static void startController() throws Exception {
        raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
    }

    @AfterAll
    static void stopController() {
        if (raidb != null) {
            raidb.close();
        }
    }

    private static List<EmbeddedPostgresServer> servers() {
        return pg.cluster().servers();
    }

    private static long countOn(EmbeddedPostgresServer s, String table) throws Exception {
        try (Connection c = s.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void assertReplicasIdentical() throws Exception {
        Map<String, Map<String, String>> sums = ControllerFixture.checksums(servers());
        Map<String, String> first = sums.values().iterator().next();
        assertThat(first).isNotEmpty();
        assertThat(sums.values()).allSatisfy(s -> assertThat(s).isEqualTo(first));
    }

    @Test
    void transactionsUpdatesDeletesAndBatchesLeaveIdenticalReplicas() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute(
                    "CREATE TABLE accounts (id int PRIMARY KEY, owner text NOT NULL, balance numeric(12,2) NOT NULL)");
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO accounts VALUES (?, ?, ?)")) {
                for (int i = 1; i <= 1000; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "owner-" + i);
                    ps.setBigDecimal(3, new BigDecimal(i).movePointLeft(1));
                    assertThat(ps.executeUpdate()).isEqualTo(1);
                }
            }
            c.commit();
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO accounts VALUES (?, 'ghost', 0)")) {
                for (int i = 5001; i <= 5100; i++) {
                    ps.setInt(1, i);
                    ps.executeUpdate();
                }
            }
            c.rollback();
            c.setAutoCommit(true);
            assertThat(st.executeUpdate("UPDATE accounts SET balance = balance + 1 WHERE id <= 100"))
                    .isEqualTo(100);
            assertThat(st.executeUpdate("DELETE FROM accounts WHERE id > 900")).isEqualTo(100);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO accounts VALUES (?, ?, ?)")) {
                for (int i = 2001; i <= 2200; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "batch-" + i);
                    ps.setBigDecimal(3, BigDecimal.TEN);
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                assertThat(counts).hasSize(200).containsOnly(1);
            }
            try (ResultSet rs = st.executeQuery("SELECT count(*), sum(balance) FROM accounts")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(1100);
                // 0.1+...+90.0 for ids 1..900, +100 for the update, +2000 for the batch
                assertThat(rs.getBigDecimal(2))
                        .isEqualByComparingTo(new BigDecimal("40545.00")
                                .add(new BigDecimal("100"))
                                .add(new BigDecimal("2000")));
            }
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM accounts WHERE owner = 'ghost'")) {
                rs.next();
                assertThat(rs.getLong(1)).as("rolled-back rows").isZero();
            }
        }
        for (EmbeddedPostgresServer s : servers()) {
            assertThat(countOn(s, "accounts")).as(s.name()).isEqualTo(1100);
        }
        assertReplicasIdentical();
    }

    @Test
    void everyCommonTypeRoundTripsAndIsReplicated() throws Exception {
        UUID uuid = UUID.randomUUID();
        byte[] bytes = {0, 1, 2, (byte) 0xff, 127};
        LocalDate date = LocalDate.of(2024, 2, 29);
        LocalTime time = LocalTime.of(13, 45, 7);
        LocalDateTime timestamp = LocalDateTime.of(2023, 12, 31, 23, 59, 58, 123_456_000);
        OffsetDateTime timestampTz = OffsetDateTime.of(2022, 6, 1, 8, 30, 0, 0, ZoneOffset.ofHours(2));
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute(
                    "CREATE TABLE typed (id int PRIMARY KEY, b boolean, s smallint, big bigint, r real, d double precision,"
                            + " n numeric(12,3), t text, vc varchar(20), ch char(3), dt date, tm time, ts timestamp, tstz timestamptz,"
                            + " by bytea, u uuid)");
            try (PreparedStatement ps =
                    c.prepareStatement("INSERT INTO typed VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
                ps.setInt(1, 1);
                ps.setBoolean(2, true);
                ps.setShort(3, (short) -12);
                ps.setLong(4, Long.MAX_VALUE);
                ps.setFloat(5, 1.5f);
                ps.setDouble(6, Math.PI);
                ps.setBigDecimal(7, new BigDecimal("123456789.125"));
                ps.setString(8, "héllo, wörld ✓");
                ps.setString(9, "varying");
                ps.setString(10, "abc");
                ps.setDate(11, Date.valueOf(date));
                ps.setTime(12, Time.valueOf(time));
                ps.setTimestamp(13, Timestamp.valueOf(timestamp));
                ps.setObject(14, timestampTz);
                ps.setBytes(15, bytes);
                ps.setObject(16, uuid);
                assertThat(ps.executeUpdate()).isEqualTo(1);
                ps.setInt(1, 2);
                for (int i = 2; i <= 16; i++) {
                    ps.setNull(i, Types.NULL);
                }
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            try (ResultSet rs = st.executeQuery("SELECT * FROM typed ORDER BY id")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt("id")).isEqualTo(1);
                assertThat(rs.getBoolean("b")).isTrue();
                assertThat(rs.getShort("s")).isEqualTo((short) -12);
                assertThat(rs.getLong("big")).isEqualTo(Long.MAX_VALUE);
                assertThat(rs.getFloat("r")).isEqualTo(1.5f);
                assertThat(rs.getDouble("d")).isEqualTo(Math.PI);
                assertThat(rs.getBigDecimal("n")).isEqualTo(new BigDecimal("123456789.125"));
                assertThat(rs.getString("t")).isEqualTo("héllo, wörld ✓");
                assertThat(rs.getString("vc")).isEqualTo("varying");
                assertThat(rs.getString("ch")).isEqualTo("abc");
                assertThat(rs.getDate("dt").toLocalDate()).isEqualTo(date);
                assertThat(rs.getTime("tm").toLocalTime()).isEqualTo(time);
                assertThat(rs.getTimestamp("ts").toLocalDateTime()).isEqualTo(timestamp);
                assertThat(rs.getObject("tstz", OffsetDateTime.class).toInstant())
                        .isEqualTo(timestampTz.toInstant());
                assertThat(rs.getBytes("by")).isEqualTo(bytes);
                assertThat(rs.getObject("u")).isEqualTo(uuid);
                assertThat(rs.wasNull()).isFalse();
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject("b")).isNull();
                assertThat(rs.wasNull()).isTrue();
                assertThat(rs.getInt("s")).isZero();
                assertThat(rs.wasNull()).isTrue();
                assertThat(rs.getString("t")).isNull();
                assertThat(rs.getBytes("by")).isNull();
                assertThat(rs.getTimestamp("ts")).isNull();
                assertThat(rs.next()).isFalse();
            }
        }
        for (EmbeddedPostgresServer s : servers()) {
            try (Connection c = s.connect();
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT u, by, ts FROM typed WHERE id = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(1)).as(s.name()).isEqualTo(uuid);
                assertThat(rs.getBytes(2)).isEqualTo(bytes);
                assertThat(rs.getTimestamp(3).toLocalDateTime()).isEqualTo(timestamp);
            }
        }
        assertReplicasIdentical();
    }

    @Test
    void generatedKeysComeBackAndAreTheSameOnEveryBackend() throws Exception {
        List<Long> keys = new ArrayList<>();
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE orders (id serial PRIMARY KEY, item text)");
            try (PreparedStatement ps =
                    c.prepareStatement("INSERT INTO orders (item) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
                for (String item : List.of("apple", "pear", "plum")) {
                    ps.setString(1, item);
                    assertThat(ps.executeUpdate()).isEqualTo(1);
                    try (ResultSet rs = ps.getGeneratedKeys()) {
                        assertThat(rs.next()).isTrue();
                        keys.add(rs.getLong("id"));
                    }
                }
            }
        }
        assertThat(keys).containsExactly(1L, 2L, 3L);
        for (EmbeddedPostgresServer s : servers()) {
            try (Connection c = s.connect();
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT id FROM orders WHERE item = 'plum'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).as(s.name()).isEqualTo(3L);
            }
        }
    }

    @Test
    void savepointsAndSqlTransactionControlWorkOnEveryBackend() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE notes (id int PRIMARY KEY, body text)");
            c.setAutoCommit(false);
            st.executeUpdate("INSERT INTO notes VALUES (1, 'kept')");
            Savepoint sp = c.setSavepoint("before_two");
            st.executeUpdate("INSERT INTO notes VALUES (2, 'undone')");
            c.rollback(sp);
            st.executeUpdate("INSERT INTO notes VALUES (3, 'kept too')");
            c.commit();
            c.setAutoCommit(true);
            st.execute("BEGIN");
            st.executeUpdate("INSERT INTO notes VALUES (4, 'rolled back by SQL')");
            st.execute("ROLLBACK");
            st.execute("BEGIN");
            st.executeUpdate("INSERT INTO notes VALUES (5, 'committed by SQL')");
            st.execute("COMMIT");
            try (ResultSet rs = st.executeQuery("SELECT string_agg(id::text, ',' ORDER BY id) FROM notes")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("1,3,5");
            }
        }
        for (EmbeddedPostgresServer s : servers()) {
            assertThat(countOn(s, "notes")).as(s.name()).isEqualTo(3);
        }
        assertReplicasIdentical();
    }

    @Test
    void metadataIsTheBackendsOwn() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE parents (id int PRIMARY KEY, name text)");
            st.execute(
                    "CREATE TABLE children (id int PRIMARY KEY, parent_id int REFERENCES parents(id), label varchar(40))");
            st.execute("CREATE INDEX children_label ON children (label)");
            DatabaseMetaData md = c.getMetaData();
            assertThat(md.getDatabaseProductName()).isEqualTo("PostgreSQL");
            assertThat(md.getDatabaseProductVersion()).startsWith("15.");
            assertThat(md.getIdentifierQuoteString()).isEqualTo("\"");
            try (ResultSet rs = md.getTables(null, "public", "children", new String[] {"TABLE"})) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("TABLE_NAME")).isEqualTo("children");
                assertThat(rs.next()).isFalse();
            }
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = md.getColumns(null, "public", "children", "%")) {
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME") + ":" + rs.getString("TYPE_NAME"));
                }
            }
            assertThat(columns).containsExactly("id:int4", "parent_id:int4", "label:varchar");
            try (ResultSet rs = md.getPrimaryKeys(null, "public", "children")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("COLUMN_NAME")).isEqualTo("id");
            }
            try (ResultSet rs = md.getImportedKeys(null, "public", "children")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("PKTABLE_NAME")).isEqualTo("parents");
                assertThat(rs.getString("FKCOLUMN_NAME")).isEqualTo("parent_id");
            }
            List<String> indexes = new ArrayList<>();
            try (ResultSet rs = md.getIndexInfo(null, "public", "children", false, false)) {
                while (rs.next()) {
                    indexes.add(rs.getString("INDEX_NAME"));
                }
            }
            assertThat(indexes).contains("children_pkey", "children_label");
        }
    }

    @Test
    void maxRowsAndFetchSizeAreHonouredOnSmallAndStreamedResults() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE numbers AS SELECT generate_series(1, 2500) AS n");
            st.setMaxRows(5);
            assertThat(countRows(st, "SELECT n FROM numbers ORDER BY n")).isEqualTo(5);
            st.setMaxRows(1500); // above the fetch size: the rows stream in batches and stop at the limit
            assertThat(countRows(st, "SELECT n FROM numbers ORDER BY n")).isEqualTo(1500);
            st.setMaxRows(0);
            st.setFetchSize(100);
            assertThat(countRows(st, "SELECT n FROM numbers")).isEqualTo(2500);
        }
    }

    private static int countRows(Statement st, String sql) throws Exception {
        int n = 0;
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                n++;
                assertThat(rs.getInt(1)).isPositive();
            }
        }
        return n;
    }

    @Test
    void queryTimeoutAndCancelStopTheBackendStatement() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.setQueryTimeout(1);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> st.executeQuery("SELECT pg_sleep(30)"))
                    .isInstanceOf(java.sql.SQLException.class)
                    .satisfies(e -> assertThat(((java.sql.SQLException) e).getSQLState())
                            .isEqualTo("57014"));
            st.setQueryTimeout(0);
            java.util.concurrent.CompletableFuture<Void> sleeping =
                    java.util.concurrent.CompletableFuture.runAsync(() -> {
                        try (ResultSet rs = st.executeQuery("SELECT pg_sleep(30)")) {
                            rs.next();
                        } catch (java.sql.SQLException e) {
                            throw new java.util.concurrent.CompletionException(e);
                        }
                    });
            // Cancel once the backend is actually running the sleep.
            org.awaitility.Awaitility.await()
                    .atMost(10, java.util.concurrent.TimeUnit.SECONDS)
                    .until(() -> sleepersOnBackends() == 1);
            st.cancel();
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> sleeping.get(10, java.util.concurrent.TimeUnit.SECONDS))
                    .hasCauseInstanceOf(java.sql.SQLException.class)
                    .satisfies(e -> assertThat(((java.sql.SQLException) e.getCause()).getSQLState())
                            .isEqualTo("57014"));
            try (ResultSet rs = st.executeQuery("SELECT 7")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1))
                        .as("the session goes on after a cancel")
                        .isEqualTo(7);
            }
        }
    }

    private static int sleepersOnBackends() throws Exception {
        int n = 0;
        for (EmbeddedPostgresServer s : servers()) {
            try (Connection c = s.connect();
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(
                            "SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)' AND state = 'active'")) {
                rs.next();
                n += rs.getInt(1);
            }
        }
        return n;
    }

    @Test
    void readsSpreadOverEveryBackend() throws Exception {
        long[] before = servedByBackend();
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            for (int i = 0; i < 30; i++) {
                try (ResultSet rs = st.executeQuery("SELECT " + i)) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(i);
                }
            }
        }
        long[] after = servedByBackend();
        for (int i = 0; i < before.length; i++) {
            assertThat(after[i] - before[i])
                    .as("reads served by backend %d", i + 1)
                    .isGreaterThanOrEqualTo(10);
        }
    }

    private static long[] servedByBackend() {
        return raidb.controller().virtualDatabase("shop").backends().stream()
                .mapToLong(b -> b.requestsServed())
                .toArray();
    }
}
