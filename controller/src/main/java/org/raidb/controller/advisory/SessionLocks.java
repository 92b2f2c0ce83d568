package org.raidb.controller.advisory;

import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.raidb.controller.analysis.AdvisoryLockCalls;
import org.raidb.controller.backend.DatabaseBackend;

/**
 * What one client session holds on the lock backend. Session-level advisory locks belong to a
 * backend connection, so the connection that holds some is the session's own (pinned) until it
 * holds none or the session ends: its lock calls run there, and so does its transactions' part on
 * the lock backend. The rest of the session still borrows pooled connections statement by
 * statement.
 *
 * <p>A transaction's part on the lock backend ends on whichever thread finishes its commit there, so
 * the pin may change hands off the session's thread: the session waits for that ({@link #settled})
 * before it uses the pin again.
 */
public final class SessionLocks {
    private DatabaseBackend pinnedOn;
    private Connection pinned;
    /** The session settings the pinned connection carries (null: unknown, prepare it again). */
    private Object preparedFor;
    /** A transaction that called lock functions, and the backend they ran on: its locks end with it. */
    private long lockingTransaction;

    private DatabaseBackend lockingTransactionOn;
    /** Locks were lost with this backend; the session has not been told yet. */
    private DatabaseBackend lostOn;

    private boolean mayHoldMariaDbLocks;
    private CompletableFuture<Void> settled = CompletableFuture.completedFuture(null);
    /** The transaction whose part on the lock backend {@link #settled} waits for. */
    private long settlingTransaction;
    /** Written under the lock, read without it on every statement: most sessions never lock anything. */
    private volatile boolean empty = true;

    /** Whether the session holds nothing on any lock backend and has nothing to be told. */
    public boolean isEmpty() {
        return empty;
    }

    /** Waits until no transaction's part on the lock backend is still being given back. */
    public void awaitSettled() {
        CompletableFuture<Void> f;
        synchronized (this) {
            f = settled;
        }
        f.join();
    }

    /** As {@link #awaitSettled()}, at most {@code limit}; false if still unsettled then. */
    public boolean awaitSettled(Duration limit) {
        CompletableFuture<Void> f;
        synchronized (this) {
            f = settled;
        }
        try {
            f.get(limit.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Transaction {@code id}'s part on the lock backend has started: the pin, or what becomes it, is in use. */
    public synchronized void settling(long transactionId) {
        if (settled.isDone()) {
            settled = new CompletableFuture<>();
        }
        settlingTransaction = transactionId;
    }

    /** That part has been given back. */
    public synchronized void settle() {
        settled.complete(null);
    }

    /**
     * The pinned connection for transaction {@code transactionId} joining {@code backend}, or null when
     * the session has no connection of its own there. Waits until an earlier transaction has given it
     * back.
     */
    public Connection lend(DatabaseBackend backend, long transactionId) {
        awaitSettledBefore(transactionId);
        synchronized (this) {
            if (pinned == null || pinnedOn != backend) {
                return null;
            }
            settling(transactionId);
            return pinned;
        }
    }

    /**
     * As {@link #awaitSettled()}, except for the transaction's own part: a transaction that took a lock
     * and then writes joins the other backends while its part on the lock backend is still in use
     * (Flyway: {@code pg_try_advisory_xact_lock}, then {@code SET ROLE} and its DDL). That part ends with
     * the transaction, so waiting for it there would wait forever; every earlier transaction's part was
     * awaited when this one first joined a backend.
     */
    private void awaitSettledBefore(long transactionId) {
        CompletableFuture<Void> f;
        synchronized (this) {
            if (!settled.isDone() && settlingTransaction == transactionId) {
                return;
            }
            f = settled;
        }
        f.join();
    }

    public synchronized Connection pinned() {
        return pinned;
    }

    public synchronized DatabaseBackend pinnedOn() {
        return pinnedOn;
    }

    /** The connection holds session-level locks of this session: it stays the session's own. */
    public synchronized void pin(DatabaseBackend backend, Connection c, Object settings) {
        if (pinned != c) {
            preparedFor = settings;
        }
        pinnedOn = backend;
        pinned = c;
        empty = false;
    }

    /** Drops the pin (the caller gives its connection back); null if there was none. */
    public synchronized Connection unpin() {
        Connection c = pinned;
        pinned = null;
        pinnedOn = null;
        preparedFor = null;
        updateEmpty();
        return c;
    }

    /** Drops the pin if it is {@code c}. */
    public synchronized void unpinIf(Connection c) {
        if (pinned == c) {
            unpin();
        }
    }

    public synchronized Object preparedFor() {
        return preparedFor;
    }

    public synchronized void preparedFor(Object settings) {
        preparedFor = settings;
    }

    /** Lock functions ran in transaction {@code id} on {@code backend}. */
    public synchronized void lockedIn(long id, DatabaseBackend backend) {
        lockingTransaction = id;
        lockingTransactionOn = backend;
        empty = false;
    }

    /** Where transaction {@code id} called lock functions, or null; forgets an earlier transaction's. */
    public synchronized DatabaseBackend lockingTransactionOn(long id) {
        if (lockingTransactionOn != null && lockingTransaction != id) {
            lockingTransactionOn = null;
            updateEmpty();
        }
        return lockingTransactionOn;
    }

    /** The locks held on {@code backend} are gone (its connection failed): the session must be told. */
    public synchronized void lost(DatabaseBackend backend) {
        lostOn = backend;
        empty = false;
    }

    /**
     * Connection {@code c} on {@code backend} failed: if it held the session's locks (its pin, or the
     * current transaction's lock calls), they are lost and the session must be told; a connection
     * whose loss the session was already told of changes nothing.
     */
    public synchronized void failed(DatabaseBackend backend, Connection c) {
        if (pinned == c || lockingTransactionOn == backend) {
            lostOn = backend;
            empty = false;
        }
        unpinIf(c);
    }

    /** The backend whose locks were lost and the session not told yet, or null. */
    public synchronized DatabaseBackend lostBackend() {
        return lostOn;
    }

    /** The backend whose locks were lost, once, clearing what the session held. */
    public synchronized DatabaseBackend takeLost() {
        DatabaseBackend b = lostOn;
        if (b != null) {
            lostOn = null;
            lockingTransactionOn = null;
            updateEmpty();
        }
        return b;
    }

    /** Follows MariaDB's locks from the calls (see {@link LockDialect#MARIADB}). */
    public synchronized void called(AdvisoryLockCalls calls) {
        mayHoldMariaDbLocks = calls.mayTakeMariaDbLock() || (mayHoldMariaDbLocks && !calls.releasesAllMariaDbLocks());
    }

    public synchronized boolean mayHoldMariaDbLocks() {
        return mayHoldMariaDbLocks;
    }

    private void updateEmpty() {
        empty = pinned == null && lockingTransactionOn == null && lostOn == null;
    }
}
