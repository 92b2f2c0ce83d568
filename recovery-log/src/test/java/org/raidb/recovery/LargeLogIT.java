package org.raidb.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log of a million entries on the default H2 file store, built through the log's own API in batches
 * (as a busy controller's group commit writes them): a restart, the start of a replay from an old
 * checkpoint, the whole replay, and a purge. Times are printed, not asserted; what is asserted is that
 * the replay is complete and in order and that the purge leaves what a later checkpoint needs.
 */
class LargeLogIT {

    @TempDir
    Path dataDir;

    @Test
    void restartReplayStartAndPurgeOnAMillionEntries() throws Exception {
        exercise(RecoveryLogConfig.h2File(dataDir, "big"), 1_000_000);
    }

    /** The same on a PostgreSQL store, with fewer entries (the embedded server shares the machine's two cores). */
    @Test
    void restartReplayStartAndPurgeOnPostgres() throws Exception {
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
            exercise(RecoveryLogConfig.of(postgres.getJdbcUrl("postgres", "postgres"), "postgres", "", "big"), 200_000);
        }
    }

    /** The same on the local MariaDB server, where there is one (skipped with the reason otherwise). */
    @Test
    void restartReplayStartAndPurgeOnMariaDb() throws Exception {
        String server = "jdbc:mariadb://127.0.0.1:3306/";
        boolean reachable;
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(server, "root", "");
                java.sql.Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS raidb_large_log");
            s.execute("CREATE DATABASE raidb_large_log");
            reachable = true;
        } catch (java.sql.SQLException e) {
            reachable = false;
        }
        org.assertj.core.api.Assumptions.assumeThat(reachable)
                .as("no MariaDB server on 127.0.0.1:3306 (root, empty password)")
                .isTrue();
        try {
            exercise(RecoveryLogConfig.of(server + "raidb_large_log", "root", "", "big"), 100_000);
        } finally {
            try (java.sql.Connection c = java.sql.DriverManager.getConnection(server, "root", "");
                    java.sql.Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS raidb_large_log");
            }
        }
    }

    /**
     * A purge of 300,000 entries while 4 writers keep appending and an administrator keeps reading the
     * catalogue: every append succeeds, everything after the checkpoint is still there and replays in
     * order, and the catalogue answers between purge batches (its slowest answer is printed).
     */
    @Test
    void purgeUnderAWriteLoadLosesNothingAndLeavesTheCatalogueAnswering() throws Exception {
        RecoveryLogConfig config = RecoveryLogConfig.h2File(dataDir, "busy");
        try (RecoveryLog log = RecoveryLog.open(config)) {
            List<LogEntry> batch = new ArrayList<>(1000);
            for (int n = 0; n < 300; n++) {
                batch.clear();
                for (int i = 0; i < 1000; i++) {
                    batch.add(LogEntry.autoCommitWrite("u", "INSERT INTO h VALUES (?)", List.of(i), List.of("h"))
                            .withOutcome(Outcome.SUCCESS));
                }
                log.appendAllAsync(batch);
            }
            Checkpoint cut = log.checkpoint("cut");
            java.util.concurrent.atomic.AtomicBoolean purging = new java.util.concurrent.atomic.AtomicBoolean(true);
            java.util.concurrent.atomic.AtomicLong written = new java.util.concurrent.atomic.AtomicLong();
            List<Thread> writers = new ArrayList<>();
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int w = 0; w < 4; w++) {
                Thread t = new Thread(() -> {
                    try {
                        while (purging.get()) {
                            log.append(LogEntry.autoCommitWrite("w", "UPDATE h SET n = 1", List.of(), List.of("h"))
                                    .withOutcome(Outcome.SUCCESS));
                            written.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                t.start();
                writers.add(t);
            }
            java.util.concurrent.CompletableFuture<Integer> purge =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                        try {
                            return log.purgeBefore("cut");
                        } catch (RecoveryLogException e) {
                            throw new java.util.concurrent.CompletionException(e);
                        }
                    });
            long slowest = 0;
            int answers = 0;
            while (!purge.isDone()) {
                long t0 = System.nanoTime();
                assertThat(log.checkpoints()).extracting(Checkpoint::name).contains("cut");
                log.backendStates();
                slowest = Math.max(slowest, System.nanoTime() - t0);
                answers++;
            }
            int deleted = purge.get();
            purging.set(false);
            for (Thread t : writers) {
                t.join();
            }
            System.out.printf(
                    "purged %,d entries while 4 writers appended %,d; the catalogue answered %,d times during the"
                            + " purge, slowest %.1f ms%n",
                    deleted, written.get(), answers, slowest / 1e6);
            assertThat(failures).isEmpty();
            assertThat(deleted).isEqualTo(300_000);
            assertThat(log.entriesBetween(0, cut.position())).isZero();
            assertThat(log.entriesBetween(cut.position(), log.lastPosition())).isEqualTo(written.get());
            long previous = cut.position();
            long replayed = 0;
            try (ReplayCursor cursor = log.replayFrom("cut")) {
                for (List<ReplayItem> b = cursor.nextBatch(1000); !b.isEmpty(); b = cursor.nextBatch(1000)) {
                    for (ReplayItem item : b) {
                        assertThat(item.orderPosition()).isEqualTo(previous + 1);
                        previous = item.orderPosition();
                        replayed++;
                    }
                }
            }
            assertThat(replayed).isEqualTo(written.get());
        }
    }

    private static void exercise(RecoveryLogConfig config, int entries) throws Exception {
        System.out.println("store: " + config.jdbcUrl());
        long items = 0;
        long start = System.nanoTime();
        try (RecoveryLog log = RecoveryLog.open(config)) {
            // Transaction 1 is open across the old checkpoint and commits at the very end.
            log.append(LogEntry.begin(1, "u"));
            log.append(LogEntry.write(1, "u", "INSERT INTO t VALUES (0)", List.of(), List.of("t")));
            log.checkpoint("old");
            long tx = 1;
            List<LogEntry> batch = new ArrayList<>(1000);
            PendingAppend last = null;
            for (int n = 0; n < entries; n += batch.size()) {
                batch.clear();
                while (batch.size() < 1000) {
                    tx++;
                    batch.add(LogEntry.begin(tx, "u"));
                    for (int w = 0; w < 3; w++) {
                        batch.add(LogEntry.write(
                                tx, "u", "UPDATE t SET n = n + ? WHERE id = ?", List.of(w, tx), List.of("t")));
                    }
                    batch.add(LogEntry.commit(tx, "u"));
                    for (int a = 0; a < 5; a++) {
                        batch.add(LogEntry.autoCommitWrite(
                                "u", "INSERT INTO h VALUES (?)", List.of(tx * 10 + a), List.of("h")));
                    }
                    items += 6;
                }
                batch.replaceAll(e -> e.withOutcome(Outcome.SUCCESS));
                List<PendingAppend> appended = log.appendAllAsync(batch);
                last = appended.get(appended.size() - 1);
            }
            last.await();
            log.append(LogEntry.commit(1, "u").withOutcome(Outcome.SUCCESS));
            items++;
            log.checkpoint("late");
            System.out.printf(
                    "built %,d entries in %.1f s, %,d store commits, %.0f bytes per entry%n",
                    log.lastPosition(),
                    (System.nanoTime() - start) / 1e9,
                    log.groupCommitStats().storeCommits(),
                    log.bytesPerEntry().orElse(-1));
        }
        long expectedLast = 2 + entries + 1;

        long t0 = System.nanoTime();
        try (RecoveryLog log = RecoveryLog.open(config)) {
            System.out.printf("restart on %,d entries: %.3f s%n", log.lastPosition(), (System.nanoTime() - t0) / 1e9);
            assertThat(log.lastPosition()).isEqualTo(expectedLast);
            assertThat(log.maxTransactionId()).isGreaterThan(entries / 10);
            assertThat(log.pendingItems()).isEmpty();

            t0 = System.nanoTime();
            long replayed = 0;
            long previous = 0;
            try (ReplayCursor cursor = log.replayFrom("old")) {
                List<ReplayItem> first = cursor.nextBatch(1000);
                System.out.printf(
                        "replay from the oldest checkpoint: first batch after %.3f s%n",
                        (System.nanoTime() - t0) / 1e9);
                for (List<ReplayItem> b = first; !b.isEmpty(); b = cursor.nextBatch(1000)) {
                    for (ReplayItem item : b) {
                        assertThat(item.orderPosition()).isGreaterThan(previous);
                        previous = item.orderPosition();
                        replayed++;
                        if (item.transactionId() == 1) {
                            // Begun before the checkpoint: its write is replayed too, at its COMMIT's place.
                            assertThat(item.orderPosition()).isEqualTo(expectedLast);
                            assertThat(item.statements())
                                    .extracting(LogEntry::sql)
                                    .containsExactly("INSERT INTO t VALUES (0)");
                        }
                    }
                }
                assertThat(cursor.pendingTransactions()).isZero();
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            System.out.printf("replayed %,d items in %.1f s (%,.0f entries/s)%n", replayed, seconds, entries / seconds);
            assertThat(replayed).isEqualTo(items);
            assertThat(previous).isEqualTo(expectedLast);

            t0 = System.nanoTime();
            int deleted = log.purgeBefore("late");
            System.out.printf("purged %,d entries in %.1f s%n", deleted, (System.nanoTime() - t0) / 1e9);
            assertThat(deleted).isEqualTo((int) expectedLast);
            assertThatThrownBy(() -> log.replayFrom("old")).hasMessageContaining("No checkpoint old");
            try (ReplayCursor cursor = log.replayFrom("late")) {
                assertThat(cursor.nextBatch(10)).isEmpty();
            }
            log.append(LogEntry.autoCommitWrite("u", "DELETE FROM h", List.of(), List.of("h")));
            try (ReplayCursor cursor = log.replayFrom("late")) {
                assertThat(cursor.nextBatch(10))
                        .extracting(ReplayItem::orderPosition)
                        .containsExactly(expectedLast + 1);
            }
        }
    }
}
