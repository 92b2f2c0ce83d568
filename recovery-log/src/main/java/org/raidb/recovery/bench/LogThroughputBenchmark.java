package org.raidb.recovery.bench;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.raidb.recovery.LogEntry;
import org.raidb.recovery.Outcome;
import org.raidb.recovery.PendingAppend;
import org.raidb.recovery.RecoveryLog;
import org.raidb.recovery.RecoveryLogConfig;
import org.raidb.recovery.RecoveryLogException;
import org.raidb.recovery.ReplayCursor;
import org.raidb.recovery.ReplayItem;

/**
 * Appends per second with 1 and 16 threads on the default H2 file store, bytes per entry on disk, and
 * replay entries per second. Prints the figures; asserts nothing. Arguments: [seconds per run, default
 * 5] [data dir] [--entries N: first build a log of N entries as fast as the log takes them, then time
 * a restart on it and the start of a replay from its first entry].
 *
 * <pre>
 * java -cp recovery-log/target/classes:$H2_JAR org.raidb.recovery.bench.LogThroughputBenchmark 5 /tmp/d --entries 1000000
 * </pre>
 */
public final class LogThroughputBenchmark {

    private static final String UPDATE =
            "UPDATE item SET i_stock = ?, i_title = ?, i_cost = ?, i_pub_date = ? WHERE i_id = 17";

    private LogThroughputBenchmark() {}

    public static void main(String[] args) throws Exception {
        List<String> positional = new ArrayList<>();
        long entries = 0;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--entries") && i + 1 < args.length) {
                entries = Long.parseLong(args[++i]);
            } else {
                positional.add(args[i]);
            }
        }
        int seconds = positional.size() > 0 ? Integer.parseInt(positional.get(0)) : 5;
        Path dataDir =
                positional.size() > 1 ? Path.of(positional.get(1)) : Files.createTempDirectory("raidb-log-bench");
        System.out.printf(
                "store: H2 file under %s, %d s per run, %s, %d CPUs%n",
                dataDir,
                seconds,
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors());
        RecoveryLogConfig config = RecoveryLogConfig.h2File(dataDir, "bench");
        if (entries > 0) {
            build(config, dataDir, entries);
        }
        try (RecoveryLog log = RecoveryLog.open(config)) {
            appends(log, 1, 1); // warm-up
            for (int threads : new int[] {1, 16}) {
                long before = log.groupCommitStats().storeCommits();
                long bytesBefore = storeBytes(dataDir);
                long start = System.nanoTime();
                long count = appends(log, threads, seconds);
                double elapsed = (System.nanoTime() - start) / 1e9;
                long commits = log.groupCommitStats().storeCommits() - before;
                System.out.printf(
                        "append, %2d threads: %,10.0f entries/s (%,d entries, %,d store commits, %.1f entries/commit,"
                                + " file grew %,d bytes: %,.0f bytes/entry)%n",
                        threads,
                        count / elapsed,
                        count,
                        commits,
                        (double) count / commits,
                        storeBytes(dataDir) - bytesBefore,
                        (double) (storeBytes(dataDir) - bytesBefore) / count);
            }
            System.out.printf(
                    "store file: %,d bytes for %,d entries: %,.0f bytes/entry%n",
                    storeBytes(dataDir), log.lastPosition(), (double) storeBytes(dataDir) / log.lastPosition());
            replay(log, log.lastPosition() - Math.min(log.lastPosition(), 200_000));
        }
    }

    /**
     * Builds a log of {@code entries} entries (auto-commit writes and three-write transactions, as an OLTP
     * mix logs them) through the log's own API in batches of 1,000, then times a restart on it.
     */
    private static void build(RecoveryLogConfig config, Path dataDir, long entries) throws Exception {
        long start = System.nanoTime();
        try (RecoveryLog log = RecoveryLog.open(config)) {
            List<Object> params =
                    List.of(42, "customer name", new BigDecimal("19.99"), LocalDateTime.of(2026, 11, 27, 12, 0));
            long tx = log.maxTransactionId();
            List<LogEntry> batch = new ArrayList<>(1000);
            PendingAppend last = null;
            for (long n = 0; n < entries; ) {
                batch.clear();
                while (batch.size() < 995 && n + batch.size() < entries) {
                    if (batch.size() % 10 == 0) {
                        tx++;
                        batch.add(LogEntry.begin(tx, "builder"));
                        for (int w = 0; w < 3; w++) {
                            batch.add(LogEntry.write(tx, "builder", UPDATE, params, List.of("item")));
                        }
                        batch.add(LogEntry.commit(tx, "builder"));
                    } else {
                        batch.add(LogEntry.autoCommitWrite("builder", UPDATE, params, List.of("item")));
                    }
                }
                // Built as history: outcomes recorded, as the controller records them after execution.
                batch.replaceAll(e -> e.withOutcome(Outcome.SUCCESS));
                List<PendingAppend> appended = log.appendAllAsync(batch);
                last = appended.get(appended.size() - 1);
                n += batch.size();
            }
            if (last != null) {
                last.await();
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            System.out.printf(
                    "built %,d entries in %.1f s (%,.0f entries/s, %,d store commits): store file %,d bytes, %,.0f bytes/entry%n",
                    entries,
                    elapsed,
                    entries / elapsed,
                    log.groupCommitStats().storeCommits(),
                    storeBytes(dataDir),
                    (double) storeBytes(dataDir) / log.lastPosition());
        }
        long t0 = System.nanoTime();
        try (RecoveryLog log = RecoveryLog.open(config)) {
            System.out.printf(
                    "restart on %,d entries: open took %.2f s%n", log.lastPosition(), (System.nanoTime() - t0) / 1e9);
            replay(log, 0);
        }
    }

    /** Times a replay from {@code from}: until its first batch (the start), then to the end. */
    private static void replay(RecoveryLog log, long from) throws Exception {
        long start = System.nanoTime();
        long replayed = 0;
        double first = -1;
        try (ReplayCursor cursor = log.replayFrom(from)) {
            for (List<ReplayItem> batch = cursor.nextBatch(1000); !batch.isEmpty(); batch = cursor.nextBatch(1000)) {
                if (first < 0) {
                    first = (System.nanoTime() - start) / 1e9;
                }
                for (ReplayItem item : batch) {
                    replayed += item.statements().size();
                }
            }
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        System.out.printf(
                "replay from position %,d (read + decode): first batch after %.3f s, %,10.0f entries/s (%,d entries)%n",
                from, first, replayed / elapsed, replayed);
    }

    private static long storeBytes(Path dataDir) throws IOException {
        try (Stream<Path> files = Files.list(RecoveryLogConfig.h2Directory(dataDir))) {
            long total = 0;
            for (Path f : (Iterable<Path>) files::iterator) {
                total += Files.size(f);
            }
            return total;
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
                List<CompletableFuture<Void>> outcomes = new ArrayList<>();
                try {
                    while (System.nanoTime() < deadline) {
                        long position = log.append(LogEntry.autoCommitWrite(login, UPDATE, params, List.of("item")));
                        // As the controller does: the outcome follows once the backends answered.
                        outcomes.add(log.setOutcomeAsync(position, Outcome.SUCCESS));
                        count.incrementAndGet();
                    }
                    CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new))
                            .join();
                } catch (RecoveryLogException e) {
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
