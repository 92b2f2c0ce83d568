package org.raidb.tools.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * N client threads, each on its own connection and reused PreparedStatement, each running the
 * workload back to back on random keys (a closed loop: a thread sends its next operation when the
 * previous one is answered). A warm-up first, whose operations are not recorded, then the measured
 * window.
 */
final class ClosedLoopRun {

    /** Opens one client connection: plain pgjdbc or the RAIDb driver. */
    interface ConnectionSource {
        Connection open() throws SQLException;
    }

    /** Client threads are named so, which tells their CPU time from the controller's. */
    static final String CLIENT_THREAD_PREFIX = "bench-client-";

    private static final int WARMING = 0;
    private static final int MEASURING = 1;
    private static final int STOPPED = 2;

    private final Workload workload;
    private final int rows;
    private volatile int phase = WARMING;
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    private ClosedLoopRun(Workload workload, int rows) {
        this.workload = workload;
        this.rows = rows;
    }

    /** {@code postmasterPid}: the server whose CPU time is counted, if known. */
    static Measurement run(
            ConnectionSource source,
            Workload workload,
            int threads,
            int rows,
            Duration warmup,
            Duration window,
            OptionalLong postmasterPid)
            throws Exception {
        List<Long> pids = postmasterPid.isPresent() ? List.of(postmasterPid.getAsLong()) : List.of();
        return run(source, workload, threads, rows, warmup, window, pids, OptionalLong.empty(), List.of());
    }

    /**
     * CPU time counted for every server of {@code postmasterPids}, for pgpool's processes if it runs, and for
     * the controllers running as processes of their own {@code controllerPids} (none: in this JVM, if any).
     */
    static Measurement run(
            ConnectionSource source,
            Workload workload,
            int threads,
            int rows,
            Duration warmup,
            Duration window,
            List<Long> postmasterPids,
            OptionalLong pgpoolPid,
            List<Long> controllerPids)
            throws Exception {
        ClosedLoopRun run = new ClosedLoopRun(workload, rows);
        return run.run(source, threads, warmup, () -> run.pause(window), postmasterPids, pgpoolPid, controllerPids);
    }

    /** What the measured window lasts for: a fixed time, or an action the load runs alongside. */
    @FunctionalInterface
    interface Window {
        void pass() throws Exception;
    }

    /**
     * The measured window is {@code during}'s run: the clients warm up, {@code during} runs on the calling thread
     * while they go on, and the window ends with it. For a load measured while something else happens (a purge).
     */
    static Measurement runDuring(
            ConnectionSource source, Workload workload, int threads, int rows, Duration warmup, Window during)
            throws Exception {
        return new ClosedLoopRun(workload, rows)
                .run(source, threads, warmup, during, List.of(), OptionalLong.empty(), List.of());
    }

    private Measurement run(
            ConnectionSource source,
            int threads,
            Duration warmup,
            Window window,
            List<Long> postmasterPids,
            OptionalLong pgpoolPid,
            List<Long> controllerPids)
            throws Exception {
        // Connections are opened before the clock starts: the benchmark measures requests, not logins.
        List<Connection> connections = new ArrayList<>(threads);
        List<Client> clients = new ArrayList<>(threads);
        try {
            for (int i = 0; i < threads; i++) {
                Connection c = source.open();
                connections.add(c);
                clients.add(new Client(c.prepareStatement(workload.sql()), i));
            }
            clients.forEach(client -> client.thread.start());
            pause(warmup);
            CpuSample cpuBegin = CpuSample.take(postmasterPids, pgpoolPid, controllerPids);
            phase = MEASURING;
            long begin = System.nanoTime();
            window.pass();
            phase = STOPPED;
            long end = System.nanoTime();
            CpuSample cpuEnd = CpuSample.take(
                    postmasterPids,
                    pgpoolPid,
                    controllerPids); // the clients are still alive: they stop after their operation
            Histogram all = Measurement.newLatencyHistogram();
            for (Client client : clients) {
                client.thread.join();
                all.add(client.latencies);
            }
            if (failure.get() != null) {
                throw failure.get();
            }
            return new Measurement(all, end - begin, CpuUse.between(cpuBegin, cpuEnd, all.getTotalCount()));
        } finally {
            phase = STOPPED;
            for (Client client : clients) {
                client.thread.join();
            }
            for (Connection c : connections) {
                c.close();
            }
        }
    }

    /** Sleeps through a phase, cut short when a client failed: the run is worthless then. */
    private void pause(Duration d) throws InterruptedException {
        long deadline = System.nanoTime() + d.toNanos();
        while (failure.get() == null && System.nanoTime() < deadline) {
            Thread.sleep(Math.max(1, Math.min(100, (deadline - System.nanoTime()) / 1_000_000)));
        }
    }

    /** One client thread; its histogram is its own, so recording needs no synchronisation. */
    private final class Client implements Runnable {
        final PreparedStatement statement;
        final Histogram latencies = Measurement.newLatencyHistogram();
        final Thread thread;

        Client(PreparedStatement statement, int index) {
            this.statement = statement;
            this.thread = new Thread(this, CLIENT_THREAD_PREFIX + index);
        }

        @Override
        public void run() {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            long highest = latencies.getHighestTrackableValue();
            try {
                while (phase != STOPPED) {
                    int key = 1 + random.nextInt(rows);
                    boolean measured = phase == MEASURING;
                    long begin = System.nanoTime();
                    workload.runOnce(statement, key);
                    long took = System.nanoTime() - begin;
                    // Counted only if it ran wholly inside the window, so that ops/s and percentiles agree.
                    if (measured && phase == MEASURING) {
                        latencies.recordValue(Math.min(took, highest));
                    }
                }
            } catch (Exception e) {
                failure.compareAndSet(null, e);
            }
        }
    }
}
