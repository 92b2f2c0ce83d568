package org.raidb.controller.health;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backend.FailureClassifier;
import org.raidb.controller.backend.HealthProbe;
import org.raidb.controller.backend.NoAnswerException;
import org.raidb.controller.config.HealthSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds a virtual database's hung backends: a stopped server or a network partition without resets
 * answers nothing, and without a deadline every client waiting on it would wait for TCP to give up.
 *
 * <p>A backend is hung when it leaves something unanswered for {@code backendTimeout} while the others
 * answer: a write the others answered (judged in the request path, {@code LateAnswers}); a statement
 * only it runs and the health probe sent meanwhile ({@link #watch}); the periodic health probe. When
 * no other backend answers either, nobody is disabled: a statement that is long everywhere, or a
 * controller cut off from all of them, is no reason to empty the array. A hung backend is handed to
 * {@link Verdict#hung}, which disables it and cuts it loose.
 */
public final class HealthMonitor implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(HealthMonitor.class);

    /** What happens to a backend found hung (or failed) here. */
    @FunctionalInterface
    public interface Verdict {
        /** Disables the backend with this reason and aborts its connections; returns having done so. */
        void hung(DatabaseBackend backend, String reason);
    }

    private final String vdb;
    private final HealthSettings settings;
    private final List<DatabaseBackend> backends;
    private final Verdict verdict;
    private final Executor work;
    private final ScheduledThreadPoolExecutor timer;
    private volatile ScheduledFuture<?> probes;
    private final ScheduledFuture<?> sweeps;
    /** The statements under watch ({@link #watch}), checked by a sweep every eighth of the timeout (at most). */
    private final Set<Watch> watched = ConcurrentHashMap.newKeySet();

    /**
     * Monitors {@code backends}, whose verdicts are handed to {@code verdict} on {@code work}.
     *
     * @param work where verdicts run: disabling a backend writes to the recovery log, which the timer's one
     *     thread must not wait for
     */
    public HealthMonitor(
            String vdb, HealthSettings settings, List<DatabaseBackend> backends, Verdict verdict, Executor work) {
        this.vdb = vdb;
        this.settings = settings;
        this.backends = backends;
        this.verdict = verdict;
        this.work = work;
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "raidb-" + vdb + "-health");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        long sweepMillis = Math.max(5, Math.min(250, settings.backendTimeoutMillis() / 8));
        sweeps = timer.scheduleWithFixedDelay(this::sweep, sweepMillis, sweepMillis, TimeUnit.MILLISECONDS);
    }

    /** Starts the periodic probes (unless {@code probeInterval} is 0). */
    public void start() {
        int interval = settings.probeIntervalMillis();
        if (interval > 0) {
            probes = timer.scheduleWithFixedDelay(this::probeAll, interval, interval, TimeUnit.MILLISECONDS);
        }
    }

    public long backendTimeoutMillis() {
        return settings.backendTimeoutMillis();
    }

    /** "did not answer within backendTimeout (10 s) while others did": how the reason of every hang starts. */
    public String hangReason() {
        return "did not answer within " + NoAnswerException.backendTimeout(settings.backendTimeoutMillis())
                + " while others did";
    }

    /** Runs {@code task} on a work thread after {@code delayNanos}; cancelling the future before then skips it. */
    public ScheduledFuture<?> after(long delayNanos, Runnable task) {
        return timer.schedule(() -> work.execute(task), Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
    }

    /** The backend is hung: disabled and cut loose now, on the calling thread. */
    public void hung(DatabaseBackend b, String reason) {
        verdict.hung(b, reason);
    }

    /**
     * A request found {@code b} hung on its own (no pooled connection came, and its probe got no answer):
     * it is disabled, with {@code detail}, if another backend answers; else it stays.
     */
    public void hungUnlessAlone(DatabaseBackend b, String detail) {
        if (othersAnswer(b, settings.backendTimeoutMillis() / 4).join()) {
            hung(b, hangReason() + ": " + detail);
        } else {
            log.warn(
                    "virtual database {}: backend {} {}, but no other backend answers either: it stays enabled",
                    vdb,
                    b.name(),
                    detail);
        }
    }

    /**
     * Watches a statement that only {@code b} runs (a read, a write with one target), until the watch is
     * closed. Half a timeout in, the backends are probed; if by the timeout {@code b} answered neither the
     * statement nor the probe while another backend answered its probe, it is hung. One that answers the
     * probe is only slow on this statement (a long query): it is probed again every half timeout.
     */
    public Watch watch(DatabaseBackend b) {
        Watch w = new Watch(b);
        w.arm(System.nanoTime());
        watched.add(w);
        return w;
    }

    /**
     * Probes the backends of the watched statements that are due. Statements are many and short: each
     * one only enters and leaves a concurrent set, where a timer task of its own would cost every
     * statement two trips through the timer's one locked queue (16 sessions contended on it).
     */
    private void sweep() {
        long now = System.nanoTime();
        for (Watch w : watched) {
            if (!w.probing && now - w.due >= 0) {
                w.probing = true;
                w.check();
            }
        }
    }

    /** A statement under watch; closing it ends the watch. */
    public final class Watch implements AutoCloseable {
        private final DatabaseBackend backend;
        private volatile boolean done;
        /** When the backend is next probed, in {@link System#nanoTime()}. */
        private volatile long due;
        /** A probe for it is out: the sweep leaves it alone until the answer. */
        private volatile boolean probing;

        private Watch(DatabaseBackend backend) {
            this.backend = backend;
        }

        private void arm(long fromNanos) {
            due = fromNanos + TimeUnit.MILLISECONDS.toNanos(settings.backendTimeoutMillis() / 2);
        }

        private void check() {
            long half = settings.backendTimeoutMillis() / 2;
            CompletableFuture<HealthProbe.Result> mine = backend.probe().probe(half);
            mine.thenCombine(othersAnswer(backend, half), (r, others) -> {
                        if (done) {
                            return null;
                        }
                        if (!r.answered() && others) {
                            watched.remove(this);
                            work.execute(() -> hung(
                                    backend,
                                    hangReason()
                                            + ": a statement only it ran and the health probe (SELECT 1)"
                                            + " sent meanwhile got no answer"));
                        } else {
                            arm(System.nanoTime());
                            probing = false;
                        }
                        return null;
                    })
                    .exceptionally(logFailure("the watch of a statement on backend " + backend.name()));
        }

        @Override
        public void close() {
            done = true;
            watched.remove(this);
        }
    }

    /**
     * Whether another enabled backend answers: its probe answered within the last timeout, or answers
     * one sent now within {@code timeoutMillis}. Never fails.
     */
    private CompletableFuture<Boolean> othersAnswer(DatabaseBackend b, long timeoutMillis) {
        long lately = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(settings.backendTimeoutMillis());
        List<CompletableFuture<HealthProbe.Result>> asked = new ArrayList<>();
        for (DatabaseBackend other : backends) {
            if (other != b && other.isEnabled()) {
                if (other.probe().answeredSince(lately)) {
                    return CompletableFuture.completedFuture(true);
                }
                asked.add(other.probe().probe(timeoutMillis));
            }
        }
        CompletableFuture<Boolean> any = new CompletableFuture<>();
        CompletableFuture.allOf(asked.toArray(new CompletableFuture[0]))
                .thenRun(() -> any.complete(false))
                .exceptionally(e -> {
                    log.warn(
                            "virtual database {}: a health probe of the backends other than {} failed",
                            vdb,
                            b.name(),
                            e);
                    any.complete(false);
                    return null;
                });
        // A failed probe fails its stage here too: it is logged once, above.
        asked.forEach(f -> f.thenAccept(r -> {
                    if (r.answered()) {
                        any.complete(true);
                    }
                })
                .exceptionally(e -> null));
        return any;
    }

    private void probeAll() {
        // A periodic task that throws is never run again, its exception kept in a future nobody reads: the
        // probes would stop unnoticed. So a failure is logged and the next round runs as usual.
        try {
            for (DatabaseBackend b : backends) {
                if (b.isEnabled()) {
                    long timeout = settings.backendTimeoutMillis();
                    b.probe()
                            .probe(timeout)
                            .thenCombine(othersAnswer(b, timeout), (r, others) -> {
                                judge(b, r, others);
                                return null;
                            })
                            .exceptionally(logFailure("judging the health probe of backend " + b.name()));
                }
            }
        } catch (RuntimeException e) {
            log.warn(
                    "virtual database {}: the periodic health probes failed; next round in {} ms",
                    vdb,
                    settings.probeIntervalMillis(),
                    e);
        }
    }

    /** Ends a chain of stages: logs its failure, which would otherwise stay in a stage nobody reads. */
    private Function<Throwable, Void> logFailure(String what) {
        return e -> {
            log.warn("virtual database {}: {} failed", vdb, what, e);
            return null;
        };
    }

    private void judge(DatabaseBackend b, HealthProbe.Result r, boolean othersAnswer) {
        if (!b.isEnabled() || r.answered() || !othersAnswer) {
            return;
        }
        if (r.verdict() == HealthProbe.Verdict.NO_ANSWER) {
            work.execute(() -> hung(b, hangReason() + ": the health probe (SELECT 1) got no answer"));
        } else if (FailureClassifier.isBackendFailure(r.failure())) {
            work.execute(
                    () -> hung(b, "health probe (SELECT 1) failed: " + FailureClassifier.failureReason(r.failure())));
        } else {
            // Refused for a reason of its own (a login rule, a limit): the server answers, so it stays.
            log.debug(
                    "virtual database {}: the health probe of backend {} was refused: {}",
                    vdb,
                    b.name(),
                    r.failure().getMessage());
        }
    }

    @Override
    public void close() {
        ScheduledFuture<?> p = probes;
        if (p != null) {
            p.cancel(false);
        }
        sweeps.cancel(false);
        timer.shutdownNow();
    }
}
