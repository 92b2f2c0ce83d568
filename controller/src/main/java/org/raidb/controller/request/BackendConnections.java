package org.raidb.controller.request;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.session.SessionState;

/**
 * Borrowing and returning pooled backend connections on behalf of a session, so that a session's
 * settings follow it onto every connection it uses and never leak to the next borrower.
 */
public final class BackendConnections {

  public Connection borrow(DatabaseBackend b, SessionState s) throws SQLException {
    Connection c = b.connection(s.virtualUser());
    try {
      if (!s.settings().isEmpty()) {
        StatementCache.forget(c); // kept under the default settings: not for this session's
      }
      s.prepare(c);
      return c;
    } catch (SQLException e) {
      discard(c);
      throw e;
    }
  }

  /**
   * Runs a read in auto-commit mode on a pooled connection, once the session's last write to the
   * backend is done (read your own writes). A result that fits in one batch costs one round trip and
   * the connection goes back at once; a larger one streams through a cursor, and its connection goes
   * back when the cursor is closed.
   *
   * @param mayFitOneBatch false when the result is known to be larger than one batch
   */
  StatementResult readAutoCommit(DatabaseBackend b, SessionState s, ExecuteRequest r, boolean mayFitOneBatch)
      throws SQLException {
    CompletableFuture<?> lastWrite = s.lastWrites().get(b);
    if (lastWrite != null) {
      lastWrite.handle((x, e) -> null).join();
    }
    Connection c = borrow(b, s);
    try {
      StatementResult small = mayFitOneBatch ? StatementRunner.runWithinOneBatch(c, r, s.running()) : null;
      if (small != null) {
        giveBack(c, s);
        return small;
      }
      c.setAutoCommit(false); // backends stream rows only inside a transaction (pgjdbc cursor fetch)
      StatementResult result = StatementRunner.run(c, r, true, () -> finishRead(c, s), s.running());
      if (!result.isCursor()) {
        finishRead(c, s); // nothing left open on the connection
      }
      return result;
    } catch (SQLException | RuntimeException e) {
      giveBack(c, s);
      throw e;
    }
  }

  /** Ends an auto-commit read: its connection was put in a transaction only so that rows could stream. */
  public void finishRead(Connection c, SessionState s) {
    try {
      c.commit();
    } catch (SQLException ignored) {
      // the read is complete; the pool validates the connection before lending it again
    }
    giveBack(c, s);
  }

  /** Returns a connection to its pool, undoing the session's settings first. */
  public void giveBack(Connection c, SessionState s) {
    if (c == null) {
      return;
    }
    try {
      if (!c.getAutoCommit()) {
        c.rollback();
      }
      if (!s.settings().isEmpty()) {
        StatementCache.forget(c); // kept under this session's settings: not for the next borrower
        try (Statement st = c.createStatement()) {
          st.execute("RESET ALL");
        }
      }
    } catch (SQLException ignored) {
      // closing below still returns it; HikariCP rolls back and checks it before reuse
    }
    discard(c);
  }

  public void discard(Connection c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (SQLException | RuntimeException ignored) {
      // A connection of a dead backend, or of a pool closed since it was borrowed (HikariCP then
      // fails with a NullPointerException): nothing is left to release either way.
    }
  }
}
