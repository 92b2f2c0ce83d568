package org.raidb.controller.backend;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.raidb.driver.protocol.SqlStates;

/**
 * Asks a backend whether it answers at all: {@code SELECT 1} on a connection of its own, outside its
 * pools (a pool with no free connection says nothing about the server), within a timeout.
 *
 * <p>A hung server answers nothing, and the thread asking it stays blocked until the socket gives up.
 * So the verdict comes from a timer, the probe's connection is aborted to free that thread, and while
 * it is not back every new probe gets "no answer" at once. Probes asked for while one is running share
 * it.
 */
public final class HealthProbe {
    /** The driver's own read timeout, a little after ours, only frees a thread the abort did not. */
    private static final int SOCKET_GRACE_MILLIS = 1_000;

    /** What a probe found. */
    public record Result(Verdict verdict, SQLException failure) {
        public boolean answered() {
            return verdict == Verdict.ANSWERED;
        }
    }

    public enum Verdict {
        ANSWERED,
        NO_ANSWER,
        FAILED
    }

    private static final Result ANSWERED = new Result(Verdict.ANSWERED, null);
    private static final Result NO_ANSWER = new Result(Verdict.NO_ANSWER, null);

    /** Opens the probe's connection (the backend's URL and login, outside its pools). */
    @FunctionalInterface
    interface Connector {
        Connection open() throws SQLException;
    }

    private final Connector connector;
    /** Probes mostly wait on sockets; a thread each, created on demand, ended with the backend. */
    private final ExecutorService threads;

    private volatile Connection connection;
    private CompletableFuture<Result> running;
    private boolean threadOut;
    private volatile long lastAnswerNanos;
    private volatile boolean everAnswered;
    /** The backend was closed: no probe opens a connection any more. */
    private volatile boolean stopped;

    HealthProbe(String backend, Connector connector) {
        this.connector = connector;
        AtomicInteger n = new AtomicInteger();
        this.threads =
                new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
                    Thread t = new Thread(r, "raidb-health-probe-" + backend + "-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    /**
     * Sends {@code SELECT 1} unless a probe is running (then its verdict, if it comes within this
     * timeout, is this one's). Completes within {@code timeoutMillis}; never fails.
     */
    public synchronized CompletableFuture<Result> probe(long timeoutMillis) {
        if (running != null && !running.isDone()) {
            return running.copy().completeOnTimeout(NO_ANSWER, timeoutMillis, TimeUnit.MILLISECONDS);
        }
        if (threadOut || stopped) {
            return CompletableFuture.completedFuture(NO_ANSWER); // the last probe's answer has not come yet
        }
        CompletableFuture<Result> result = new CompletableFuture<>();
        running = result;
        threadOut = true;
        threads.execute(() -> {
            Result r = ask(timeoutMillis);
            synchronized (this) {
                threadOut = false;
            }
            result.complete(r);
        });
        result.completeOnTimeout(NO_ANSWER, timeoutMillis, TimeUnit.MILLISECONDS);
        abortIfNoAnswer(result);
        return result;
    }

    /** A probe left without an answer leaves its thread blocked on the connection: aborting it frees the thread. */
    // The stage thenAccept returns is not kept: the probe never fails and ConnectionAbort.abort swallows every
    // failure, so it has nothing to report.
    @SuppressWarnings("FutureReturnValueIgnored")
    private void abortIfNoAnswer(CompletableFuture<Result> result) {
        result.thenAccept(r -> {
            if (r.verdict() == Verdict.NO_ANSWER) {
                ConnectionAbort.abort(connection);
            }
        });
    }

    /**
     * Answered if the backend answered a probe after {@code sinceNanos} ({@link System#nanoTime()}); else
     * the verdict of a probe sent now, waited for at most {@code timeoutMillis}.
     */
    public Result check(long sinceNanos, long timeoutMillis) {
        return answeredSince(sinceNanos) ? ANSWERED : probe(timeoutMillis).join();
    }

    /** The backend answered a statement: as good as a probe answered now, and cheaper. */
    public void heard() {
        lastAnswerNanos = System.nanoTime();
        everAnswered = true;
    }

    public boolean answeredSince(long sinceNanos) {
        return everAnswered && lastAnswerNanos - sinceNanos >= 0;
    }

    /**
     * One probe. A connection kept from earlier that fails is tried once more freshly opened: only the
     * server's failure counts, not the end of one old connection (an administrator may have ended it).
     */
    private Result ask(long timeoutMillis) {
        while (true) {
            Connection c = connection;
            boolean fresh = c == null;
            try {
                if (fresh) {
                    c = connector.open();
                    connection = c;
                    if (stopped) {
                        throw new SQLException(
                                "the backend was closed while its probe connected",
                                SqlStates.CONNECTION_DOES_NOT_EXIST);
                    }
                }
                c.setNetworkTimeout(
                        Runnable::run, (int) Math.min(Integer.MAX_VALUE, timeoutMillis + SOCKET_GRACE_MILLIS));
                try (Statement st = c.createStatement()) {
                    st.execute("SELECT 1");
                }
                heard();
                return ANSWERED;
            } catch (SQLException | RuntimeException e) {
                close(c);
                if (fresh) {
                    return new Result(
                            Verdict.FAILED,
                            e instanceof SQLException se
                                    ? se
                                    : new SQLException("health probe failed: " + e, SqlStates.CONNECTION_FAILURE, e));
                }
            }
        }
    }

    private void close(Connection c) {
        if (connection == c) {
            connection = null;
        }
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // a broken connection; the next probe opens another
            }
        }
    }

    /** Drops the probe's connection (the backend left the array); a later probe opens a new one. */
    void disconnect() {
        Connection c = connection;
        connection = null;
        ConnectionAbort.abort(c);
    }

    /** The backend is closed for good: its connection goes, and none is opened again. */
    synchronized void stop() {
        stopped = true;
        disconnect();
        threads.shutdown(); // a probe still running ends on its own (its connection was just aborted)
    }
}
