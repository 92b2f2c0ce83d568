package org.raidb.controller.request;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backend.NoAnswerException;
import org.raidb.controller.health.HealthMonitor;

/**
 * The backends that leave a write unanswered long after the others answered it. A write holds its
 * conflict classes until every backend has answered, so one hung backend would stop every client; after
 * {@code backendTimeout} it is disabled instead, its connections aborted (what it ran is in doubt
 * there, as after a broken connection), and its answer counted as that failure, so that the write
 * completes with the others and its locks are released.
 *
 * <p>The clock counts from when the others answered (a majority of the write's backends; the other one
 * of two), not from the start: a statement that is long everywhere is no hang. And it counts from when
 * the backend started this statement, if later: work queued on its lane behind earlier statements
 * (completion first or majority lets the client run ahead) is not yet its fault.
 */
final class LateAnswers {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(LateAnswers.class);
    private final HealthMonitor health;
    private final CompletionTracker tracker;
    private final List<DatabaseBackend> backends;
    private final String statement;
    private final int othersNeeded;
    private final long timeoutNanos;
    private final Map<DatabaseBackend, Long> startedAt = new ConcurrentHashMap<>();
    private volatile long othersAnsweredAt;

    LateAnswers(HealthMonitor health, CompletionTracker tracker, List<DatabaseBackend> backends, String statement) {
        this.health = health;
        this.tracker = tracker;
        this.backends = backends;
        this.statement = statement;
        this.othersNeeded = backends.size() <= 2 ? backends.size() - 1 : backends.size() / 2 + 1;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(health.backendTimeoutMillis());
    }

    /** The backend's lane began running this statement. */
    void started(DatabaseBackend b) {
        startedAt.put(b, System.nanoTime());
    }

    /** Called with {@link CompletionTracker#add}'s count: once the others have answered, the rest are on the clock. */
    void answered(int count) {
        if (othersNeeded > 0 && count == othersNeeded && count < backends.size()) {
            othersAnsweredAt = System.nanoTime();
            judgeAfter(timeoutNanos);
        }
    }

    /** Judges the late answers again after {@code delayNanos}. */
    private void judgeAfter(long delayNanos) {
        // The timer's future is only a handle to cancel the judgement, which nothing does: failures are logged below.
        ScheduledFuture<?> unused = health.after(delayNanos, () -> {
            try {
                judge();
            } catch (RuntimeException e) {
                log.error("judging the late answers to [{}] failed", statement, e);
            }
        });
    }

    private void judge() {
        long now = System.nanoTime();
        long next = Long.MAX_VALUE;
        List<DatabaseBackend> late = new ArrayList<>();
        for (DatabaseBackend b : backends) {
            if (tracker.hasAnswered(b)) {
                continue;
            }
            Long started = startedAt.get(b);
            long deadline = started == null ? now + timeoutNanos : Math.max(started, othersAnsweredAt) + timeoutNanos;
            if (started != null && deadline - now <= 0) {
                late.add(b);
            } else {
                next = Math.min(next, deadline - now);
            }
        }
        for (DatabaseBackend b : late) {
            String reason = health.hangReason() + ", on [" + OutcomeResolver.abbreviate(statement) + "]";
            // Disabled and cut loose first, so that nothing blocks on its connection once the write is resolved.
            health.hung(b, reason);
            tracker.add(new BackendOutcome(b, null, new NoAnswerException(reason)));
        }
        if (next != Long.MAX_VALUE && !tracker.all().isDone()) {
            judgeAfter(next);
        }
    }
}
