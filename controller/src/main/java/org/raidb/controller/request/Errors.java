package org.raidb.controller.request;

import java.sql.SQLException;
import org.raidb.balancer.NoBackendAvailableException;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.SqlStates;

/** The errors a client gets when routing finds no backend. */
final class Errors {
  private Errors() {}

  static SQLException unavailable(VirtualDatabase vdb, NoBackendAvailableException e, SQLException cause) {
    boolean anyEnabled = vdb.backends().stream().anyMatch(DatabaseBackend::isEnabled);
    if (!anyEnabled) {
      return noBackendLeft(vdb, cause);
    }
    return new SQLException(e.getMessage(), SqlStates.UNDEFINED_TABLE);
  }

  static SQLException noBackendLeft(VirtualDatabase vdb, SQLException cause) {
    return new SQLException("virtual database " + vdb.name() + " has no enabled backend: it refuses requests until an "
        + "administrator enables a backend", SqlStates.CONNECTION_FAILURE, cause);
  }
}
