package org.raidb.controller.scheduler;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.raidb.driver.protocol.SqlStates;

/**
 * Exclusive table locks of one virtual database, owned by transactions (an auto-commit statement is a
 * transaction of one statement). Two writes that conflict (they share a table) are thereby applied in
 * the same order on every backend: the second cannot be sent before the first has finished everywhere.
 *
 * <p>Deadlocks are found on the wait-for graph when a transaction starts to wait and whenever the
 * graph changes: the transaction whose wait would close a cycle is the victim and gets SQLState 40001.
 * With the query scheduler, locks last one statement while the backends keep the transaction's row
 * locks, so a transaction whose statement holds table X is also taken to wait for every other open
 * transaction that has written X: that is where the backends may make it wait.
 *
 * <p>One monitor guards everything: lock operations are a few map lookups, far cheaper than the
 * backend round trip they order.
 */
public final class TableLockManager {
  /**
   * A cycle through a backend wait is only a suspicion (the statement may be running, not blocked): it
   * must persist this long before a victim is chosen, which a statement that is merely slow outlives.
   */
  static final long BACKEND_WAIT_GRACE_MILLIS = 300;

  /** Stands for every table: held by writes whose tables are unknown, and by the pessimistic scheduler. */
  public static final String EVERY_TABLE = "*";

  private final Map<String, Long> holders = new HashMap<>();
  /**
   * Per transaction, each table it holds and how many of its statements hold it: a statement's locks can
   * be released after the next statement of the same transaction took them again (completion first).
   */
  private final Map<Long, Map<String, Integer>> heldBy = new HashMap<>();
  private final Map<Long, Set<Long>> waitsFor = new HashMap<>();
  /**
   * Waiting requests in arrival order. A transaction that holds no lock yet queues behind earlier
   * waiters for the same tables, so that a stream of newcomers cannot starve a waiter; one that
   * already holds locks is not made to queue, which would only add waits that can close cycles.
   */
  private final java.util.LinkedHashMap<Long, Collection<String>> queue = new java.util.LinkedHashMap<>();
  /** Query scheduler: open transactions that wrote each table (their row locks stay on the backends). */
  private final Map<String, Set<Long>> writers = new HashMap<>();
  private final Map<Long, Set<String>> writtenBy = new HashMap<>();
  private final boolean backendsHoldRowLocks;
  private final long timeoutMillis;

  public TableLockManager(boolean backendsHoldRowLocks, long timeoutMillis) {
    this.backendsHoldRowLocks = backendsHoldRowLocks;
    this.timeoutMillis = timeoutMillis;
  }

  /**
   * Takes every lock in {@code tables} for the transaction, waiting as needed. Locks the transaction
   * already holds are kept; the set is taken all at once, never partly, so that a waiting transaction
   * holds nothing it is waiting to complete.
   */
  public synchronized void acquire(long tx, Collection<String> tables) throws SQLException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    long suspectedSince = 0;
    boolean newcomer = !heldBy.containsKey(tx);
    try {
      while (true) {
        Set<Long> blockers = blockers(tx, tables);
        if (newcomer) {
          blockers.addAll(earlierWaiters(tx, tables));
        }
        if (blockers.isEmpty()) {
          waitsFor.remove(tx);
          queue.remove(tx);
          Map<String, Integer> mine = heldBy.computeIfAbsent(tx, k -> new HashMap<>());
          for (String t : tables) {
            holders.put(t, tx);
            mine.merge(t, 1, Integer::sum);
          }
          notifyAll(); // the graph changed: waiters re-check for cycles
          return;
        }
        waitsFor.put(tx, blockers);
        queue.putIfAbsent(tx, tables);
        boolean certain = reaches(blockers, tx, false);
        boolean suspected = !certain && backendsHoldRowLocks && reaches(blockers, tx, true);
        long now = System.nanoTime();
        if (!suspected) {
          suspectedSince = 0;
        } else if (suspectedSince == 0) {
          suspectedSince = now;
        }
        if (certain || (suspected && now - suspectedSince >= TimeUnit.MILLISECONDS.toNanos(BACKEND_WAIT_GRACE_MILLIS))) {
          waitsFor.remove(tx);
          queue.remove(tx);
          notifyAll();
          throw new SQLException("deadlock detected: this transaction waited for tables " + tables
              + " held by a transaction that waits for it; it was rolled back on every backend, retry it",
              SqlStates.SERIALIZATION_FAILURE);
        }
        if (deadline - now <= 0) {
          waitsFor.remove(tx);
          queue.remove(tx);
          notifyAll();
          throw new SQLException("waited " + timeoutMillis + " ms for tables " + tables + " held by other transactions; "
              + "retry, keep write transactions short, or raise the scheduler's lockTimeout", SqlStates.LOCK_NOT_AVAILABLE);
        }
        long left = deadline - System.nanoTime();
        if (suspected) {
          left = Math.min(left, TimeUnit.MILLISECONDS.toNanos(BACKEND_WAIT_GRACE_MILLIS) / 3 + 1);
        }
        if (left > 0) {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        }
      }
    } catch (InterruptedException e) {
      waitsFor.remove(tx);
      queue.remove(tx);
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while waiting for table locks", SqlStates.QUERY_CANCELED);
    }
  }

  /**
   * Releases one statement's hold on the given locks (under the query scheduler); a table goes when no
   * statement of the transaction holds it any more.
   */
  public synchronized void release(long tx, Collection<String> tables) {
    Map<String, Integer> held = heldBy.get(tx);
    if (held == null) {
      return;
    }
    for (String t : tables) {
      Integer n = held.get(t);
      if (n == null) {
        continue;
      }
      if (n > 1) {
        held.put(t, n - 1);
      } else {
        held.remove(t);
        holders.remove(t);
      }
    }
    if (held.isEmpty()) {
      heldBy.remove(tx);
    }
    notifyAll();
  }

  /** Releases everything of a transaction that ended (committed or rolled back on every backend). */
  public synchronized void releaseAll(long tx) {
    Map<String, Integer> held = heldBy.remove(tx);
    if (held != null) {
      held.keySet().forEach(holders::remove);
    }
    Set<String> written = writtenBy.remove(tx);
    if (written != null) {
      for (String t : written) {
        Set<Long> w = writers.get(t);
        if (w != null && w.remove(tx) && w.isEmpty()) {
          writers.remove(t);
        }
      }
    }
    waitsFor.remove(tx);
    queue.remove(tx);
    notifyAll();
  }

  /** Records that an open transaction has written these tables (query scheduler bookkeeping). */
  public synchronized void wrote(long tx, Collection<String> tables) {
    if (!backendsHoldRowLocks) {
      return;
    }
    for (String t : tables) {
      writers.computeIfAbsent(t, k -> new HashSet<>()).add(tx);
      writtenBy.computeIfAbsent(tx, k -> new HashSet<>()).add(t);
    }
  }

  /** Transactions waiting for a lock right now. */
  public synchronized int waiting() {
    return waitsFor.size();
  }

  public synchronized Set<String> held(long tx) {
    Map<String, Integer> h = heldBy.get(tx);
    return h == null ? Set.of() : Set.copyOf(h.keySet());
  }

  /** Transactions queued before {@code tx} that want a table {@code tx} wants. */
  private Set<Long> earlierWaiters(long tx, Collection<String> tables) {
    Set<Long> out = new HashSet<>();
    for (Map.Entry<Long, Collection<String>> w : queue.entrySet()) {
      if (w.getKey() == tx) {
        break;
      }
      if (conflict(w.getValue(), tables)) {
        out.add(w.getKey());
      }
    }
    return out;
  }

  private static boolean conflict(Collection<String> a, Collection<String> b) {
    if (a.contains(EVERY_TABLE) || b.contains(EVERY_TABLE)) {
      return true;
    }
    for (String t : a) {
      if (b.contains(t)) {
        return true;
      }
    }
    return false;
  }

  private Set<Long> blockers(long tx, Collection<String> tables) {
    Set<Long> out = new HashSet<>();
    boolean everything = tables.contains(EVERY_TABLE);
    if (everything) {
      for (Long holder : holders.values()) {
        if (holder != tx) {
          out.add(holder);
        }
      }
      return out;
    }
    Long all = holders.get(EVERY_TABLE);
    if (all != null && all != tx) {
      out.add(all);
    }
    for (String t : tables) {
      Long h = holders.get(t);
      if (h != null && h != tx) {
        out.add(h);
      }
    }
    return out;
  }

  /**
   * Whether {@code target} is reachable from {@code start} in the wait-for graph, counting waits on the
   * backends ({@link #backendWaits}) when asked.
   */
  private boolean reaches(Set<Long> start, long target, boolean withBackendWaits) {
    Deque<Long> todo = new ArrayDeque<>(start);
    Set<Long> seen = new HashSet<>();
    while (!todo.isEmpty()) {
      long n = todo.pop();
      if (n == target) {
        return true;
      }
      if (!seen.add(n)) {
        continue;
      }
      Set<Long> next = waitsFor.get(n);
      if (next != null) {
        todo.addAll(next);
      }
      if (withBackendWaits) {
        todo.addAll(backendWaits(n));
      }
    }
    return false;
  }

  /** The transactions a statement of {@code tx} may wait for on the backends: other open writers of its tables. */
  private Set<Long> backendWaits(long tx) {
    Map<String, Integer> held = heldBy.get(tx);
    if (held == null) {
      return Set.of();
    }
    Set<Long> out = new HashSet<>();
    for (String t : held.keySet()) {
      Collection<Long> w = t.equals(EVERY_TABLE) ? writtenBy.keySet() : writers.getOrDefault(t, Set.of());
      for (Long other : w) {
        if (other != tx) {
          out.add(other);
        }
      }
    }
    return out;
  }
}
