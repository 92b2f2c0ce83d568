package org.raidb.controller.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.Controller;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.config.ConfigLoader;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.recovery.LogEntry;
import org.raidb.recovery.RecoveryLog;
import org.raidb.recovery.RecoveryLogConfig;
import org.raidb.recovery.ReplayCursor;
import org.raidb.test.PostgresClusterExtension;

/**
 * A controller process killed with kill -9 while 16 clients write: every write a client was told
 * succeeded is in the recovery log, and the restarted controller brings the backends back in the
 * states the log recorded (a backend disabled before the crash stays disabled at its checkpoint).
 */
class ControllerCrashIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    @Test
    void noAcknowledgedWriteIsMissingAfterTheControllerIsKilledAndBackendsComeBackInTheirStates() throws Exception {
        pg.cluster().ensureAllRunning();
        pg.cluster().recreateDatabases();
        Path dir = Files.createTempDirectory("raidb-crash");
        Path data = dir.resolve("data");
        int port = freePort();
        Path config = pg.controllerConfig("shop").port(port).dataDir(data).writeTo(dir.resolve("raidb.xml"));
        String url = "jdbc:raidb://127.0.0.1:" + port + "/shop";
        EmbeddedPostgresServer pg3 = pg.server(2);

        Process controller = startControllerProcess(config, dir.resolve("controller.log"));
        Set<Long> acknowledged;
        try {
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
                DriverManager.getConnection(url, ControllerFixture.USER, ControllerFixture.PASSWORD)
                        .close();
                return true;
            });
            AcknowledgedWrites.createSchema(url);
            AcknowledgedWrites writes = AcknowledgedWrites.start(url, 16);
            writes.awaitMore(300);
            pg3.kill(); // leaves the array at a checkpoint, before the controller dies
            writes.awaitMore(600);
            // Its checkpoint is recorded once the writes it was running are settled; only then is it "left at a
            // checkpoint".
            Path controllerLog = dir.resolve("controller.log");
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> Files.readString(controllerLog)
                            .contains("backend pg3 of virtual database shop stopped at checkpoint"));
            assertThat(writes.errors)
                    .as("errors before the controller was killed")
                    .isEmpty();
            controller.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook, no final checkpoint
            writes.stop();
            acknowledged = new HashSet<>(writes.acknowledged);
        } finally {
            controller.destroyForcibly();
        }

        // The log (opened as the restarted controller will open it) holds every acknowledged write.
        Set<Long> logged;
        try (RecoveryLog log = RecoveryLog.open(RecoveryLogConfig.h2File(data, "shop"))) {
            logged = AcknowledgedWrites.loggedInserts(log);
            assertThat(log.backendStates().get("pg3").lastCheckpoint())
                    .as("pg3's recorded checkpoint")
                    .isNotNull();
        }
        assertThat(acknowledged).hasSizeGreaterThan(600);
        Set<Long> inLog = new java.util.HashSet<>(logged);
        assertThat(acknowledged.stream().filter(id -> !inLog.contains(id)))
                .as("acknowledged writes missing from the log")
                .isEmpty();

        pg3.start();
        try (Controller restarted = Controller.start(ConfigLoader.load(config))) {
            VirtualDatabase vdb = restarted.virtualDatabase("shop");
            DatabaseBackend b3 = vdb.backend("pg3");
            assertThat(b3.isEnabled()).as("pg3, disabled before the crash").isFalse();
            assertThat(b3.lastCheckpoint()).startsWith("pg3-disabled-");
            List<EmbeddedPostgresServer> enabled = new ArrayList<>();
            for (EmbeddedPostgresServer s : List.of(pg.server(0), pg.server(1))) {
                if (vdb.backend(s.name()).isEnabled()) {
                    enabled.add(s);
                } else {
                    assertThat(vdb.backend(s.name()).disabledReason()).contains("after a controller crash it differs");
                }
            }
            assertThat(enabled).as("backends enabled after the restart").isNotEmpty();
            Map<String, Map<String, String>> sums = ControllerFixture.checksums(enabled);
            assertThat(sums.values())
                    .allMatch(s -> s.equals(sums.values().iterator().next()));
            for (EmbeddedPostgresServer s : enabled) {
                try (Connection c = s.connect()) {
                    assertThat(AcknowledgedWrites.present(c, acknowledged))
                            .as("acknowledged writes on %s", s.name())
                            .isEqualTo(acknowledged.size());
                }
            }
            // The restarted controller serves and logs writes again.
            try (Connection c = DriverManager.getConnection(url, ControllerFixture.USER, ControllerFixture.PASSWORD);
                    var ps = c.prepareStatement(
                            "INSERT INTO events (id, writer, note, amount) VALUES (?, 99, 'after', ?)")) {
                ps.setLong(1, 999_000_000L);
                ps.setBigDecimal(2, BigDecimal.ONE);
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
        }
    }

    @Test
    void writesLeftInDoubtByACrashKeepTheLargestIdenticalGroupAndNoReplayCrossesThem() throws Exception {
        pg.cluster().ensureAllRunning();
        pg.cluster().recreateDatabases();
        Path dir = Files.createTempDirectory("raidb-doubt");
        Path data = dir.resolve("data");
        Path config = pg.controllerConfig("shop").dataDir(data).writeTo(dir.resolve("raidb.xml"));
        try (Controller c = Controller.start(ConfigLoader.load(config));
                Connection conn = DriverManager.getConnection(
                        "jdbc:raidb://127.0.0.1:" + c.port() + "/shop",
                        ControllerFixture.USER,
                        ControllerFixture.PASSWORD)) {
            conn.createStatement().execute("CREATE TABLE t (id INT PRIMARY KEY)");
            conn.createStatement().execute("INSERT INTO t VALUES (1)");
        }
        // As if the controller had died while running an insert that reached pg1 and pg2 but not pg3.
        long inDoubt;
        try (RecoveryLog log = RecoveryLog.open(RecoveryLogConfig.h2File(data, "shop"))) {
            inDoubt = log.append(LogEntry.autoCommitWrite("app", "INSERT INTO t VALUES (2)", null, List.of("t")));
        }
        for (EmbeddedPostgresServer s : List.of(pg.server(0), pg.server(1))) {
            try (Connection direct = s.connect()) {
                direct.createStatement().execute("INSERT INTO t VALUES (2)");
            }
        }

        try (Controller restarted = Controller.start(ConfigLoader.load(config))) {
            VirtualDatabase vdb = restarted.virtualDatabase("shop");
            assertThat(vdb.backend("pg1").isEnabled()).isTrue();
            assertThat(vdb.backend("pg2").isEnabled()).isTrue();
            DatabaseBackend b3 = vdb.backend("pg3");
            assertThat(b3.isEnabled()).isFalse();
            assertThat(b3.disabledReason())
                    .contains("after a controller crash it differs from pg1")
                    .contains("[" + inDoubt + "]");
            assertThat(b3.lastCheckpoint()).isNull();
            assertThatThrownBy(() -> vdb.recovery().enable(b3).run(org.raidb.controller.recovery.Progress.NONE))
                    .isInstanceOf(java.sql.SQLException.class)
                    .hasMessageContaining("no checkpoint to replay from")
                    .hasMessageContaining("restore it from a dump");
            // No replay from before the doubtful write may cross it.
            try (ReplayCursor cursor = vdb.writeLog().log().replayFrom(0)) {
                assertThatThrownBy(() -> cursor.nextBatch(100))
                        .hasMessageContaining("in doubt")
                        .hasMessageContaining("position " + inDoubt);
            }
        }
    }

    private static Process startControllerProcess(Path config, Path output) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        "org.raidb.controller.cli.ControllerCommand",
                        "--config",
                        config.toString())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
    }

    /** A port outside the ephemeral range: the controller is restarted on it after a kill. */
    private static int freePort() {
        return org.raidb.embedded.FreePort.pick();
    }
}
