package org.raidb.controller.it.recovery;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.raidb.controller.admin.client.AdminCallException;
import org.raidb.controller.admin.client.AdminClient;

/**
 * An administrator who keeps asking the admin API one thing after the other, as a monitoring script
 * or a console left on {@code show backends} does, while the test does something long (a purge):
 * how many answers came, the slowest, and every request that failed (a timeout of the client's 10 s
 * included). Latencies are printed by the tests, never asserted.
 */
final class AdminPolling implements AutoCloseable {
    private final AdminClient admin;
    private final List<String> paths;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Map<String, AtomicLong> answers = new LinkedHashMap<>();
    private final Map<String, AtomicLong> slowestNanos = new LinkedHashMap<>();
    final Queue<String> failures = new ConcurrentLinkedQueue<>();
    private final Thread thread;

    private AdminPolling(AdminClient admin, List<String> paths) {
        this.admin = admin;
        this.paths = List.copyOf(paths);
        for (String path : paths) {
            answers.put(path, new AtomicLong());
            slowestNanos.put(path, new AtomicLong());
        }
        this.thread = new Thread(this::poll, "admin-polling");
        thread.setDaemon(true);
    }

    /** Starts asking for each of {@code paths} in turn (GET), without pause, until {@link #stop}. */
    static AdminPolling start(AdminClient admin, List<String> paths) {
        AdminPolling p = new AdminPolling(admin, paths);
        p.thread.start();
        return p;
    }

    private void poll() {
        while (running.get()) {
            for (String path : paths) {
                long t0 = System.nanoTime();
                try {
                    admin.get(path);
                    answers.get(path).incrementAndGet();
                } catch (AdminCallException e) {
                    failures.add(path + ": " + e.status() + " " + e.getMessage());
                }
                long took = System.nanoTime() - t0;
                slowestNanos.get(path).accumulateAndGet(took, Math::max);
            }
        }
    }

    /** Stops after the request in flight; returns the answers received since the start. */
    long stop() throws InterruptedException {
        running.set(false);
        thread.join(60_000);
        return answers.values().stream().mapToLong(AtomicLong::get).sum();
    }

    /** Per path: the answers received and the slowest, e.g. "/x: 12 answers, slowest 35 ms". */
    String describe() {
        StringBuilder out = new StringBuilder();
        for (String path : paths) {
            out.append(out.length() == 0 ? "" : "; ")
                    .append(String.format(
                            Locale.ROOT,
                            "GET %s: %,d answers, slowest %.0f ms",
                            path,
                            answers.get(path).get(),
                            slowestNanos.get(path).get() / 1e6));
        }
        return out.toString();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
