package org.raidb.controller.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ForkedController;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.recovery.RecoveryLog;
import org.raidb.recovery.RecoveryLogConfig;
import org.raidb.test.PostgresClusterExtension;

/**
 * The recovery log's store runs out of disk (issue 15): a controller process that may write no file
 * larger than a few megabytes, so that its H2 log store hits the limit after thousands of writes (about 9,000 here).
 * From then on the controller acknowledges no write and says why, every write acknowledged before is
 * on every backend, the process serves reads and the admin API, the log opened with room to write
 * (storing what its journal kept) holds every acknowledged write, and the controller restarted without
 * the limit takes writes again.
 */
class LogStoreOutOfSpaceIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    /**
     * The largest file the controller may write, in kilobytes: room for the log store of a fresh start
     * and thousands of writes (the controller's own output is far smaller).
     */
    private static final long MAX_FILE_KILOBYTES = 1024;

    private static final String SHOP = "/api/virtualdatabases/shop";

    @Test
    void aFullLogStoreStopsAcknowledgingWritesAndARestartWithRoomKeepsEveryAcknowledgedOne() throws Exception {
        pg.cluster().ensureAllRunning();
        pg.cluster().recreateDatabases();
        ForkedController limited = ForkedController.startWithFileSizeLimit(
                pg.controllerConfig("shop"), "shop", "512m", MAX_FILE_KILOBYTES);
        Set<Long> acknowledged;
        List<String> errors;
        try {
            AcknowledgedWrites.createSchema(limited.url());
            AcknowledgedWrites writes = AcknowledgedWrites.start(limited.url(), 8);
            long t0 = System.nanoTime();
            await().atMost(Duration.ofSeconds(150))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> !writes.errors.isEmpty());
            writes.stop();
            acknowledged = new TreeSet<>(writes.acknowledged);
            errors = List.copyOf(writes.errors);
            System.out.printf(
                    "log store full after %.1f s: %,d writes acknowledged, %,d failed; files: %s%n",
                    (System.nanoTime() - t0) / 1e9, acknowledged.size(), errors.size(), sizes(limited.dataDir()));
            errors.stream().distinct().limit(5).forEach(e -> System.out.println("  client saw: " + e));

            assertThat(acknowledged).as("writes acknowledged before the limit").hasSizeGreaterThan(1000);
            assertThat(errors).as("writes that failed").isNotEmpty();
            assertThat(errors).as("what clients were told").allSatisfy(LogStoreOutOfSpaceIT::saysTheLogCannotWrite);

            // A new write is refused, saying why and what to do.
            try (Connection c = limited.connect();
                    PreparedStatement ps = c.prepareStatement(
                            "INSERT INTO events (id, writer, note, amount) VALUES (?, 99, 'late', ?)")) {
                ps.setLong(1, 990_000_000L);
                ps.setBigDecimal(2, BigDecimal.ONE);
                assertThatThrownBy(ps::executeUpdate)
                        .isInstanceOfSatisfying(
                                SQLException.class,
                                e -> saysTheLogCannotWrite(e.getSQLState() + ": " + e.getMessage()));
            }

            // The process is up: it answers reads and the admin API.
            assertThat(limited.isAlive()).as("controller process alive").isTrue();
            try (Connection c = limited.connect()) {
                assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM events"))
                        .as("rows read through the controller")
                        .isGreaterThanOrEqualTo(acknowledged.size());
            }
            assertThat(limited.admin().get(SHOP + "/backends").get("backends").size())
                    .as("backends listed by the admin API")
                    .isEqualTo(3);

            // Every acknowledged write is on every backend.
            for (EmbeddedPostgresServer s : List.of(pg.server(0), pg.server(1), pg.server(2))) {
                try (Connection c = s.connect()) {
                    assertThat(AcknowledgedWrites.present(c, acknowledged))
                            .as("acknowledged writes on %s", s.name())
                            .isEqualTo(acknowledged.size());
                }
            }
            System.out.println("controller exit status after SIGTERM: " + limited.terminate());
        } finally {
            limited.close();
        }

        // With room to write again, the log stores what its journal kept: every acknowledged write is in it. Read
        // before the controller restarts: the restart marks the writes whose outcome the failed store could not
        // record as in doubt (after comparing the backends), and no replay crosses an entry in doubt.
        try (RecoveryLog log = RecoveryLog.open(RecoveryLogConfig.h2File(limited.dataDir(), "shop"))) {
            Set<Long> logged = AcknowledgedWrites.loggedInserts(log);
            System.out.printf(
                    "log reopened with room: %,d inserts logged, %,d writes without a recorded outcome%n",
                    logged.size(), log.pendingItems().size());
            assertThat(acknowledged.stream().filter(id -> !logged.contains(id)))
                    .as("acknowledged writes missing from the log")
                    .isEmpty();
        }

        // The controller restarted without the limit takes writes again, on every backend.
        ForkedController restarted = limited.restart();
        try {
            try (Connection c = restarted.connect();
                    PreparedStatement ps = c.prepareStatement(
                            "INSERT INTO events (id, writer, note, amount) VALUES (?, 99, 'after', ?)")) {
                ps.setLong(1, 999_000_000L);
                ps.setBigDecimal(2, BigDecimal.ONE);
                assertThat(ps.executeUpdate()).as("a write after the restart").isEqualTo(1);
            }
            List<String> states = new java.util.ArrayList<>();
            restarted
                    .admin()
                    .get(SHOP + "/backends")
                    .get("backends")
                    .forEach(b -> states.add(
                            b.get("name").asText() + " " + b.get("state").asText()));
            assertThat(states)
                    .as("backends after the restart")
                    .containsExactly("pg1 enabled", "pg2 enabled", "pg3 enabled");
            for (EmbeddedPostgresServer s : List.of(pg.server(0), pg.server(1), pg.server(2))) {
                try (Connection c = s.connect()) {
                    assertThat(AcknowledgedWrites.present(c, List.of(999_000_000L)))
                            .as("the write after the restart on %s", s.name())
                            .isEqualTo(1);
                }
            }
        } finally {
            restarted.terminate();
        }
    }

    /**
     * What a client is told, as "SQLState: message": the write whose entries the store could not take, or
     * any write after that. Both name the cause the store's own message hides ("Writing to ... failed") and
     * say what to do.
     */
    private static void saysTheLogCannotWrite(String error) {
        assertThat(error)
                .satisfiesAnyOf(
                        e -> assertThat(e)
                                .startsWith("58030: the write was applied but could not be recorded in the recovery"
                                        + " log: The recovery log of shop could not write to its store (File too"
                                        + " large): "),
                        e -> assertThat(e)
                                .startsWith("58030: The recovery log of shop is out of service after a store failure"
                                        + " (File too large): "))
                .endsWith(". No further write is acknowledged: make room for the recovery log's store (free disk"
                        + " space) or repair it, then restart the controller (writes acknowledged so far are kept)");
    }

    private static String sizes(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .map(f -> {
                        try {
                            return dir.relativize(f) + " " + Files.size(f) / 1024 + " KB";
                        } catch (IOException e) {
                            return dir.relativize(f) + " ?";
                        }
                    })
                    .collect(Collectors.joining(", "));
        }
    }
}
