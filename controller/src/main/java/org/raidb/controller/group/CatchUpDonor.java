package org.raidb.controller.group;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.recovery.TransferDump;
import org.raidb.controller.vdb.VirtualDatabase;

/**
 * The donor's side of a catch-up ({@link CatchUpBarrier}): once the cut is reached and its backends
 * have finished every write before it, it dumps one backend per table set the joiner asked for, each
 * from a snapshot; as soon as every snapshot is taken it runs the writes it held, so the group writes
 * on while the dumps are written and sent. The dumps go to the joiner in pieces, after a message
 * saying where in the order they were cut.
 */
final class CatchUpDonor {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(CatchUpDonor.class);
    /**
     * How long the transactions open at the barrier may take to end before the catch-up is given up (and
     * the joiner asks again): the writes held meanwhile must come back to their clients well within
     * their origin's 30 s delivery timeout.
     */
    static final long OPEN_TRANSACTIONS_MILLIS = 10_000;

    private static final int CHUNK_BYTES = 256 * 1024;

    private final VirtualDatabase vdb;
    private final GroupChannel channel;
    private final WriteRunner runner;
    private final String group;
    private CatchUpBarrier barrier;

    CatchUpDonor(VirtualDatabase vdb, GroupChannel channel, WriteRunner runner, String group) {
        this.vdb = vdb;
        this.channel = channel;
        this.runner = runner;
        this.group = group;
    }

    void barrier(CatchUpBarrier b) {
        this.barrier = b;
    }

    /** Starts the donor's work on its own thread (JGroups' delivery thread must not wait). */
    void donate(GroupMessage.CatchUpAsk ask, long position, Set<String> openAtBarrier) {
        Thread t = new Thread(() -> run(ask, position, openAtBarrier), "raidb-group-donor");
        t.setDaemon(true);
        t.start();
    }

    private void run(GroupMessage.CatchUpAsk ask, long position, Set<String> openAtBarrier) {
        String joiner = ask.joiner();
        List<Path> files = new ArrayList<>();
        try {
            if (!barrier.awaitCut(joiner, OPEN_TRANSACTIONS_MILLIS)) {
                if (barrier.waiting(joiner)) {
                    StringBuilder open = new StringBuilder();
                    for (String tx : barrier.stillOpen()) {
                        open.append(open.length() == 0 ? "" : "; ")
                                .append(tx)
                                .append(": ")
                                .append(runner.describe(tx));
                    }
                    logSessionThreads(joiner);
                    giveUp(
                            joiner,
                            "the transactions open at its barrier did not end within " + OPEN_TRANSACTIONS_MILLIS / 1000
                                    + " s (" + open + "); start it again when clients are not holding transactions"
                                    + " open",
                            true);
                }
                return;
            }
            if (!runner.awaitIdle(TimeUnit.SECONDS.toMillis(60))) {
                barrier.release();
                giveUp(joiner, "the donor's backends did not finish the writes before the barrier within 60 s", true);
                return;
            }
            List<DatabaseBackend> sources = sources(ask.tableSets());
            List<TransferDump> dumps = dumpAll(joiner, sources, files);
            List<String> formats = dumps.stream().map(TransferDump::format).toList();
            if (!channel.sendInOrder(
                    joiner,
                    new GroupMessage.CatchUpStart(
                            joiner, channel.self(), position, List.copyOf(openAtBarrier), formats))) {
                return; // it left; the view change ended the catch-up
            }
            for (int i = 0; i < dumps.size(); i++) {
                send(joiner, i, dumps.get(i).path());
            }
            log.info(
                    "controller group {}: sent {} dump(s) of {} to {} (cut at position {})",
                    group,
                    dumps.size(),
                    sources.stream().map(DatabaseBackend::name).toList(),
                    joiner,
                    position);
        } catch (SQLException | IOException | RuntimeException e) {
            barrier.release(); // never left holding: the group's writes go on whatever happened here
            giveUp(joiner, "the donor " + channel.self() + " could not dump its backends: " + e.getMessage(), false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            barrier.release();
        } finally {
            for (Path f : files) {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException ignored) {
                    // a left-over transfer file in the data directory; the next catch-up replaces it
                }
            }
        }
    }

    /**
     * The dumps, one thread each so that every snapshot is taken before any dump is written out: the
     * writes held for the cut run once the last snapshot is taken.
     */
    private List<TransferDump> dumpAll(String joiner, List<DatabaseBackend> sources, List<Path> files)
            throws SQLException, IOException, InterruptedException {
        Path dir = Files.createDirectories(vdb.dataDir().resolve("catch-up").resolve(vdb.name()));
        CountDownLatch snapshots = new CountDownLatch(sources.size());
        Thread releaser = new Thread(
                () -> {
                    try {
                        snapshots.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        barrier.release();
                    }
                },
                "raidb-group-donor-release");
        releaser.setDaemon(true);
        releaser.start();
        TransferDump[] dumps = new TransferDump[sources.size()];
        Exception[] failures = new Exception[sources.size()];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            int index = i;
            Path file = dir.resolve(joiner.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + i);
            files.add(file);
            Thread t = new Thread(
                    () -> {
                        try {
                            dumps[index] = vdb.dumps().dumpLive(sources.get(index), file, snapshots::countDown);
                        } catch (SQLException | RuntimeException e) {
                            failures[index] = e;
                        }
                    },
                    "raidb-group-donor-dump-" + i);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        releaser.join();
        for (Exception e : failures) {
            if (e instanceof SQLException s) {
                throw s;
            } else if (e instanceof RuntimeException r) {
                throw r;
            }
        }
        return List.of(dumps);
    }

    /** For each table set the joiner asked for, an enabled backend holding those tables. */
    private List<DatabaseBackend> sources(List<String> tableSets) throws SQLException {
        List<DatabaseBackend> out = new ArrayList<>();
        for (String set : tableSets) {
            DatabaseBackend same = null;
            DatabaseBackend all = null;
            for (DatabaseBackend b : vdb.backends()) {
                if (!b.isEnabled()) {
                    continue;
                }
                String own = tableSet(b);
                if (own.equals(set) && same == null) {
                    same = b;
                }
                if (own.isEmpty() && all == null) {
                    all = b;
                }
            }
            DatabaseBackend chosen = same != null ? same : all;
            if (chosen == null) {
                throw new SQLException(
                        "no enabled backend of the donor holds " + (set.isEmpty() ? "every table" : "tables " + set));
            }
            out.add(chosen);
        }
        return out;
    }

    /** What a backend is configured to hold, as a joiner names it in its ask. */
    static String tableSet(DatabaseBackend b) {
        List<String> tables = b.config().tables();
        return tables == null || tables.isEmpty()
                ? ""
                : String.join(",", tables.stream().sorted().toList());
    }

    private void send(String joiner, int dump, Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] piece = in.readNBytes(CHUNK_BYTES);
            while (true) {
                byte[] next = in.readNBytes(CHUNK_BYTES);
                boolean last = next.length == 0;
                if (!channel.sendInOrder(joiner, new GroupMessage.CatchUpChunk(joiner, dump, piece, last))) {
                    throw new IOException("the joiner " + joiner + " left the group");
                }
                if (last) {
                    return;
                }
                piece = next;
            }
        }
    }

    private void giveUp(String joiner, String reason, boolean retry) {
        try {
            channel.sendAll(new GroupMessage.CatchUpAbort(joiner, reason, retry));
        } catch (Exception e) {
            log.error("controller group {}: cannot give up the catch-up of {}: {}", group, joiner, e.toString());
        }
    }

    /**
     * Where this controller's session and group threads wait when a catch-up is given up: the transactions
     * that did not end are those of clients whose threads are stuck somewhere, and only a stack says where.
     */
    private void logSessionThreads(String joiner) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<Thread, StackTraceElement[]> e :
                Thread.getAllStackTraces().entrySet()) {
            Thread t = e.getKey();
            if (!t.getName().startsWith("raidb-session-") && !t.getName().startsWith("raidb-group-")) {
                continue;
            }
            StackTraceElement[] stack = e.getValue();
            boolean inRaidb = java.util.Arrays.stream(stack)
                    .anyMatch(f -> f.getClassName().startsWith("org.raidb."));
            if (!inRaidb || t.getState() == Thread.State.RUNNABLE) {
                continue;
            }
            out.append("\n  ")
                    .append(t.getName())
                    .append(" (")
                    .append(t.getState())
                    .append(')');
            for (int i = 0; i < Math.min(stack.length, 25); i++) {
                out.append("\n      at ").append(stack[i]);
            }
        }
        log.warn(
                "controller group {}: catch-up of {} about to be given up; threads waiting here:{}",
                group,
                joiner,
                out);
    }
}
