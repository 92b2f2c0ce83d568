package org.raidb.controller.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backup.BackendEndpoint;
import org.raidb.controller.backup.CopyProgress;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.recovery.Backupers;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.recovery.TransferDump;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * The backup side of a joining controller's catch-up: a live dump of a serving backend of one
 * controller (pg1, pg2), loaded into every backend of another controller's virtual database (pg3,
 * pg4).
 */
class TransferDumpIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(4).database("shop");

    @TempDir
    Path dir;

    @BeforeEach
    void freshDatabases() {
        pg.cluster().ensureAllRunning();
        pg.cluster().recreateDatabases();
    }

    private static ControllerFixture donor(String backuper) throws Exception {
        return ControllerFixture.start(
                pg.controllerConfig("shop")
                        .backends(List.of(pg.server(0), pg.server(1)))
                        .extraXml("<backup backuper=\"" + backuper + "\"/>"),
                "shop");
    }

    private static ControllerFixture joiner() throws Exception {
        return ControllerFixture.start(
                pg.controllerConfig("shop").backends(List.of(pg.server(2), pg.server(3))), "shop");
    }

    @ParameterizedTest
    @ValueSource(strings = {"pgDump", "jdbcCopy"})
    void aLiveDumpShowsTheBackendAsItWasWhenSnapshotTakenRanWhileItKeepsServing(String backuper) throws Exception {
        try (ControllerFixture donor = donor(backuper);
                Connection app = donor.connect()) {
            createItems(app, 3);
            VirtualDatabase vdb = donor.controller().virtualDatabase("shop");
            DatabaseBackend pg1 = vdb.backend("pg1");
            Map<String, String> atSnapshot = checksums(pg.server(0));
            List<String> callbacks = new ArrayList<>();

            TransferDump dump = vdb.dumps().dumpLive(pg1, dir.resolve("live." + backuper), () -> {
                callbacks.add(Thread.currentThread().getName() + ", pg1 enabled: " + pg1.isEnabled());
                // Written through the virtual database by the callback itself, so committed on pg1 before the dump
                // reads anything after the callback: a dump whose snapshot came later would hold the row, and the
                // key it drew from the sequence.
                execute(app, "INSERT INTO items (name) VALUES ('after the snapshot')");
            });

            assertThat(callbacks).containsExactly(Thread.currentThread().getName() + ", pg1 enabled: true");
            donor.assertEveryBackendEnabled();
            assertThat(count(pg.server(0), "name = 'after the snapshot'"))
                    .as("the write reached pg1 while it was dumped")
                    .isEqualTo(1);
            assertThat(dump.format()).isEqualTo(backuper);
            assertThat(dump.rows()).isEqualTo(3);
            assertThat(dump.sizeBytes()).isEqualTo(Files.size(dump.path())).isPositive();
            assertThat(vdb.dumps().dumps()).as("dump registry").isEmpty();

            Backupers.byName(dump.format(), Map.of()).restore(dump.path(), endpoint(pg.server(2)), CopyProgress.NONE);
            assertThat(checksums(pg.server(2))).isEqualTo(atSnapshot);
            try (Connection copy = pg.server(2).connect()) {
                assertThat(nextKey(copy))
                        .as("items' next key, from the sequence as it was")
                        .isEqualTo(4);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"pgDump", "jdbcCopy"})
    void aTransferLoadedIntoEveryBackendLeavesThemEnabledIdenticalToTheSourceAndLogged(String backuper)
            throws Exception {
        try (ControllerFixture donor = donor(backuper);
                ControllerFixture joiner = joiner()) {
            try (Connection app = donor.connect()) {
                createItems(app, 3);
            }
            VirtualDatabase jv = joiner.controller().virtualDatabase("shop");
            DatabaseBackend pg3 = jv.backend("pg3");
            DatabaseBackend pg4 = jv.backend("pg4");
            try (Connection old = joiner.connect()) {
                createItems(old, 5);
                // pg4 is left out (as a crash would leave it) and falls behind pg3: the two differ before the load
                jv.disableBackend(pg4, "test: left disabled").join();
                execute(old, "INSERT INTO items (name) VALUES ('only on pg3')");
            }
            VirtualDatabase dv = donor.controller().virtualDatabase("shop");
            TransferDump dump = dv.dumps().dumpLive(dv.backend("pg1"), dir.resolve("transfer"), () -> {});
            Map<String, String> source = checksums(pg.server(0));

            // One after the other, pg3 the only enabled one at first: while it loads, none is.
            for (DatabaseBackend b : jv.backends()) {
                jv.dumps().loadTransfer(b, dump.path(), dump.format(), Progress.NONE);
            }

            joiner.assertEveryBackendEnabled();
            assertThat(checksums(pg.server(2))).isEqualTo(source);
            assertThat(checksums(pg.server(3))).isEqualTo(source);
            try (Connection app = joiner.connect()) {
                execute(app, "INSERT INTO items (name) VALUES ('through the joiner')");
                assertThat(count(pg.server(2), "id = 4 AND name = 'through the joiner'"))
                        .isEqualTo(1);
                assertThat(count(pg.server(3), "id = 4 AND name = 'through the joiner'"))
                        .isEqualTo(1);
                // The joiner's log holds what came after the load: pg4 catches up by replay.
                jv.disableBackend(pg4, "test: to enable it by replay").join();
                execute(app, "INSERT INTO items (name) VALUES ('while pg4 is out')");
                jv.recovery().enable(pg4).run(Progress.NONE);
            }
            joiner.assertEveryBackendEnabled();
            assertThat(checksums(pg.server(3)))
                    .isEqualTo(checksums(pg.server(2)))
                    .isNotEqualTo(source);
            assertThat(count(pg.server(3), "name = 'while pg4 is out'")).isEqualTo(1);
            assertThat(pg3.isEnabled()).isTrue();
        }
    }

    @Test
    void aMissingOrCorruptTransferFileIsRefusedAndTheVirtualDatabaseGoesOn() throws Exception {
        try (ControllerFixture joiner = joiner();
                Connection app = joiner.connect()) {
            createItems(app, 2);
            VirtualDatabase jv = joiner.controller().virtualDatabase("shop");
            DatabaseBackend pg3 = jv.backend("pg3");
            DatabaseBackend pg4 = jv.backend("pg4");

            Path missing = dir.resolve("missing.pgdump");
            assertThatThrownBy(() -> jv.dumps().loadTransfer(pg4, missing, "pgDump", Progress.NONE))
                    .isInstanceOfSatisfying(
                            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("58P01"))
                    .hasMessageContaining(missing.toString())
                    .hasMessageContaining("pg4 was left as it was");
            assertThatThrownBy(() -> jv.dumps().loadTransfer(pg4, missing, "zip", Progress.NONE))
                    .isInstanceOfSatisfying(
                            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22023"))
                    .hasMessageContaining("format 'zip'");
            joiner.assertEveryBackendEnabled();

            Path corrupt = Files.writeString(dir.resolve("corrupt.pgdump"), "not a dump");
            assertThatThrownBy(() -> jv.dumps().loadTransfer(pg4, corrupt, "pgDump", Progress.NONE))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining(corrupt.toString());
            assertThat(pg4.isEnabled()).isFalse();
            assertThat(pg4.lastCheckpoint())
                    .as("a failed load leaves no checkpoint to replay from")
                    .isNull();
            assertThat(pg4.disabledReason())
                    .contains("transfer file " + corrupt)
                    .contains("load a new transfer file")
                    .contains("restore pg4 from DUMP");

            assertThat(pg3.isEnabled()).isTrue();
            execute(app, "INSERT INTO items (name) VALUES ('without pg4')");
            assertThat(count(pg.server(2), "name = 'without pg4'")).isEqualTo(1);
            List<Boolean> ran = new ArrayList<>();
            assertThatThrownBy(() -> jv.dumps().dumpLive(pg4, dir.resolve("out"), () -> ran.add(true)))
                    .isInstanceOfSatisfying(
                            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("55000"));
            assertThat(ran)
                    .as("snapshotTaken runs even when the dump is refused")
                    .containsExactly(true);

            // pg4 comes back from a transfer of pg3, taken while no one writes.
            TransferDump fromPg3 = jv.dumps().dumpLive(pg3, dir.resolve("from-pg3"), () -> {});
            jv.dumps().loadTransfer(pg4, fromPg3.path(), fromPg3.format(), Progress.NONE);
            joiner.assertEveryBackendEnabled();
            assertThat(checksums(pg.server(3))).isEqualTo(checksums(pg.server(2)));
        }
    }

    @Test
    void loadingIntoAnUnreachableBackendIs08001NamingItAndLeavesItDisabled() throws Exception {
        try (ControllerFixture joiner = joiner();
                Connection app = joiner.connect()) {
            createItems(app, 2);
            VirtualDatabase jv = joiner.controller().virtualDatabase("shop");
            TransferDump fromPg3 = jv.dumps().dumpLive(jv.backend("pg3"), dir.resolve("from-pg3"), () -> {});
            DatabaseBackend pg4 = jv.backend("pg4");
            pg.server(3).kill();

            assertThatThrownBy(() -> jv.dumps().loadTransfer(pg4, fromPg3.path(), fromPg3.format(), Progress.NONE))
                    .isInstanceOfSatisfying(
                            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("08001"))
                    .hasMessageContaining(pg.server(3).jdbcUrl());
            assertThat(pg4.isEnabled()).isFalse();
            assertThat(pg4.disabledReason()).contains("cannot connect").contains("load a new transfer file");
            execute(app, "INSERT INTO items (name) VALUES ('without pg4')");
            assertThat(count(pg.server(2), "name = 'without pg4'")).isEqualTo(1);
        }
    }

    @Test
    void aLiveDumpOfAnUnreachableBackendIs08001AndStillRunsSnapshotTaken() throws Exception {
        try (ControllerFixture donor = donor("pgDump")) {
            try (Connection app = donor.connect()) {
                createItems(app, 1);
            }
            VirtualDatabase vdb = donor.controller().virtualDatabase("shop");
            pg.server(1).kill();
            List<Boolean> ran = new ArrayList<>();
            assertThatThrownBy(() -> vdb.dumps().dumpLive(vdb.backend("pg2"), dir.resolve("x"), () -> ran.add(true)))
                    .isInstanceOfSatisfying(
                            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("08001"))
                    .hasMessageContaining(pg.server(1).jdbcUrl());
            assertThat(ran).containsExactly(true);
        }
    }

    private static void createItems(Connection c, int rows) throws SQLException {
        execute(c, "CREATE TABLE items (id serial PRIMARY KEY, name text NOT NULL)");
        for (int i = 1; i <= rows; i++) {
            execute(c, "INSERT INTO items (name) VALUES ('item " + i + "')");
        }
    }

    /** Runs from a snapshotTaken callback too, which cannot throw SQLException. */
    private static void execute(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " failed", e);
        }
    }

    private static long count(EmbeddedPostgresServer server, String where) throws SQLException {
        try (Connection c = server.connect();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM items WHERE " + where)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long nextKey(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT nextval(pg_get_serial_sequence('items', 'id'))")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Per-table checksums of a server, read straight through pgjdbc. */
    private static Map<String, String> checksums(EmbeddedPostgresServer server) throws SQLException {
        try (Connection c = server.connect()) {
            return new TreeMap<>(TableChecksum.checksums(c));
        }
    }

    private static BackendEndpoint endpoint(EmbeddedPostgresServer server) {
        return new BackendEndpoint(server.jdbcUrl(), server.user(), server.password());
    }
}
