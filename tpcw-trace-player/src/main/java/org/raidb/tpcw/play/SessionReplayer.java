package org.raidb.tpcw.play;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.raidb.tpcw.trace.TraceEvent;

/**
 * Replays trace sessions on one connection, each session's events in recorded order. A statement
 * that fails inside a transaction rolls it back and the rest of that transaction is skipped (as the
 * application would have done); outside a transaction the session simply goes on.
 */
final class SessionReplayer {

  private final Connection connection;
  private final Pace pace;
  private final long startNanos;
  private final LongAdder statementsDone;
  private final LongAdder errorsSeen;
  private final SessionStats stats = new SessionStats();

  private String interaction;
  private long interactionNanos;
  private boolean inTransaction;
  private boolean skipping;

  SessionReplayer(Connection connection, Pace pace, long startNanos, LongAdder statementsDone, LongAdder errorsSeen) {
    this.connection = connection;
    this.pace = pace;
    this.startNanos = startNanos;
    this.statementsDone = statementsDone;
    this.errorsSeen = errorsSeen;
  }

  SessionStats stats() {
    return stats;
  }

  void replay(List<TraceEvent> events) throws InterruptedException {
    for (TraceEvent event : events) {
      if (pace == Pace.RECORDED) {
        waitUntil(event.offsetMicros());
      }
      switch (event.kind()) {
        case INTERACTION -> {
          endInteraction();
          interaction = event.text();
        }
        case BEGIN -> begin();
        case STATEMENT -> statement(event.text());
        case COMMIT -> end(true);
        case ROLLBACK -> end(false);
      }
    }
    endInteraction();
    if (inTransaction) { // a trace cut inside a transaction: leave nothing open
      end(false);
    }
  }

  private void begin() {
    try {
      connection.setAutoCommit(false);
      inTransaction = true;
      skipping = false;
    } catch (SQLException e) {
      failed(e);
    }
  }

  private void statement(String sql) {
    if (skipping) {
      stats.skipped++;
      return;
    }
    long begin = System.nanoTime();
    try (Statement s = connection.createStatement()) {
      boolean isResultSet = s.execute(sql);
      drain(s, isResultSet);
      if (!inTransaction) {
        stats.transactions++;
      }
    } catch (SQLException e) {
      failed(e);
    } finally {
      long nanos = System.nanoTime() - begin;
      interactionNanos += nanos;
      stats.statement(StatementKeyword.of(sql), nanos / 1000);
      statementsDone.increment();
    }
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

  private void end(boolean commit) {
    long begin = System.nanoTime();
    try {
      if (skipping || !commit) {
        connection.rollback();
        stats.rolledBack++;
      } else {
        connection.commit();
        stats.transactions++;
      }
    } catch (SQLException e) {
      failed(e);
    } finally {
      interactionNanos += System.nanoTime() - begin;
      inTransaction = false;
      skipping = false;
      try {
        connection.setAutoCommit(true);
      } catch (SQLException e) {
        failed(e);
      }
    }
  }

  private void failed(SQLException e) {
    stats.error(e.getSQLState());
    errorsSeen.increment();
    if (inTransaction && !skipping) {
      skipping = true;
      try {
        connection.rollback();
      } catch (SQLException rollbackFailed) {
        stats.error(rollbackFailed.getSQLState());
      }
    }
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
