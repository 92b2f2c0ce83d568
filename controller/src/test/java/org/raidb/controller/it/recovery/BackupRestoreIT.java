package org.raidb.controller.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.recovery.DumpRecord;
import org.raidb.test.MariaDbServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * Backup, restore and add backend, each while 16 clients keep writing: afterwards every backend is
 * identical and holds every write a client was told succeeded.
 */
class BackupRestoreIT {
    @RegisterExtension
    // On disk: backends are enabled by replay while 16 clients write, and on tmpfs the clients commit so much
    // faster than the replay applies that catching up took minutes instead of seconds.
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(4).database("shop");

    @BeforeEach
    void freshDatabases() {
        pg.cluster().ensureAllRunning();
        pg.cluster().recreateDatabases();
    }

    private static ControllerFixture threeBackends() throws Exception {
        return ControllerFixture.start(
                pg.controllerConfig("shop").backends(pg.cluster().servers().subList(0, 3)), "shop");
    }

    @Test
    void backupThenRestoreAndEnableUnderLoad() throws Exception {
        try (ControllerFixture raidb = threeBackends()) {
            AcknowledgedWrites.createSchema(raidb.url());
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            DatabaseBackend pg2 = vdb.backend("pg2");
            AcknowledgedWrites writes = AcknowledgedWrites.start(raidb.url(), 16, AcknowledgedWrites.PACE);
            try (writes) {
                writes.awaitMore(300);
                DumpRecord dump = vdb.dumps().backup(pg2, "nightly").run(Progress.NONE);

                assertThat(pg2.isEnabled()).as("pg2 back after its backup").isTrue();
                assertThat(dump.backend()).isEqualTo("pg2");
                assertThat(dump.checkpoint()).startsWith("pg2-disabled-");
                assertThat(java.nio.file.Files.size(java.nio.file.Path.of(dump.path())))
                        .isEqualTo(dump.sizeBytes())
                        .isPositive();
                writes.awaitMore(300);

                vdb.disableBackend(pg2, "test: to restore the nightly dump").join();
                writes.awaitMore(300);
                vdb.dumps().restore(pg2, "nightly").run(Progress.NONE);
                assertThat(pg2.lastCheckpoint()).isEqualTo(dump.checkpoint());
                vdb.recovery().enable(pg2).run(Progress.NONE);
                assertThat(pg2.isEnabled()).isTrue();
                writes.awaitMore(300);
                writes.stop();
                assertThat(writes.errors).as("errors clients saw").isEmpty();
            }
            BackendRecoveryIT.assertIdenticalAndComplete(
                    writes, pg.cluster().servers().subList(0, 3));
        }
    }

    @Test
    void aNewEmptyPostgresqlBackendIsAddedOnline() throws Exception {
        EmbeddedPostgresServer fresh = pg.server(3);
        try (ControllerFixture raidb = threeBackends()) {
            AcknowledgedWrites.createSchema(raidb.url());
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            AcknowledgedWrites writes = AcknowledgedWrites.start(raidb.url(), 16, AcknowledgedWrites.PACE);
            try (writes) {
                writes.awaitMore(300);
                DatabaseBackend added = vdb.dumps()
                        .addBackend(
                                new BackendConfig(
                                        fresh.name(),
                                        fresh.jdbcUrl(),
                                        fresh.user(),
                                        fresh.password(),
                                        1,
                                        20,
                                        List.of()),
                                null,
                                null)
                        .run(Progress.NONE);
                assertThat(added.isEnabled()).isTrue();
                assertThat(vdb.backends())
                        .extracting(DatabaseBackend::name)
                        .containsExactly("pg1", "pg2", "pg3", "pg4");
                assertThat(vdb.backends()).allMatch(DatabaseBackend::isEnabled);
                writes.awaitMore(300);
                writes.stop();
                assertThat(writes.errors).as("errors clients saw").isEmpty();
            }
            BackendRecoveryIT.assertIdenticalAndComplete(writes, pg.cluster().servers());
        }
    }

    @Test
    void theLocalMariaDbIsAddedAsAHeterogeneousBackend() throws Exception {
        assumeTrue(
                MariaDbServer.mariaDbAvailable(),
                "no MariaDB accepts root on 127.0.0.1:3306: heterogeneous add skipped");
        String database = "raidb_add_backend_it";
        MariaDbServer.recreateDatabase(database);
        try (ControllerFixture raidb = threeBackends()) {
            AcknowledgedWrites.createSchema(raidb.url());
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            AcknowledgedWrites writes = AcknowledgedWrites.start(raidb.url(), 16, AcknowledgedWrites.PACE);
            try (writes) {
                writes.awaitMore(300);
                DatabaseBackend maria = vdb.dumps()
                        .addBackend(
                                new BackendConfig(
                                        "maria",
                                        MariaDbServer.jdbcUrl(database),
                                        MariaDbServer.USER,
                                        MariaDbServer.PASSWORD,
                                        1,
                                        20,
                                        List.of()),
                                "pg1",
                                null)
                        .run(Progress.NONE);
                assertThat(maria.isEnabled()).as(maria.disabledReason()).isTrue();
                writes.awaitMore(300);
                writes.stop();
                assertThat(writes.errors).as("errors clients saw").isEmpty();
            }
            Map<String, String> postgres;
            try (Connection c = pg.server(0).connect()) {
                postgres = TableChecksum.portableChecksums(c);
            }
            try (Connection c = MariaDbServer.connect(database)) {
                assertThat(TableChecksum.portableChecksums(c)).isEqualTo(postgres);
                // Set lookups: AssertJ's containsAll compares each pair, too slow for the 10^5 writes a run makes.
                Set<Long> present = ids(c);
                assertThat(writes.acknowledged.stream().filter(id -> !present.contains(id)))
                        .as("acknowledged writes missing on MariaDB")
                        .isEmpty();
                assertThat(writes.rolledBack.stream().filter(present::contains))
                        .as("rolled-back writes present on MariaDB")
                        .isEmpty();
            }
        } finally {
            MariaDbServer.dropDatabase(database);
        }
    }

    private static Set<Long> ids(Connection c) throws Exception {
        Set<Long> ids = new HashSet<>();
        try (ResultSet rs = c.createStatement().executeQuery("SELECT id FROM events")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }
}
