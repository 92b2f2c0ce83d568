package org.raidb.tpcw.trace;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.raidb.tpcw.interactions.BestSellersVariant;
import org.raidb.tpcw.interactions.BrowserState;
import org.raidb.tpcw.interactions.EmulatedBrowser;
import org.raidb.tpcw.interactions.Mix;
import org.raidb.tpcw.interactions.NewIds;
import org.raidb.tpcw.play.ConnectionFactory;
import org.raidb.tpcw.report.ProgressBar;

/**
 * Runs emulated browsers, one thread and one connection each, against a populated database for a
 * while, and writes everything they send to a trace.
 */
public final class Recorder {

    /** What to record. {@code interactionsPerSession} 0 means until {@code duration} is over. */
    public record Settings(
            Mix mix,
            int sessions,
            Duration duration,
            long interactionsPerSession,
            Duration thinkTime,
            long seed,
            BestSellersVariant bestSellers) {}

    /** What was recorded; errors by SQLState (they are in the trace too, and will fail again on replay). */
    public record Summary(long interactions, long statements, Map<String, Long> errors, Duration elapsed) {}

    private final ConnectionFactory connections;
    private final Settings settings;

    public Recorder(ConnectionFactory connections, Settings settings) {
        this.connections = connections;
        this.settings = settings;
    }

    public Summary record(Path traceFile, PrintWriter progressOut) throws Exception {
        List<Connection> opened = new ArrayList<>();
        try {
            for (int i = 0; i < settings.sessions(); i++) {
                opened.add(connections.open());
            }
            NewIds ids = NewIds.after(opened.get(0));
            if (ids.customersAtStart() < settings.sessions() || ids.items() == 0) {
                throw new IllegalStateException("the database holds " + ids.customersAtStart() + " customers and "
                        + ids.items() + " items: populate it first (each session needs a customer of its own)");
            }
            Map<String, String> metadata = new LinkedHashMap<>();
            metadata.put("mix", settings.mix().cliName());
            metadata.put("sessions", Integer.toString(settings.sessions()));
            metadata.put("best-sellers", settings.bestSellers().cliName());
            metadata.put("seed", Long.toString(settings.seed()));
            metadata.put("items", Integer.toString(ids.items()));
            metadata.put("customers", Integer.toString(ids.customersAtStart()));
            metadata.put(
                    "recorded",
                    java.time.OffsetDateTime.now(ZoneId.systemDefault())
                            .withNano(0)
                            .toString());
            try (TraceWriter writer = new TraceWriter(traceFile, metadata)) {
                return run(opened, ids, writer, progressOut);
            }
        } finally {
            for (Connection c : opened) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // closing after the run: nothing left to save
                }
            }
        }
    }

    private Summary run(List<Connection> opened, NewIds ids, TraceWriter writer, PrintWriter progressOut)
            throws InterruptedException {
        AtomicLong interactions = new AtomicLong();
        LongAdder errorCount = new LongAdder();
        Map<String, Long> errors = new ConcurrentHashMap<>();
        long start = System.nanoTime();
        long deadline = start + settings.duration().toNanos();
        List<Thread> threads = new ArrayList<>();
        try (ProgressBar bar = new ProgressBar("interactions", 0, interactions::get, errorCount::sum, progressOut)) {
            for (int s = 0; s < settings.sessions(); s++) {
                BrowserState state =
                        new BrowserState(s, settings.sessions(), ids, settings.seed(), settings.bestSellers());
                EmulatedBrowser browser = new EmulatedBrowser(
                        new RecordingSession(opened.get(s), writer, s + 1, start), state, settings.mix());
                Thread t =
                        new Thread(() -> browse(browser, deadline, interactions, errorCount, errors), "eb-" + (s + 1));
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
        }
        return new Summary(
                interactions.get(),
                writer.statements(),
                Map.copyOf(errors),
                Duration.ofNanos(System.nanoTime() - start));
    }

    private void browse(
            EmulatedBrowser browser,
            long deadline,
            AtomicLong interactions,
            LongAdder errorCount,
            Map<String, Long> errors) {
        long done = 0;
        while (System.nanoTime() < deadline
                && (settings.interactionsPerSession() == 0 || done < settings.interactionsPerSession())) {
            try {
                browser.next();
            } catch (SQLException e) {
                errorCount.increment();
                errors.merge(e.getSQLState() == null ? "none" : e.getSQLState(), 1L, Long::sum);
            }
            done++;
            interactions.incrementAndGet();
            think();
        }
    }

    /** Exponential think time with the configured mean, as the specification's browsers pause between pages. */
    private void think() {
        long mean = settings.thinkTime().toMillis();
        if (mean <= 0) {
            return;
        }
        long pause = (long) Math.min(
                10.0 * mean,
                -mean
                        * Math.log(1
                                - java.util.concurrent.ThreadLocalRandom.current()
                                        .nextDouble()));
        try {
            Thread.sleep(pause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
