package org.raidb.tpcw.play;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.random.RandomGenerator;
import org.raidb.tpcw.trace.TraceEvent;

/**
 * Replays trace sessions on one connection, each session's events in recorded order. A transaction
 * (or an auto-commit statement) aborted with 40001 or 40P01 is rolled back and, after a short random
 * wait, run again from its first statement, at most {@link RetryPolicy#maxRetries()} times. Any other
 * failure inside a transaction, or an abort past that bound, rolls it back and the rest of that
 * transaction is skipped (as the application would have done); outside a transaction the session
 * simply goes on.
 */
final class SessionReplayer {

    /** Waits before a retry; tests record the waits instead of sleeping. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    private final Connection connection;
    private final Pace pace;
    private final long startNanos;
    private final LongAdder statementsDone;
    private final LongAdder errorsSeen;
    private final RetryPolicy retryPolicy;
    private final RandomGenerator random;
    private final Sleeper sleeper;
    private final SessionStats stats = new SessionStats();

    private String interaction;
    private long interactionNanos;
    private boolean inTransaction;
    private boolean skipping;
    /** The event the current unit of retry starts at: its BEGIN, or the auto-commit statement itself. */
    private int unitStart = -1;

    private int retriesOfUnit;
    private int statementsOfAttempt;

    SessionReplayer(
            Connection connection,
            Pace pace,
            long startNanos,
            LongAdder statementsDone,
            LongAdder errorsSeen,
            RetryPolicy retryPolicy,
            RandomGenerator random,
            Sleeper sleeper) {
        this.connection = connection;
        this.pace = pace;
        this.startNanos = startNanos;
        this.statementsDone = statementsDone;
        this.errorsSeen = errorsSeen;
        this.retryPolicy = retryPolicy;
        this.random = random;
        this.sleeper = sleeper;
    }

    SessionStats stats() {
        return stats;
    }

    void replay(List<TraceEvent> events) throws InterruptedException {
        int i = 0;
        while (i < events.size()) {
            TraceEvent event = events.get(i);
            if (pace == Pace.RECORDED) {
                waitUntil(event.offsetMicros()); // a retry re-runs events already due: no wait but the backoff
            }
            boolean aborted = switch (event.kind()) {
                case INTERACTION -> {
                    endInteraction();
                    interaction = event.text();
                    yield false;
                }
                case BEGIN -> {
                    begin(i);
                    yield false;
                }
                case STATEMENT -> statement(i, event.text());
                case COMMIT -> end(true);
                case ROLLBACK -> end(false);
            };
            i = aborted ? retry() : i + 1;
        }
        endInteraction();
        if (inTransaction) { // a trace cut inside a transaction: leave nothing open
            end(false);
        }
    }

    private void startUnit(int index) {
        if (index != unitStart) { // not a re-run: a new transaction or auto-commit statement
            unitStart = index;
            retriesOfUnit = 0;
        }
        statementsOfAttempt = 0;
    }

    private void begin(int index) {
        startUnit(index);
        try {
            connection.setAutoCommit(false);
            inTransaction = true;
            skipping = false;
        } catch (SQLException e) {
            failed(e);
        }
    }

    /** True when the statement's transaction was aborted and is to be run again. */
    private boolean statement(int index, String sql) {
        if (skipping) {
            stats.skipped++;
            return false;
        }
        if (!inTransaction) {
            startUnit(index);
        }
        long begin = System.nanoTime();
        boolean aborted = false;
        try (Statement s = connection.createStatement()) {
            statementsOfAttempt++;
            boolean isResultSet = s.execute(sql);
            drain(s, isResultSet);
            if (!inTransaction) {
                stats.transactions++;
            }
        } catch (SQLException e) {
            aborted = failed(e);
        } finally {
            long nanos = System.nanoTime() - begin;
            interactionNanos += nanos;
            stats.statement(StatementKeyword.of(sql), nanos / 1000);
            statementsDone.increment();
        }
        return aborted;
    }

    /** Reads every row of every result, as the application did: a read is only done once its rows have arrived. */
    private static void drain(Statement s, boolean isResultSet) throws SQLException {
        while (true) {
            if (isResultSet) {
                try (ResultSet rs = s.getResultSet()) {
                    while (rs.next()) {
                        // rows are fetched, not kept
                    }
                }
            } else if (s.getUpdateCount() == -1) {
                return;
            }
            isResultSet = s.getMoreResults();
        }
    }

    /** True when the commit found the transaction aborted and it is to be run again. */
    private boolean end(boolean commit) {
        long begin = System.nanoTime();
        boolean aborted = false;
        try {
            if (skipping || !commit) {
                connection.rollback();
                stats.rolledBack++;
            } else {
                connection.commit();
                stats.transactions++;
            }
        } catch (SQLException e) {
            aborted = failed(e);
        } finally {
            interactionNanos += System.nanoTime() - begin;
            inTransaction = false;
            skipping = false;
            try {
                connection.setAutoCommit(true);
            } catch (SQLException e) {
                countError(e);
            }
        }
        return aborted;
    }

    /**
     * A failure: true when it aborted the unit and a retry is allowed (the unit is rolled back, nothing
     * is counted as an error); otherwise it is counted and the rest of the transaction is skipped.
     */
    private boolean failed(SQLException e) {
        if (RetryPolicy.retryable(e)
                && unitStart >= 0
                && (inTransaction || statementsOfAttempt > 0)
                && retryPolicy.allows(retriesOfUnit + 1)) {
            if (inTransaction) {
                try {
                    connection.rollback();
                } catch (SQLException rollbackFailed) {
                    stats.error(rollbackFailed.getSQLState());
                }
            }
            return true;
        }
        countError(e);
        if (inTransaction && !skipping) {
            skipping = true;
            try {
                connection.rollback();
            } catch (SQLException rollbackFailed) {
                stats.error(rollbackFailed.getSQLState());
            }
        }
        return false;
    }

    private void countError(SQLException e) {
        stats.error(e.getSQLState());
        errorsSeen.increment();
    }

    /** Counts the retry, waits the backoff (part of the interaction's time) and says where to resume. */
    private int retry() throws InterruptedException {
        retriesOfUnit++;
        stats.retry(interaction, statementsOfAttempt);
        statementsDone.add(-statementsOfAttempt);
        long begin = System.nanoTime();
        sleeper.sleep(retryPolicy.backoffMillis(retriesOfUnit, random));
        interactionNanos += System.nanoTime() - begin;
        return unitStart;
    }

    private void endInteraction() {
        if (interaction != null) {
            stats.interaction(interaction, interactionNanos / 1000);
        }
        interaction = null;
        interactionNanos = 0;
    }

    private void waitUntil(long offsetMicros) throws InterruptedException {
        long due = startNanos + offsetMicros * 1000;
        long wait = due - System.nanoTime();
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
    }
}
