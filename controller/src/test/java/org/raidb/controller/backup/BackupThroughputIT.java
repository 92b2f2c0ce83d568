package org.raidb.controller.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.recovery.Backupers;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.MariaDbServer;
import org.raidb.test.PostgresClusterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rows per second of each backuper, logged (see the failsafe output file) and checked for
 * correctness, never for speed: figures depend on the machine. 20,000 rows by default so that the
 * suite stays short; the figures in docs/backup.md come from {@code -Draidb.backupBenchRows=200000}.
 */
class BackupThroughputIT {

    private static final Logger log = LoggerFactory.getLogger(BackupThroughputIT.class);
    private static final int ROWS = Integer.getInteger("raidb.backupBenchRows", 20_000);
    private static final String MARIADB_DATABASE =
            "raidb_backup_bench_" + ProcessHandle.current().pid();

    @RegisterExtension
    static PostgresClusterExtension pg = PostgresClusterExtension.servers(2).database("bench");

    @TempDir
    Path dir;

    @BeforeAll
    static void fillSource() throws SQLException {
        try (Connection c = pg.server(0).connect()) {
            SampleDatabase.execute(
                    c,
                    "CREATE TABLE bench (id bigserial PRIMARY KEY, name text, amount numeric(12,2), created timestamptz, flag boolean,"
                            + " token uuid, payload bytea)",
                    "INSERT INTO bench (name, amount, created, flag, token, payload) SELECT 'name ' || g, g / 100.0,"
                            + " timestamptz '2024-01-01 00:00:00+00' + g * interval '1 second', g % 2 = 0, md5(g::text)::uuid,"
                            + " decode(md5(g::text), 'hex') FROM generate_series(1, " + ROWS + ") g",
                    "VACUUM ANALYZE bench");
        }
    }

    /** The source stays; each test starts from an empty target. */
    @AfterEach
    void emptyTarget() throws SQLException {
        try (Connection target = pg.server(1).connect()) {
            SampleDatabase.execute(target, "DROP TABLE IF EXISTS bench");
        }
    }

    @AfterAll
    static void dropMariaDb() throws SQLException {
        if (MariaDbServer.mariaDbAvailable()) {
            MariaDbServer.dropDatabase(MARIADB_DATABASE);
        }
    }

    @Test
    void pgDumpAndRestore() throws Exception {
        dumpAndRestore(Backupers.byName("pgDump", Map.of()));
    }

    @Test
    void jdbcCopyBetweenPostgresServersAndThroughADump() throws Exception {
        Backuper backuper = Backupers.byName("jdbcCopy", Map.of());
        long copied = timed(() -> backuper.copy(endpoint(pg.server(0)), endpoint(pg.server(1)), CopyProgress.NONE));
        log.info(
                "jdbcCopy copy PostgreSQL -> PostgreSQL: {} rows in {} ms = {} rows/s",
                ROWS,
                copied,
                perSecond(copied));
        assertSameOnPostgres();

        dumpAndRestore(backuper);
    }

    @Test
    void jdbcCopyFromPostgresToMariaDb() throws Exception {
        Assumptions.assumeTrue(MariaDbServer.mariaDbAvailable(), "no MariaDB on 127.0.0.1:3306 (root, empty password)");
        MariaDbServer.recreateDatabase(MARIADB_DATABASE);
        Backuper backuper = Backupers.byName("jdbcCopy", Map.of());
        BackendEndpoint maria = new BackendEndpoint(
                MariaDbServer.jdbcUrl(MARIADB_DATABASE), MariaDbServer.USER, MariaDbServer.PASSWORD);
        long copied = timed(() -> backuper.copy(endpoint(pg.server(0)), maria, CopyProgress.NONE));
        log.info("jdbcCopy copy PostgreSQL -> MariaDB: {} rows in {} ms = {} rows/s", ROWS, copied, perSecond(copied));
        try (Connection source = pg.server(0).connect();
                Connection target = MariaDbServer.connect(MARIADB_DATABASE)) {
            assertThat(TableChecksum.portableChecksums(target)).isEqualTo(TableChecksum.portableChecksums(source));
        }
    }

    private void dumpAndRestore(Backuper backuper) throws Exception {
        Path dump = dir.resolve("bench." + backuper.name());
        long dumpMillis = timed(() -> backuper.dump(endpoint(pg.server(0)), dump, CopyProgress.NONE));
        long restoreMillis = timed(() -> backuper.restore(dump, endpoint(pg.server(1)), CopyProgress.NONE));
        log.info(
                "{} dump: {} rows in {} ms = {} rows/s, {} bytes; restore: {} ms = {} rows/s; dump + restore: {} rows/s",
                backuper.name(),
                ROWS,
                dumpMillis,
                perSecond(dumpMillis),
                Files.size(dump),
                restoreMillis,
                perSecond(restoreMillis),
                perSecond(dumpMillis + restoreMillis));
        assertSameOnPostgres();
    }

    private static void assertSameOnPostgres() throws SQLException {
        try (Connection source = pg.server(0).connect();
                Connection target = pg.server(1).connect()) {
            assertThat(TableChecksum.postgresChecksums(target)).isEqualTo(TableChecksum.postgresChecksums(source));
        }
    }

    private static long perSecond(long millis) {
        return millis == 0 ? 0 : ROWS * 1000L / millis;
    }

    private interface Work {
        void run() throws Exception;
    }

    private static long timed(Work work) throws Exception {
        long begin = System.nanoTime();
        work.run();
        return (System.nanoTime() - begin) / 1_000_000;
    }

    private static BackendEndpoint endpoint(EmbeddedPostgresServer server) {
        return new BackendEndpoint(server.jdbcUrl(), server.user(), server.password());
    }
}
