package org.raidb.controller.scheduler;

import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides when a write may be sent to the backends and numbers the writes. The scheduler type only
 * changes which table locks a write takes and how long they last; {@link TableLockManager} does the
 * waiting and finds deadlocks.
 */
public final class WriteScheduler {
  private static final Set<String> EVERYTHING = Set.of(TableLockManager.EVERY_TABLE);

  private final SchedulerType type;
  private final TableLockManager locks;
  private final AtomicLong position = new AtomicLong();

  public WriteScheduler(SchedulerType type, long lockTimeoutMillis) {
    this.type = type;
    this.locks = new TableLockManager(type == SchedulerType.QUERY, lockTimeoutMillis);
  }

  public SchedulerType type() {
    return type;
  }

  /**
   * Waits until the write may be sent and returns the locks taken that must be released when the
   * statement has finished on every backend (empty when they last until the transaction ends).
   *
   * @param owner the transaction id, or a fresh id for an auto-commit statement
   * @param inTransaction whether the owner is a transaction that goes on after this statement
   */
  public Set<String> admit(long owner, boolean inTransaction, Set<String> tables, boolean everything)
      throws SQLException {
    Set<String> wanted = everything || type == SchedulerType.PESSIMISTIC_TRANSACTION ? EVERYTHING : tables;
    locks.acquire(owner, wanted);
    position.incrementAndGet();
    if (!inTransaction) {
      return wanted;
    }
    if (type == SchedulerType.QUERY) {
      locks.wrote(owner, wanted);
      return wanted; // one hold per statement, released when it finished everywhere
    }
    return Set.of();
  }

  /** The statement finished on every backend: its statement-scoped locks go. */
  public void statementDone(long owner, boolean inTransaction, Set<String> statementLocks) {
    if (!inTransaction) {
      locks.releaseAll(owner);
    } else if (!statementLocks.isEmpty()) {
      locks.release(owner, statementLocks);
    }
  }

  /** The transaction committed or rolled back on every backend. */
  public void transactionDone(long tx) {
    locks.releaseAll(tx);
  }

  /** The number of writes admitted so far: where a backend disabled now stopped in the write order. */
  public long position() {
    return position.get();
  }

  /** Whether the transaction holds no table lock (it has not written through the scheduler yet). */
  public boolean holdsNothing(long tx) {
    return locks.held(tx).isEmpty();
  }

  /** Writes waiting for table locks right now (admin view, tests). */
  public int waitingWrites() {
    return locks.waiting();
  }
}
