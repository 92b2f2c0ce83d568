package org.raidb.controller.admin;

import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One long-running administrative operation (dump, restore, replay) as the code doing it reports it: it calls
 * {@link #advance} as entries are processed and {@link #succeed} or {@link #fail} at the end. Any number of consoles
 * may read its {@link #progress} at the same time; the operation never waits for them.
 */
public final class Operation {

    /** Where an operation stands. */
    public enum State {
        RUNNING,
        SUCCEEDED,
        FAILED
    }

    private final long id;
    private final String kind;
    private final String virtualDatabase;
    private final String target;
    private final String unit;
    private final Clock clock;
    private final Instant started;
    private final AtomicLong done = new AtomicLong();
    private volatile long total;
    private volatile State state = State.RUNNING;
    private volatile String message;
    private volatile Instant ended;

    Operation(long id, String kind, String virtualDatabase, String target, String unit, long total, Clock clock) {
        this.id = id;
        this.kind = kind;
        this.virtualDatabase = virtualDatabase;
        this.target = target;
        this.unit = unit;
        this.total = total;
        this.clock = clock;
        this.started = clock.instant();
    }

    public long id() {
        return id;
    }

    public String virtualDatabase() {
        return virtualDatabase;
    }

    /** Records {@code count} more units done (entries replayed, rows dumped...). */
    public void advance(long count) {
        done.addAndGet(count);
    }

    /**
     * For operations that learn their size as they go (a log still being written while it is replayed). While it runs
     * the total is an estimate: a replay counts the log's rows, transaction markers and rolled-back writes included;
     * a dump, the tables' statistics.
     */
    public void total(long total) {
        this.total = total;
    }

    /** Ends it; its total becomes what it did, so that the line a console prints last gives exact counts. */
    public void succeed(String message) {
        end(State.SUCCEEDED, message);
    }

    public void fail(String message) {
        end(State.FAILED, message);
    }

    private synchronized void end(State finalState, String endMessage) {
        if (state == State.RUNNING) {
            if (finalState == State.SUCCEEDED) {
                total = done.get(); // before the state: whoever reads "succeeded" reads this total
            }
            message = endMessage;
            ended = clock.instant();
            state = finalState;
        }
    }

    boolean isRunning() {
        return state == State.RUNNING;
    }

    /** A consistent picture for the API: rate over the whole run so far, time left at that rate. */
    public OperationProgress progress() {
        State s = state;
        Instant end = s == State.RUNNING ? clock.instant() : ended;
        long n = done.get();
        long t = total;
        double seconds = Math.max(0, end.toEpochMilli() - started.toEpochMilli()) / 1000.0;
        Double rate = seconds > 0 ? n / seconds : null;
        Long secondsLeft = null;
        if (s == State.RUNNING && t >= 0 && rate != null && rate > 0) {
            secondsLeft = (long) Math.ceil(Math.max(0, t - n) / rate);
        }
        return new OperationProgress(
                id,
                kind,
                virtualDatabase,
                target,
                unit,
                s.name().toLowerCase(Locale.ROOT),
                started.toString(),
                s == State.RUNNING ? null : end.toString(),
                n,
                t < 0 ? null : t,
                rate == null ? null : Math.round(rate * 10) / 10.0,
                secondsLeft,
                message);
    }
}
