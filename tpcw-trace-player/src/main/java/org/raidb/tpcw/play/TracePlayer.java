package org.raidb.tpcw.play;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.raidb.tpcw.report.ProgressBar;
import org.raidb.tpcw.trace.Trace;
import org.raidb.tpcw.trace.TraceEvent;

/**
 * Replays a trace through any JDBC URL with one thread and one connection per session. All
 * connections are open before the clock starts, so that connecting is not measured.
 */
public final class TracePlayer {

    private final ConnectionFactory connections;
    private final Pace pace;
    private final RetryPolicy retryPolicy;

    public TracePlayer(ConnectionFactory connections, Pace pace) {
        this(connections, pace, RetryPolicy.defaults());
    }

    public TracePlayer(ConnectionFactory connections, Pace pace, RetryPolicy retryPolicy) {
        this.connections = connections;
        this.pace = pace;
        this.retryPolicy = retryPolicy;
    }

    /**
     * {@code threads} at most the trace's session count; with fewer, thread {@code t} plays sessions
     * {@code t}, {@code t + threads}, ... one after the other.
     */
    public PlayResult play(Trace trace, int threads, PrintWriter progressOut)
            throws SQLException, InterruptedException {
        List<List<TraceEvent>> sessions = new ArrayList<>(trace.sessions().values());
        if (threads < 1 || threads > sessions.size()) {
            throw new IllegalArgumentException("the trace has " + sessions.size() + " sessions: play it with 1 to "
                    + sessions.size() + " sessions, not " + threads);
        }
        List<Connection> opened = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                opened.add(connections.open());
            }
            return run(trace, sessions, opened, progressOut);
        } finally {
            for (Connection c : opened) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // the replay is over
                }
            }
        }
    }

    private PlayResult run(
            Trace trace, List<List<TraceEvent>> sessions, List<Connection> opened, PrintWriter progressOut)
            throws InterruptedException {
        int threads = opened.size();
        LongAdder statementsDone = new LongAdder();
        LongAdder errorsSeen = new LongAdder();
        CountDownLatch go = new CountDownLatch(1);
        long[] start = new long[1];
        List<SessionReplayer> replayers = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        AtomicReference<Throwable> crash = new AtomicReference<>();
        for (int t = 0; t < threads; t++) {
            List<TraceEvent> events = new ArrayList<>();
            for (int s = t; s < sessions.size(); s += threads) {
                events.addAll(sessions.get(s));
            }
            int index = t;
            Thread worker = new Thread(
                    () -> {
                        try {
                            go.await();
                            SessionReplayer replayer = new SessionReplayer(
                                    opened.get(index),
                                    pace,
                                    start[0],
                                    statementsDone,
                                    errorsSeen,
                                    retryPolicy,
                                    new SplittableRandom(),
                                    Thread::sleep);
                            synchronized (replayers) {
                                replayers.add(replayer);
                            }
                            replayer.replay(events);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        } catch (RuntimeException e) {
                            crash.compareAndSet(null, e);
                        }
                    },
                    "player-" + (t + 1));
            workers.add(worker);
            worker.start();
        }
        long elapsedNanos;
        try (ProgressBar bar =
                new ProgressBar("statements", trace.statements(), statementsDone::sum, errorsSeen::sum, progressOut)) {
            start[0] = System.nanoTime();
            go.countDown();
            for (Thread worker : workers) {
                worker.join();
            }
            elapsedNanos = System.nanoTime() - start[0];
        }
        if (crash.get() != null) {
            throw new IllegalStateException("a player thread failed: " + crash.get(), crash.get());
        }
        SessionStats total = new SessionStats();
        replayers.forEach(r -> r.stats().mergeInto(total));
        return result(trace, threads, total, elapsedNanos / 1e9);
    }

    private PlayResult result(Trace trace, int threads, SessionStats total, double seconds) {
        long errors = total.errorsBySqlState.values().stream()
                .mapToLong(Long::longValue)
                .sum();
        long retries = total.retriesByInteraction.values().stream()
                .mapToLong(Long::longValue)
                .sum();
        return new PlayResult(
                connections.url(),
                pace.name().toLowerCase(java.util.Locale.ROOT),
                threads,
                trace.sessions().size(),
                trace.statements(),
                seconds,
                total.statements,
                total.skipped,
                total.transactions,
                total.rolledBack,
                errors,
                new java.util.TreeMap<>(total.errorsBySqlState),
                total.statements * 60.0 / seconds,
                total.transactions / seconds,
                summaries(total.byInteraction),
                summaries(total.byKind),
                retryPolicy.maxRetries(),
                retries,
                new java.util.TreeMap<>(total.retriesByInteraction),
                total.retriedStatements);
    }

    private static Map<String, LatencySummary> summaries(Map<String, Latencies> byName) {
        Map<String, LatencySummary> out = new LinkedHashMap<>();
        byName.forEach((name, latencies) -> out.put(name, latencies.summarize()));
        return out;
    }
}
