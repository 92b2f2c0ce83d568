package org.raidb.controller.scheduler;

import java.sql.SQLException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.raidb.driver.protocol.SqlStates;

/**
 * The virtual database's write order, in its simplest correct form: one write transaction (or one
 * auto-commit write) at a time, so that every backend applies writes in the same order. A transaction
 * keeps the order from its first write to its commit or rollback, which is what makes conflicting
 * transactions commit in the same order everywhere.
 *
 * <p>A semaphore rather than a lock, because the order is held across requests and released by
 * whichever thread ends the transaction. Fair, so that a waiting writer is not starved.
 */
public final class WriteOrder {
  private final Semaphore permit = new Semaphore(1, true);
  private final AtomicLong position = new AtomicLong();
  private final long timeoutMillis;

  public WriteOrder(long timeoutMillis) {
    this.timeoutMillis = timeoutMillis;
  }

  public void acquire() throws SQLException {
    try {
      if (!permit.tryAcquire(timeoutMillis, TimeUnit.MILLISECONDS)) {
        throw new SQLException("waited " + timeoutMillis / 1000 + " s for another transaction's writes to finish; "
            + "retry the transaction, and keep write transactions short", SqlStates.LOCK_NOT_AVAILABLE);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while waiting for the write order", SqlStates.QUERY_CANCELED);
    }
  }

  public void release() {
    permit.release();
  }

  /** Assigns the next place in the order to a write about to be sent to the backends. */
  public long next() {
    return position.incrementAndGet();
  }

  /** The place of the last write sent: where a backend disabled now stopped. */
  public long position() {
    return position.get();
  }
}
