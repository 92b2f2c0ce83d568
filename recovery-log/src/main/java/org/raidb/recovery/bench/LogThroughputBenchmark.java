package org.raidb.recovery.bench;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.raidb.recovery.LogEntry;
import org.raidb.recovery.RecoveryLog;
import org.raidb.recovery.RecoveryLogConfig;
import org.raidb.recovery.ReplayCursor;
import org.raidb.recovery.ReplayItem;

/**
 * Appends per second with 1 and 16 threads on the default H2 file store, and replay entries per
 * second. Prints the figures; asserts nothing. Arguments: [seconds per run, default 5] [data dir].
 *
 * <pre>
 * java -cp recovery-log/target/classes:$H2_JAR org.raidb.recovery.bench.LogThroughputBenchmark 5
 * </pre>
 */
public final class LogThroughputBenchmark {

    private LogThroughputBenchmark() {}

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Path dataDir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("raidb-log-bench");
        System.out.printf(
                "store: H2 file under %s, %d s per run, %s, %d CPUs%n",
                dataDir,
                seconds,
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors());
        try (RecoveryLog log = RecoveryLog.open(RecoveryLogConfig.h2File(dataDir, "bench"))) {
            appends(log, 1, 1); // warm-up
            for (int threads : new int[] {1, 16}) {
                long before = log.groupCommitStats().storeCommits();
                long start = System.nanoTime();
                long count = appends(log, threads, seconds);
                double elapsed = (System.nanoTime() - start) / 1e9;
                long commits = log.groupCommitStats().storeCommits() - before;
                System.out.printf(
                        "append, %2d threads: %,10.0f entries/s (%,d entries, %,d store commits, %.1f entries/commit)%n",
                        threads, count / elapsed, count, commits, (double) count / commits);
            }
            long start = System.nanoTime();
            long replayed = 0;
            try (ReplayCursor cursor = log.replayFrom(0)) {
                for (List<ReplayItem> batch = cursor.nextBatch(1000);
                        !batch.isEmpty();
                        batch = cursor.nextBatch(1000)) {
                    for (ReplayItem item : batch) {
                        replayed += item.statements().size();
                    }
                }
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            System.out.printf(
                    "replay (read + decode): %,10.0f entries/s (%,d entries)%n", replayed / elapsed, replayed);
        }
    }

    /** Appends from {@code threads} threads for {@code seconds}; each waits for durability, as a session would. */
    private static long appends(RecoveryLog log, int threads, int seconds) throws InterruptedException {
        AtomicLong count = new AtomicLong();
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String login = "user" + t;
            Thread worker = new Thread(() -> {
                List<Object> params = List.of(
                        42, "customer name", new BigDecimal("19.99"), LocalDateTime.now(ZoneId.systemDefault()));
                try {
                    while (System.nanoTime() < deadline) {
                        log.append(LogEntry.autoCommitWrite(
                                login,
                                "UPDATE item SET i_stock = ?, i_title = ?, i_cost = ?, i_pub_date = ? WHERE i_id = 17",
                                params,
                                List.of("item")));
                        count.incrementAndGet();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            worker.start();
            workers.add(worker);
        }
        for (Thread w : workers) {
            w.join();
        }
        return count.get();
    }
}
