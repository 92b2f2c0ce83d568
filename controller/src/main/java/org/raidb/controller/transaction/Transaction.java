package org.raidb.controller.transaction;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.raidb.controller.backend.DatabaseBackend;

/**
 * One client transaction as the controller runs it: a lane (connection and ordered work) per backend,
 * taken on first use. Lanes are dropped from other threads when their backend fails, hence the
 * concurrent map.
 */
public final class Transaction {
  private final long id;
  private final Instant start = Instant.now();
  private final Map<DatabaseBackend, BackendLane> lanes = new ConcurrentHashMap<>();
  private volatile boolean hasWritten;
  /** Set once the recovery log holds a statement of this transaction: its end must be logged too. */
  private volatile boolean logged;
  /** Set when a statement failed: PostgreSQL refuses everything but a rollback now. */
  private volatile SQLException abortCause;

  public Transaction(long id) {
    this.id = id;
  }

  public long id() {
    return id;
  }

  /** When the transaction started: PostgreSQL's now() is this instant for every statement of it. */
  public Instant start() {
    return start;
  }

  public BackendLane lane(DatabaseBackend backend) {
    return lanes.get(backend);
  }

  public void join(BackendLane lane) {
    lanes.put(lane.backend(), lane);
  }

  /** Drops a backend that failed or was disabled: its part of the transaction is gone with its connection. */
  public BackendLane forget(DatabaseBackend backend) {
    return lanes.remove(backend);
  }

  public Collection<BackendLane> lanes() {
    return lanes.values();
  }

  public boolean isEmpty() {
    return lanes.isEmpty();
  }

  public Set<String> backendNames() {
    return lanes.keySet().stream().map(DatabaseBackend::name).collect(Collectors.toUnmodifiableSet());
  }

  public boolean hasWritten() {
    return hasWritten;
  }

  public void markWritten() {
    hasWritten = true;
  }

  public boolean isLogged() {
    return logged;
  }

  public void markLogged() {
    logged = true;
  }

  public SQLException abortCause() {
    return abortCause;
  }

  public synchronized void abort(SQLException cause) {
    if (abortCause == null) {
      abortCause = cause;
    }
  }

  public void clearAbort() {
    abortCause = null;
  }
}
