package org.raidb.controller.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.recovery.DisableCause;
import org.raidb.recovery.RecoveryLog;
import org.raidb.recovery.RecoveryLogException;
import org.raidb.test.PostgresClusterExtension;

/**
 * {@code <recoveryLog purgeAfter="2s"/>} through a controller while clients write: the automatic purge
 * deletes what is older than two seconds and needed by no backend, keeps everything a disabled
 * backend's checkpoint needs (that backend is then enabled by replay and ends identical), and moves on
 * past that checkpoint once the backend is enabled.
 */
class AutomaticPurgeIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static final Duration AGE = Duration.ofSeconds(2);

    @Test
    void automaticPurgeKeepsWhatADisabledBackendNeedsAndMovesOnOnceItIsEnabled() throws Exception {
        pg.cluster().ensureAllRunning();
        pg.cluster().recreateDatabases();
        try (ControllerFixture raidb = ControllerFixture.start(
                pg.controllerConfig("shop").extraXml("<recoveryLog purgeAfter=\"" + AGE.toSeconds() + "s\"/>"),
                "shop")) {
            AcknowledgedWrites.createSchema(raidb.url());
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            RecoveryLog log = vdb.writeLog().log();
            DatabaseBackend pg3 = vdb.backend("pg3");
            AcknowledgedWrites writes = AcknowledgedWrites.start(raidb.url(), 4, AcknowledgedWrites.PACE);
            try (writes) {
                writes.awaitMore(200);
                long early = log.lastPosition(); // entries up to here: what the purge must delete
                long earlyEntries = log.entriesBetween(0, early);
                writes.awaitMore(200);
                String kept = vdb.disableBackend(pg3, DisableCause.administrator("disabled early by the test"))
                        .get(60, TimeUnit.SECONDS);
                long keptAt = log.checkpointPosition(kept).orElseThrow();
                writes.awaitMore(300); // what pg3 misses
                long missedTo = log.lastPosition();
                long needed = log.entriesBetween(keptAt, missedTo);
                System.out.printf(
                        "early entries (0, %,d]: %,d; pg3 stopped at %s (position %,d), then missed %,d entries%n",
                        early, earlyEntries, kept, keptAt, needed);
                assertThat(earlyEntries).as("early entries before the purge").isPositive();

                long t0 = System.nanoTime();
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> log.entriesBetween(0, early) == 0);
                Instant earlyPurged = Instant.now();
                System.out.printf("early entries purged %.1f s later%n", (System.nanoTime() - t0) / 1e9);

                // Purge rounds go on (each one that finds new entries first records a checkpoint at the end
                // of the log): wait for one that started more than the age after the early entries went, so
                // that it had checkpoints past pg3's old enough to cut at, were pg3's not kept.
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() ->
                                purgeCheckpointsAfter(log, earlyPurged.plus(AGE).plusSeconds(1)) > 0);
                assertThat(log.checkpointPosition(kept)).as("pg3's checkpoint").isPresent();
                assertThat(log.entriesBetween(keptAt, missedTo))
                        .as("entries pg3 needs, after automatic purges")
                        .isEqualTo(needed);
                assertThat(vdb.writeLog().log().automaticPurgeFailure())
                        .as("automatic purge failure")
                        .isNull();

                long t1 = System.nanoTime();
                String joinedAt = vdb.recovery().enable(pg3).run(Progress.NONE);
                System.out.printf("pg3 enabled at %s in %.1f s%n", joinedAt, (System.nanoTime() - t1) / 1e9);
                assertThat(pg3.isEnabled()).as("pg3 enabled").isTrue();
                writes.awaitMore(200);
                writes.stop();
                assertThat(writes.errors).as("errors clients saw").isEmpty();

                // Nothing holds pg3's checkpoint any more: the purge moves past it.
                long t2 = System.nanoTime();
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(100))
                        // Entries go in batches first, the checkpoints before the cut last.
                        .until(() -> log.entriesBetween(0, missedTo) == 0
                                && log.checkpointPosition(kept).isEmpty());
                System.out.printf(
                        "entries up to %,d (past pg3's checkpoint, which is gone too) purged %.1f s after the writes stopped%n",
                        missedTo, (System.nanoTime() - t2) / 1e9);
            }
            BackendRecoveryIT.assertIdenticalAndComplete(writes, pg.cluster().servers());
        }
    }

    /** Checkpoints the automatic purge recorded after {@code after}. */
    private static long purgeCheckpointsAfter(RecoveryLog log, Instant after) throws RecoveryLogException {
        return log.checkpoints().stream()
                .filter(c -> c.name().startsWith("log-purge-") && c.createdAt().isAfter(after))
                .count();
    }
}
