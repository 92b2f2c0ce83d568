package org.raidb.controller.request;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
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
