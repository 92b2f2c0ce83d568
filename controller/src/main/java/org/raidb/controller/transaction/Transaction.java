package org.raidb.controller.transaction;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.raidb.controller.backend.DatabaseBackend;

/**
 * One client transaction as the controller runs it: a connection per backend, taken on first use,
 * and whether the transaction holds the write order.
 */
public final class Transaction {
  private final long id;
  private final Map<DatabaseBackend, Connection> connections = new LinkedHashMap<>();
  private boolean holdsWriteOrder;
  private boolean hasWritten;
  /** Set when a statement failed on PostgreSQL backends: they refuse everything but a rollback now. */
  private SQLException abortCause;

  public Transaction(long id) {
    this.id = id;
  }

  public long id() {
    return id;
  }

  public Connection connection(DatabaseBackend backend) {
    return connections.get(backend);
  }

  public void join(DatabaseBackend backend, Connection c) {
    connections.put(backend, c);
  }

  /** Drops a backend that failed or was disabled: its part of the transaction is gone with its connection. */
  public Connection forget(DatabaseBackend backend) {
    return connections.remove(backend);
  }

  public Map<DatabaseBackend, Connection> connections() {
    return connections;
  }

  public Set<String> backendNames() {
    return connections.keySet().stream().map(DatabaseBackend::name).collect(Collectors.toUnmodifiableSet());
  }

  public boolean holdsWriteOrder() {
    return holdsWriteOrder;
  }

  public void holdsWriteOrder(boolean holds) {
    holdsWriteOrder = holds;
  }

  public boolean hasWritten() {
    return hasWritten;
  }

  public void markWritten() {
    hasWritten = true;
  }

  public SQLException abortCause() {
    return abortCause;
  }

  public void abort(SQLException cause) {
    if (abortCause == null) {
      abortCause = cause;
    }
  }

  public void clearAbort() {
    abortCause = null;
  }
}
