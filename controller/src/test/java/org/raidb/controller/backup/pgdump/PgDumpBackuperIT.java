package org.raidb.controller.backup.pgdump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.backup.BackendEndpoint;
import org.raidb.controller.backup.BackupException;
import org.raidb.controller.backup.CopyProgress;
import org.raidb.controller.backup.DumpResult;
import org.raidb.controller.backup.LiveDumps;
import org.raidb.controller.backup.RecordingProgress;
import org.raidb.controller.backup.RecordingProgress.Step;
import org.raidb.controller.backup.SampleDatabase;
import org.raidb.controller.recovery.Backupers;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

class PgDumpBackuperIT {

    @RegisterExtension
    static PostgresClusterExtension pg = PostgresClusterExtension.servers(2).database("shop");

    @TempDir
    Path dir;

    private final PgDumpBackuper backuper = (PgDumpBackuper) Backupers.byName("pgDump", Map.of());

    @AfterEach
    void emptyDatabases() {
        pg.cluster().recreateDatabases();
    }

    @Test
    void dumpAndRestoreIntoAnEmptyServerGivesTheSameTablesAndSequences() throws Exception {
        loadSample(pg.server(0));
        Path dump = dir.resolve("shop.pgdump");
        RecordingProgress dumping = new RecordingProgress();
        DumpResult result = backuper.dump(endpoint(pg.server(0)), dump, dumping);

        assertThat(result.format()).isEqualTo("pgDump");
        assertThat(result.path()).isEqualTo(dump);
        assertThat(result.sizeBytes()).isEqualTo(Files.size(dump)).isPositive();
        assertThat(result.tables()).isEqualTo(4); // raidb_internal too: pg_dump copies the whole database
        assertThat(result.rows()).isEqualTo(4 + 3 + 1);
        assertThat(dumping.steps()).containsExactly(new Step("dumping", "rows", 8, 8));
        assertThat(Files.list(dir)).containsExactly(dump); // no partial file left behind

        RecordingProgress restoring = new RecordingProgress();
        backuper.restore(dump, endpoint(pg.server(1)), restoring);
        assertThat(restoring.steps()).containsExactly(new Step("restoring", "tables", 4, 4));
        assertSameAsSource(pg.server(1));
    }

    @Test
    void restoreReplacesAnOlderCopyOfTheSameTables() throws Exception {
        loadSample(pg.server(0));
        try (Connection target = pg.server(1).connect()) {
            SampleDatabase.createOnPostgres(target);
            // older: rows the dump does not have, one it has changed, a sequence further on, a table left alone
            SampleDatabase.execute(
                    target,
                    "UPDATE customers SET balance = 99 WHERE id = 1",
                    "DELETE FROM orders WHERE id = 3",
                    "INSERT INTO customers (name) VALUES ('stale')",
                    "SELECT setval('invoice_numbers', 500)",
                    "CREATE TABLE unrelated (id int)",
                    "INSERT INTO unrelated VALUES (7)");
        }
        Path dump = dir.resolve("shop.pgdump");
        backuper.dump(endpoint(pg.server(0)), dump, CopyProgress.NONE);
        backuper.restore(dump, endpoint(pg.server(1)), CopyProgress.NONE);
        assertSameAsSource(pg.server(1));
        try (Connection target = pg.server(1).connect()) {
            assertThat(TableChecksum.rowCount(target, "unrelated")).isEqualTo(1);
        }
    }

    @Test
    void copyGoesFromServerToServerThroughATemporaryDump() throws Exception {
        loadSample(pg.server(0));
        Path temp = Files.createDirectories(dir.resolve("tmp"));
        PgDumpBackuper withTempDir = (PgDumpBackuper) Backupers.byName("pgDump", Map.of("tempDir", temp.toString()));
        RecordingProgress progress = new RecordingProgress();
        withTempDir.copy(endpoint(pg.server(0)), endpoint(pg.server(1)), progress);
        assertSameAsSource(pg.server(1));
        assertThat(progress.steps()).extracting(Step::name).containsExactly("dumping", "restoring");
        assertThat(Files.list(temp)).isEmpty();
    }

    @Test
    void writesAfterSnapshotTakenAreNotInTheDumpNorTheSequenceValuesTheyDrew() throws Exception {
        loadSample(pg.server(0));
        Map<String, String> before;
        try (Connection source = pg.server(0).connect()) {
            before = TableChecksum.postgresChecksums(source);
        }
        Path dump = dir.resolve("live.pgdump");
        DumpResult result =
                LiveDumps.dumpWritingAfterSnapshot(backuper, endpoint(pg.server(0)), dump, pg.server(0)::connect);

        assertThat(result.rows()).as("rows at the snapshot").isEqualTo(4 + 3 + 1);
        backuper.restore(dump, endpoint(pg.server(1)), CopyProgress.NONE);
        try (Connection copy = pg.server(1).connect()) {
            assertThat(TableChecksum.postgresChecksums(copy)).isEqualTo(before);
            SampleDatabase.assertKeysContinue(copy); // the sequences as they were at the snapshot too
        }
    }

    @Test
    void snapshotTakenRunsOnceWhenTheSourceIsUnreachable() throws Exception {
        LiveDumps.assertSnapshotTakenRunsWhenTheSourceIsUnreachable(backuper, dir);
    }

    @Test
    void aMissingDumpFileIsNamed() {
        Path missing = dir.resolve("none.pgdump");
        assertThatThrownBy(() -> backuper.restore(missing, endpoint(pg.server(1)), CopyProgress.NONE))
                .isInstanceOf(BackupException.class)
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("does not exist")
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo("58P01");
    }

    @Test
    void aFileThatIsNotADumpIsReportedInPgRestoresWordsAndTheTargetIsUntouched() throws Exception {
        try (Connection target = pg.server(1).connect()) {
            SampleDatabase.execute(target, "CREATE TABLE kept (id int)", "INSERT INTO kept VALUES (1)");
        }
        Path notADump = Files.writeString(dir.resolve("notes.txt"), "these are not the rows you are looking for\n");
        assertThatThrownBy(() -> backuper.restore(notADump, endpoint(pg.server(1)), CopyProgress.NONE))
                .isInstanceOf(BackupException.class)
                .hasMessageContaining("pg_restore failed reading " + notADump)
                .hasMessageContaining("input file does not appear to be a valid archive")
                .hasMessageContaining("not a dump written by pg_dump -Fc")
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo("58030");
        try (Connection target = pg.server(1).connect()) {
            assertThat(TableChecksum.rowCount(target, "kept")).isEqualTo(1);
        }
    }

    @Test
    void aRestoreThatFailsHalfWayLeavesTheTargetAsItWas() throws Exception {
        loadSample(pg.server(0));
        Path dump = dir.resolve("shop.pgdump");
        backuper.dump(endpoint(pg.server(0)), dump, CopyProgress.NONE);
        try (Connection target = pg.server(1).connect()) {
            SampleDatabase.createOnPostgres(target);
            // a view on customers makes pg_restore's DROP TABLE customers fail
            SampleDatabase.execute(
                    target,
                    "UPDATE customers SET balance = 99 WHERE id = 1",
                    "CREATE VIEW rich AS SELECT * FROM customers WHERE balance > 50");
        }
        assertThatThrownBy(() -> backuper.restore(dump, endpoint(pg.server(1)), CopyProgress.NONE))
                .isInstanceOf(BackupException.class)
                .hasMessageContaining("pg_restore failed restoring")
                .hasMessageContaining("other objects depend on it")
                .hasMessageContaining("The target is unchanged");
        try (Connection target = pg.server(1).connect()) {
            assertThat(TableChecksum.rowCount(target, "customers WHERE id = 1 AND balance = 99"))
                    .isEqualTo(1);
            assertThat(TableChecksum.rowCount(target, "rich")).isEqualTo(2);
        }
    }

    @Test
    void anUnreachableSourceIs08001NamingTheUrl() throws Exception {
        String url = "jdbc:postgresql://127.0.0.1:" + unusedPort() + "/shop";
        assertThatThrownBy(() -> backuper.dump(
                        new BackendEndpoint(url, "postgres", "secret"), dir.resolve("x.pgdump"), CopyProgress.NONE))
                .isInstanceOf(BackupException.class)
                .hasMessageContaining("cannot connect to postgres@" + url)
                .hasMessageNotContaining("secret")
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo("08001");
        assertThat(Files.list(dir)).isEmpty();
    }

    @Test
    void aToolsDirWithoutTheToolsNamesThePackageToInstall() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("no-tools"));
        PgDumpBackuper misconfigured = new PgDumpBackuper(Optional.of(empty), Optional.empty());
        assertThatThrownBy(() -> misconfigured.dump(endpoint(pg.server(0)), dir.resolve("x.pgdump"), CopyProgress.NONE))
                .isInstanceOf(BackupException.class)
                .hasMessageContaining("toolsDir " + empty)
                .hasMessageContaining("postgresql-client")
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo("58030");
    }

    @Test
    void otherProductsAreSentToJdbcCopy() {
        assertThatThrownBy(() -> backuper.dump(
                        new BackendEndpoint("jdbc:mariadb://127.0.0.1/shop", "root", ""),
                        dir.resolve("x"),
                        CopyProgress.NONE))
                .hasMessageContaining("works on PostgreSQL only")
                .hasMessageContaining("jdbcCopy")
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo("0A000");
    }

    private static void loadSample(EmbeddedPostgresServer server) throws SQLException {
        try (Connection c = server.connect()) {
            SampleDatabase.createOnPostgres(c);
        }
    }

    /** Checksums computed by PostgreSQL (the row text, so types must match too), then keys and sequences. */
    private static void assertSameAsSource(EmbeddedPostgresServer target) throws SQLException {
        try (Connection source = pg.server(0).connect();
                Connection copy = target.connect()) {
            Map<String, String> expected = TableChecksum.postgresChecksums(source);
            assertThat(TableChecksum.postgresChecksums(copy)).containsAllEntriesOf(expected);
            SampleDatabase.assertKeysContinue(copy);
        }
    }

    static BackendEndpoint endpoint(EmbeddedPostgresServer server) {
        return new BackendEndpoint(server.jdbcUrl(), server.user(), server.password());
    }

    private static int unusedPort() throws Exception {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
