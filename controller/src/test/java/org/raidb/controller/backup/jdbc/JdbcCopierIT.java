package org.raidb.controller.backup.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.backup.BackendEndpoint;
import org.raidb.controller.backup.BackupException;
import org.raidb.controller.backup.Backuper;
import org.raidb.controller.backup.CopyProgress;
import org.raidb.controller.backup.DumpResult;
import org.raidb.controller.backup.LiveDumps;
import org.raidb.controller.backup.RecordingProgress;
import org.raidb.controller.backup.RecordingProgress.Step;
import org.raidb.controller.backup.SampleDatabase;
import org.raidb.controller.recovery.Backupers;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.MariaDbServer;
import org.raidb.test.PostgresClusterExtension;

class JdbcCopierIT {

    @RegisterExtension
    static PostgresClusterExtension pg = PostgresClusterExtension.servers(2).database("shop");

    /** Ours alone on the shared MariaDB; dropped after each test. */
    private static final String MARIADB_DATABASE =
            "raidb_jdbccopy_it_" + ProcessHandle.current().pid();
    /** Rows of the sample's tables to copy: customers 4, orders 3, empty_table 0 (raidb_internal is not copied). */
    private static final long SAMPLE_ROWS = 7;

    @TempDir
    Path dir;

    private final JdbcCopier copier = (JdbcCopier) Backupers.byName("jdbcCopy", Map.of());

    @AfterEach
    void cleanUp() throws SQLException {
        pg.cluster().recreateDatabases();
        if (MariaDbServer.mariaDbAvailable()) {
            MariaDbServer.dropDatabase(MARIADB_DATABASE);
        }
    }

    @Test
    void postgresToPostgresGivesTheSameRowsKeysIndexesAndSequences() throws Exception {
        loadSample(pg.server(0));
        RecordingProgress progress = new RecordingProgress();
        copier.copy(endpoint(pg.server(0)), endpoint(pg.server(1)), progress);

        assertThat(progress.steps()).containsExactly(new Step("copying", "rows", SAMPLE_ROWS, SAMPLE_ROWS));
        try (Connection source = pg.server(0).connect();
                Connection target = pg.server(1).connect()) {
            // PostgreSQL's own checksums hash each row's text: equal only if the column types are the same too.
            assertThat(TableChecksum.postgresChecksums(target))
                    .isEqualTo(withoutControllerTables(TableChecksum.postgresChecksums(source)));
            assertThat(indexes(target, "customers"))
                    .containsEntry("customers_email", "unique email")
                    .containsEntry("customers_name", "name, joined");
            assertThat(indexes(target, "orders")).containsEntry("orders_customer", "customer_id");
            SampleDatabase.assertKeysContinue(target);
            // the foreign key came along, with its ON DELETE CASCADE
            assertThatThrownBy(() -> SampleDatabase.execute(target, "INSERT INTO orders (customer_id) VALUES (999)"))
                    .extracting(e -> ((SQLException) e).getSQLState())
                    .isEqualTo("23503");
            SampleDatabase.execute(target, "DELETE FROM customers WHERE id = 1");
            assertThat(TableChecksum.rowCount(target, "orders")).isEqualTo(2);
        }
    }

    @Test
    void aDumpIsOneH2FileThatRestoresIntoAnOlderCopy() throws Exception {
        loadSample(pg.server(0));
        try (Connection target = pg.server(1).connect()) {
            SampleDatabase.createOnPostgres(target);
            SampleDatabase.execute(
                    target,
                    "UPDATE customers SET balance = 99 WHERE id = 1",
                    "DELETE FROM orders WHERE id = 3",
                    "INSERT INTO customers (name) VALUES ('stale')",
                    "SELECT setval('invoice_numbers', 500)",
                    "ALTER TABLE orders ADD COLUMN obsolete int",
                    "CREATE TABLE unrelated (id int)");
        }
        Path dump = dir.resolve("shop.jdbccopy");
        RecordingProgress dumping = new RecordingProgress();
        DumpResult result = copier.dump(endpoint(pg.server(0)), dump, dumping);
        assertThat(result.format()).isEqualTo("jdbcCopy");
        assertThat(result.tables()).isEqualTo(3);
        assertThat(result.rows()).isEqualTo(SAMPLE_ROWS);
        assertThat(result.sizeBytes()).isEqualTo(Files.size(dump));
        assertThat(dumping.steps()).containsExactly(new Step("dumping", "rows", SAMPLE_ROWS, SAMPLE_ROWS));
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(dump); // no partial or H2-named file left
        }

        RecordingProgress restoring = new RecordingProgress();
        copier.restore(dump, endpoint(pg.server(1)), restoring);
        assertThat(restoring.steps()).containsExactly(new Step("restoring", "rows", SAMPLE_ROWS, SAMPLE_ROWS));
        try (Connection source = pg.server(0).connect();
                Connection target = pg.server(1).connect()) {
            assertThat(TableChecksum.postgresChecksums(target))
                    .containsAllEntriesOf(withoutControllerTables(TableChecksum.postgresChecksums(source)));
            assertThat(SampleDatabase.tableNames(target)).contains("unrelated");
            SampleDatabase.assertKeysContinue(target);
        }
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(dump); // the restore's link is gone
        }
    }

    @Test
    void postgresToMariaDb() throws Exception {
        requireMariaDb();
        loadSample(pg.server(0));
        copier.copy(endpoint(pg.server(0)), mariaDbEndpoint(), CopyProgress.NONE);
        try (Connection source = pg.server(0).connect();
                Connection target = MariaDbServer.connect(MARIADB_DATABASE)) {
            assertThat(SampleDatabase.checksums(target)).isEqualTo(SampleDatabase.checksums(source));
            assertThat(indexes(target, "customers")).containsEntry("customers_email", "unique email");
            SampleDatabase.assertKeysContinue(target);
        }
    }

    @Test
    void mariaDbToPostgres() throws Exception {
        requireMariaDb();
        try (Connection source = MariaDbServer.connect(MARIADB_DATABASE)) {
            SampleDatabase.createOnMariaDb(source);
        }
        copier.copy(mariaDbEndpoint(), endpoint(pg.server(1)), CopyProgress.NONE);
        try (Connection source = MariaDbServer.connect(MARIADB_DATABASE);
                Connection target = pg.server(1).connect()) {
            assertThat(SampleDatabase.checksums(target)).isEqualTo(SampleDatabase.checksums(source));
            assertThat(indexes(target, "orders")).containsEntry("orders_customer", "customer_id");
            SampleDatabase.assertKeysContinue(target);
        }
    }

    @Test
    void aDumpOfPostgresRestoresIntoMariaDb() throws Exception {
        requireMariaDb();
        loadSample(pg.server(0));
        Path dump = dir.resolve("shop.jdbccopy");
        copier.dump(endpoint(pg.server(0)), dump, CopyProgress.NONE);
        copier.restore(dump, mariaDbEndpoint(), CopyProgress.NONE);
        try (Connection source = pg.server(0).connect();
                Connection target = MariaDbServer.connect(MARIADB_DATABASE)) {
            assertThat(SampleDatabase.checksums(target)).isEqualTo(SampleDatabase.checksums(source));
            SampleDatabase.assertKeysContinue(target);
        }
    }

    @Test
    void writesAfterSnapshotTakenAreNotInADumpOfPostgres() throws Exception {
        loadSample(pg.server(0));
        Map<String, String> before;
        try (Connection source = pg.server(0).connect()) {
            before = withoutControllerTables(TableChecksum.postgresChecksums(source));
        }
        Path dump = dir.resolve("live.jdbccopy");
        DumpResult result =
                LiveDumps.dumpWritingAfterSnapshot(copier, endpoint(pg.server(0)), dump, pg.server(0)::connect);

        assertThat(result.rows()).as("rows at the snapshot").isEqualTo(SAMPLE_ROWS);
        copier.restore(dump, endpoint(pg.server(1)), CopyProgress.NONE);
        try (Connection copy = pg.server(1).connect()) {
            assertThat(TableChecksum.postgresChecksums(copy)).isEqualTo(before);
            SampleDatabase.assertKeysContinue(copy); // the sequences as they were at the snapshot too
        }
    }

    @Test
    void aTruncateAfterSnapshotTakenWaitsForTheDumpInsteadOfEmptyingATableInIt() throws Exception {
        loadSample(pg.server(0));
        Path dump = dir.resolve("live.jdbccopy");
        ExecutorService ddl = Executors.newSingleThreadExecutor();
        try {
            List<Future<?>> truncate = new ArrayList<>();
            List<Boolean> waiting = new ArrayList<>();
            copier.dump(endpoint(pg.server(0)), dump, CopyProgress.NONE, () -> {
                truncate.add(ddl.submit(() -> {
                    try (Connection c = pg.server(0).connect()) {
                        SampleDatabase.execute(c, "TRUNCATE orders");
                    }
                    return null;
                }));
                // Done or waiting: without the dump's lock it is done at once, and the snapshot would read orders
                // empty.
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> truncate.get(0).isDone() || waitsForALock(pg.server(0), "TRUNCATE orders"));
                waiting.add(!truncate.get(0).isDone());
            });
            assertThat(waiting).as("the TRUNCATE waited for the dump").containsExactly(true);
            truncate.get(0).get(30, TimeUnit.SECONDS);
        } finally {
            ddl.shutdownNow();
        }
        copier.restore(dump, endpoint(pg.server(1)), CopyProgress.NONE);
        try (Connection copy = pg.server(1).connect()) {
            assertThat(TableChecksum.rowCount(copy, "orders")).isEqualTo(3);
        }
    }

    private static boolean waitsForALock(EmbeddedPostgresServer server, String query) throws SQLException {
        try (Connection c = server.connect();
                java.sql.PreparedStatement p = c.prepareStatement(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query = ?")) {
            p.setString(1, query);
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                return rs.getLong(1) > 0;
            }
        }
    }

    @Test
    void writesAfterSnapshotTakenAreNotInADumpOfMariaDb() throws Exception {
        requireMariaDb();
        Map<String, String> before;
        try (Connection source = MariaDbServer.connect(MARIADB_DATABASE)) {
            SampleDatabase.createOnMariaDb(source);
            before = SampleDatabase.checksums(source);
        }
        Path dump = dir.resolve("live.jdbccopy");
        LiveDumps.dumpWritingAfterSnapshot(
                copier, mariaDbEndpoint(), dump, () -> MariaDbServer.connect(MARIADB_DATABASE));

        copier.restore(dump, endpoint(pg.server(1)), CopyProgress.NONE);
        try (Connection copy = pg.server(1).connect()) {
            assertThat(SampleDatabase.checksums(copy)).isEqualTo(before);
            SampleDatabase.assertKeysContinue(copy);
        }
    }

    @Test
    void fromH2WhichFixesNoSnapshotSnapshotTakenRunsOnceTheDumpIsWritten() throws Exception {
        String h2 = "jdbc:h2:file:" + dir.resolve("source").toAbsolutePath();
        try (Connection c = DriverManager.getConnection(h2)) {
            SampleDatabase.execute(c, "CREATE TABLE items (id INT PRIMARY KEY)", "INSERT INTO items VALUES (1), (2)");
        }
        Path dump = dir.resolve("h2.jdbccopy");
        List<Boolean> dumpWritten = new ArrayList<>();
        DumpResult result = copier.dump(
                new BackendEndpoint(h2, "", ""),
                dump,
                CopyProgress.NONE,
                () -> dumpWritten.add(Files.isRegularFile(dump)));

        assertThat(dumpWritten)
                .as("whether the dump was written when snapshotTaken ran")
                .containsExactly(true);
        assertThat(result.rows()).isEqualTo(2);
    }

    @Test
    void snapshotTakenRunsOnceWhenTheSourceIsUnreachable() throws Exception {
        LiveDumps.assertSnapshotTakenRunsWhenTheSourceIsUnreachable(copier, dir);
    }

    @Test
    void aPgDumpRestoreCanReplaceWhatJdbcCopyWrote() throws Exception {
        loadSample(pg.server(0));
        try (Connection source = pg.server(0).connect()) {
            SampleDatabase.execute(
                    source,
                    "CREATE TABLE tickets (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, title text)",
                    "INSERT INTO tickets (title) VALUES ('a'), ('b')");
        }
        copier.copy(endpoint(pg.server(0)), endpoint(pg.server(1)), CopyProgress.NONE);
        Backuper pgDump = Backupers.byName("pgDump", Map.of());
        Path dump = dir.resolve("shop.pgdump");
        pgDump.dump(endpoint(pg.server(0)), dump, CopyProgress.NONE);
        pgDump.restore(dump, endpoint(pg.server(1)), CopyProgress.NONE);
        try (Connection source = pg.server(0).connect();
                Connection target = pg.server(1).connect()) {
            assertThat(TableChecksum.postgresChecksums(target)).isEqualTo(TableChecksum.postgresChecksums(source));
            SampleDatabase.assertKeysContinue(target);
        }
    }

    @Test
    void aMissingDumpFileIsNamed() {
        Path missing = dir.resolve("none.jdbccopy");
        assertThatThrownBy(() -> copier.restore(missing, endpoint(pg.server(1)), CopyProgress.NONE))
                .isInstanceOf(BackupException.class)
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("does not exist")
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo("58P01");
    }

    @Test
    void aFileThatIsNotADumpIsRefusedBeforeTheTargetIsTouched() throws Exception {
        try (Connection target = pg.server(1).connect()) {
            SampleDatabase.execute(target, "CREATE TABLE kept (id int)", "INSERT INTO kept VALUES (1)");
        }
        Path text = Files.writeString(dir.resolve("notes.txt"), "not a database\n");
        assertThatThrownBy(() -> copier.restore(text, endpoint(pg.server(1)), CopyProgress.NONE))
                .isInstanceOf(BackupException.class)
                .hasMessageContaining(text + " is not a dump written by the backuper jdbcCopy (H2 cannot open it")
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo("58030");

        Path otherH2 = dir.resolve("other");
        try (Connection h2 = DriverManager.getConnection("jdbc:h2:file:" + otherH2)) {
            SampleDatabase.execute(h2, "CREATE TABLE \"kept\" (id int)");
        }
        Path h2File = dir.resolve("other.mv.db");
        assertThatThrownBy(() -> copier.restore(h2File, endpoint(pg.server(1)), CopyProgress.NONE))
                .hasMessageContaining("it is an H2 database without the table raidb_dump_info");
        try (Connection target = pg.server(1).connect()) {
            assertThat(TableChecksum.rowCount(target, "kept")).isEqualTo(1);
        }
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactlyInAnyOrder(text, h2File);
        }
    }

    @Test
    void anUnreachableSourceIs08001NamingTheUrl() throws Exception {
        String url = "jdbc:postgresql://127.0.0.1:" + unusedPort() + "/shop?connectTimeout=2";
        assertThatThrownBy(() -> copier.dump(
                        new BackendEndpoint(url, "postgres", "secret"), dir.resolve("x.jdbccopy"), CopyProgress.NONE))
                .isInstanceOf(BackupException.class)
                .hasMessageContaining("cannot connect to postgres@" + url)
                .hasMessageNotContaining("secret")
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo("08001");
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void aColumnTypeWithoutMappingIsRefusedBeforeTheTargetIsTouched() throws Exception {
        try (Connection source = pg.server(0).connect();
                Connection target = pg.server(1).connect()) {
            SampleDatabase.execute(source, "CREATE TABLE things (id int PRIMARY KEY, doc jsonb, tags text[])");
            SampleDatabase.execute(target, "CREATE TABLE things (id int)", "INSERT INTO things VALUES (1)");
        }
        assertThatThrownBy(() -> copier.copy(endpoint(pg.server(0)), endpoint(pg.server(1)), CopyProgress.NONE))
                .isInstanceOf(BackupException.class)
                .hasMessageContaining("cannot copy these PostgreSQL columns: things.doc (jsonb); things.tags (_text)")
                .hasMessageContaining("Nothing was written")
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo("0A000");
        try (Connection target = pg.server(1).connect()) {
            assertThat(TableChecksum.rowCount(target, "things")).isEqualTo(1);
        }
    }

    @Test
    void aPostgresTargetIsOneTransactionThatAViewOnAReplacedTableStopsWholly() throws Exception {
        loadSample(pg.server(0));
        try (Connection target = pg.server(1).connect()) {
            SampleDatabase.createOnPostgres(target);
            SampleDatabase.execute(
                    target,
                    "UPDATE customers SET balance = 99 WHERE id = 1",
                    "CREATE VIEW rich AS SELECT * FROM customers WHERE balance > 50");
        }
        assertThatThrownBy(() -> copier.copy(endpoint(pg.server(0)), endpoint(pg.server(1)), CopyProgress.NONE))
                .isInstanceOf(BackupException.class)
                .hasMessageContaining(
                        "PostgreSQL target refused DROP TABLE IF EXISTS \"customers\", \"empty_table\", \"orders\"")
                .hasMessageContaining("view rich depends on table customers")
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo("2BP01");
        try (Connection target = pg.server(1).connect()) {
            assertThat(TableChecksum.rowCount(target, "customers WHERE id = 1 AND balance = 99"))
                    .isEqualTo(1);
            assertThat(TableChecksum.rowCount(target, "rich")).isEqualTo(2);
        }
    }

    @Test
    void theControllersOwnTablesAreCopiedOnlyWhenAskedTo() throws Exception {
        loadSample(pg.server(0));
        JdbcCopier everything =
                (JdbcCopier) Backupers.byName("jdbcCopy", Map.of("skipTablePrefix", "", "batchSize", "2"));
        everything.copy(endpoint(pg.server(0)), endpoint(pg.server(1)), CopyProgress.NONE);
        try (Connection source = pg.server(0).connect();
                Connection target = pg.server(1).connect()) {
            assertThat(TableChecksum.postgresChecksums(target)).isEqualTo(TableChecksum.postgresChecksums(source));
        }
    }

    private static void loadSample(EmbeddedPostgresServer server) throws SQLException {
        try (Connection c = server.connect()) {
            SampleDatabase.createOnPostgres(c);
        }
    }

    private static Map<String, String> withoutControllerTables(Map<String, String> checksums) {
        Map<String, String> copy = new TreeMap<>(checksums);
        copy.keySet().removeIf(table -> table.startsWith("raidb_"));
        return copy;
    }

    /** Secondary indexes of a table: name to "[unique ]col, col". */
    private static Map<String, String> indexes(Connection c, String table) throws SQLException {
        Map<String, String> indexes = new TreeMap<>();
        DatabaseMetaData meta = c.getMetaData();
        try (ResultSet rs = meta.getIndexInfo(
                c.getCatalog(), TableChecksum.isPostgreSql(c) ? "public" : null, table, false, true)) {
            while (rs.next()) {
                String name = rs.getString("INDEX_NAME");
                if (name == null) {
                    continue;
                }
                String column = rs.getString("COLUMN_NAME");
                indexes.merge(name, (rs.getBoolean("NON_UNIQUE") ? "" : "unique ") + column, (a, b) -> a + ", " + b);
            }
        }
        return indexes;
    }

    private void requireMariaDb() throws SQLException {
        Assumptions.assumeTrue(MariaDbServer.mariaDbAvailable(), "no MariaDB on 127.0.0.1:3306 (root, empty password)");
        MariaDbServer.recreateDatabase(MARIADB_DATABASE);
    }

    private static BackendEndpoint mariaDbEndpoint() {
        return new BackendEndpoint(MariaDbServer.jdbcUrl(MARIADB_DATABASE), MariaDbServer.USER, MariaDbServer.PASSWORD);
    }

    private static BackendEndpoint endpoint(EmbeddedPostgresServer server) {
        return new BackendEndpoint(server.jdbcUrl(), server.user(), server.password());
    }

    private static int unusedPort() throws Exception {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
