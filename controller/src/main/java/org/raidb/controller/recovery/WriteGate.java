package org.raidb.controller.recovery;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.raidb.controller.transaction.WriteUnit;

/**
 * Lets a backend join the array at a point where no write is half done. Units of work (a
 * transaction from its first logged statement to its end, an auto-commit write until every backend
 * answered) enter and exit the gate; enabling a backend closes it to new units, waits until the
 * open ones are over, applies the last log entries to the backend and opens it again. Units already
 * open are never held: they must be able to finish for the gate to empty.
 */
final class WriteGate {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private int open;
    /** How many closers hold it closed: an enable and a verify may overlap, and the gate opens after the last. */
    private int closers;

    /** Waits while the gate is closed, then opens a unit that its owner closes once. */
    WriteUnit enter() {
        lock.lock();
        try {
            while (closers > 0) {
                changed.awaitUninterruptibly();
            }
            open++;
        } finally {
            lock.unlock();
        }
        AtomicBoolean exited = new AtomicBoolean();
        return () -> {
            if (exited.compareAndSet(false, true)) {
                exit();
            }
        };
    }

    private void exit() {
        lock.lock();
        try {
            open--;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Closes the gate and waits until no unit is open. Returns false, with the gate open again, when
     * that takes longer than {@code timeoutMillis} (a client keeps a transaction open).
     */
    boolean closeAndDrain(long timeoutMillis) {
        lock.lock();
        try {
            closers++;
            long nanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            while (open > 0) {
                if (nanos <= 0) {
                    closers--;
                    changed.signalAll();
                    return false;
                }
                try {
                    nanos = changed.awaitNanos(nanos);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    closers--;
                    changed.signalAll();
                    return false;
                }
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    void reopen() {
        lock.lock();
        try {
            closers--;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    int openUnits() {
        lock.lock();
        try {
            return open;
        } finally {
            lock.unlock();
        }
    }
}
