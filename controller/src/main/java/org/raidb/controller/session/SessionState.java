package org.raidb.controller.session;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.request.RunningStatements;
import org.raidb.controller.transaction.Transaction;

/**
 * What the controller remembers of one client connection between requests: who it is, its
 * transaction, and the settings every backend connection it uses must carry.
 */
public final class SessionState {
  private static final AtomicLong TRANSACTION_IDS = new AtomicLong();

  private final long id;
  private final String virtualUser;
  private final RunningStatements running = new RunningStatements();
  /** Per backend, the last auto-commit write of this session: reads wait for it (read your writes). */
  private final Map<DatabaseBackend, CompletableFuture<?>> lastWrites =
      new ConcurrentHashMap<>();
  /** SET statements the client ran, replayed on every backend connection the session borrows. */
  private final List<String> settings = new ArrayList<>();
  private boolean autoCommit = true;
  /** A BEGIN sent as SQL in auto-commit mode opens a transaction that COMMIT/ROLLBACK ends. */
  private boolean explicitTransaction;
  private Transaction transaction;
  private int isolation = -1; // -1: the backend's default
  private boolean readOnly;

  public SessionState(long id, String virtualUser) {
    this.id = id;
    this.virtualUser = virtualUser;
  }

  /** A fresh id for a transaction or an auto-commit statement: they share one id space for table locks. */
  public static long nextTransactionId() {
    return TRANSACTION_IDS.incrementAndGet();
  }

  /** New transaction ids will be larger than {@code id} (one already in a recovery log). */
  public static void transactionIdsAbove(long id) {
    TRANSACTION_IDS.accumulateAndGet(id, Math::max);
  }

  public long id() {
    return id;
  }

  public String virtualUser() {
    return virtualUser;
  }

  public RunningStatements running() {
    return running;
  }

  /** Whether statements run in a transaction that the client will end with commit or rollback. */
  public boolean inTransactionMode() {
    return !autoCommit || explicitTransaction;
  }

  /** The current transaction, started on demand when the session is in transaction mode; null in auto-commit. */
  public Transaction transaction() {
    if (transaction == null && inTransactionMode()) {
      transaction = new Transaction(nextTransactionId());
    }
    return transaction;
  }

  /** The transaction if one has started, without starting one. */
  public Transaction currentTransaction() {
    return transaction;
  }

  public void endTransaction() {
    transaction = null;
    explicitTransaction = false;
  }

  public boolean autoCommit() {
    return autoCommit;
  }

  public void autoCommit(boolean on) {
    autoCommit = on;
  }

  public void beginExplicitTransaction() {
    explicitTransaction = true;
  }

  public int isolation() {
    return isolation;
  }

  public void isolation(int level) {
    isolation = level;
  }

  public boolean readOnly() {
    return readOnly;
  }

  public void readOnly(boolean ro) {
    readOnly = ro;
  }

  public Map<DatabaseBackend, CompletableFuture<?>> lastWrites() {
    return lastWrites;
  }

  public List<String> settings() {
    return settings;
  }

  /** Gives a freshly borrowed backend connection this session's isolation, read-only flag and SET values. */
  public void prepare(Connection c) throws java.sql.SQLException {
    if (isolation >= 0) {
      c.setTransactionIsolation(isolation);
    }
    if (readOnly) {
      c.setReadOnly(true);
    }
    if (!settings.isEmpty()) {
      try (java.sql.Statement st = c.createStatement()) {
        for (String s : settings) {
          st.execute(s);
        }
      }
    }
  }
}
