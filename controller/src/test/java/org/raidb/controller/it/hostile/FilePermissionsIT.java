package org.raidb.controller.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.test.PostgresClusterExtension;

/**
 * The recovery log holds every row written, dumps hold whole databases and the added-backends file holds
 * logins: whatever the process's umask, nothing the controller writes may be read by another user.
 */
class FilePermissionsIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    private static final Set<PosixFilePermission> GROUP_OR_OTHERS = EnumSet.of(
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_EXECUTE);

    @TempDir
    Path dir;

    @BeforeEach
    void freshDatabases() throws Exception {
        pg.cluster().ensureAllRunning();
        pg.cluster().recreateDatabases();
        try (Connection c = pg.server(0).connect();
                Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS shop_added");
            st.execute("CREATE DATABASE shop_added");
        }
    }

    @Test
    void nothingUnderDataDirIsReadableByGroupOrOthersAfterWritesABackupAnAddAndARestart() throws Exception {
        // jdbcCopy dumps are H2 files, which H2 creates with the process's umask.
        var config = pg.controllerConfig("shop").extraXml("<backup backuper=\"jdbcCopy\"/>");
        try (ControllerFixture raidb = ControllerFixture.start(config, "shop", dir)) {
            write(
                    raidb,
                    "CREATE TABLE orders (id INT PRIMARY KEY, item TEXT)",
                    "INSERT INTO orders VALUES (1, 'secret')");
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            vdb.dumps().backup(vdb.backend("pg2"), "nightly").run(Progress.NONE);
            vdb.dumps()
                    .addBackend(
                            new BackendConfig(
                                    "pg3",
                                    pg.server(0).jdbcUrl("shop_added"),
                                    pg.server(0).user(),
                                    pg.server(0).password(),
                                    1,
                                    5,
                                    List.of()),
                            "pg1",
                            null)
                    .run(Progress.NONE);
        }
        try (ControllerFixture restarted = ControllerFixture.start(config, "shop", dir)) {
            write(restarted, "INSERT INTO orders VALUES (2, 'after restart')");
        }

        Path data = dir.resolve("data");
        assertThat(data.resolve("recovery-log").resolve("shop.mv.db")).isRegularFile();
        assertThat(data.resolve("dumps").resolve("shop").resolve("nightly.jdbcCopy"))
                .isRegularFile();
        assertThat(data.resolve("added-backends").resolve("shop.json")).isRegularFile();
        List<String> readableByOthers = new ArrayList<>();
        try (Stream<Path> all = Files.walk(data)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Set<PosixFilePermission> mode = Files.getPosixFilePermissions(p);
                if (mode.stream().anyMatch(GROUP_OR_OTHERS::contains)) {
                    readableByOthers.add(data.relativize(p) + " " + PosixFilePermissions.toString(mode));
                }
            }
        }
        assertThat(readableByOthers)
                .as("files and directories under dataDir open to group or others")
                .isEmpty();
    }

    private static void write(ControllerFixture raidb, String... statements) throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        }
    }
}
