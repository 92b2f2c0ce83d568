package org.raidb.controller.backend;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;

/**
 * Decides once, for every path, whether an error means the backend failed (so it must be disabled)
 * or the statement failed (so the client hears about it). DESIGN: SQLState class 08, socket errors and
 * timeouts are backend failures; having no free connection is not (the pool's timeout, though a
 * transient connection exception, says nothing about the backend).
 */
public final class FailureClassifier {
  /** SQLState of a pool that has no free connection in time, or of a server at its connection limit. */
  public static final String TOO_MANY_CONNECTIONS = "53300";

  private FailureClassifier() {}

  public static boolean isBackendFailure(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof SQLException e) {
        String state = e.getSQLState();
        if (TOO_MANY_CONNECTIONS.equals(state)) {
          return false; // no free connection (our pool, or the server's limit): the backend itself is fine
        }
        if (state != null && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03"))) {
          return true; // connection exceptions, and admin/crash shutdown of the server
        }
        if (e instanceof SQLNonTransientConnectionException || e instanceof SQLTransientConnectionException
            || e instanceof SQLRecoverableException) {
          return true;
        }
      }
      if (c instanceof IOException) {
        return true;
      }
    }
    return false;
  }
}
