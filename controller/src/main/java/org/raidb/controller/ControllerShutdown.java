package org.raidb.controller;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.raidb.controller.admin.AdminServer;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.group.ReplicationProtocol;
import org.raidb.controller.net.ClientListener;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.recovery.Checkpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a controller stops (SIGTERM, Ctrl-C, the admin API's shutdown): in an order that leaves each
 * recovery log saying where every backend is, and closes the logs last.
 *
 * <ol>
 *   <li>No new client, admin request or recovery operation; a replay running stops before its next batch.
 *   <li>The sessions end: each finishes the request it is running and rolls back its open
 *       transaction on every backend, which the log records.
 *   <li>The recovery operations end; a stopped replay leaves its backend disabled at a checkpoint
 *       of what it applied.
 *   <li>The writes in flight end: those answered early (completion first or majority) finish on the
 *       other backends, so that each has an outcome and a backend's progress is known.
 *   <li>A final checkpoint per log, every enabled backend recorded as in step there.
 *   <li>The backends' pools close.
 *   <li>The logs close, writing what they still have queued.
 * </ol>
 *
 * Steps 2 to 4 share one limit ({@code controller/@shutdownTimeout}), so that a hung backend or client
 * cannot hold the process. What still runs then is abandoned as a crash would abandon it (writes
 * running are in doubt at the restart), and said at WARN. Each step logs one line.
 */
final class ControllerShutdown {
    private static final Logger log = LoggerFactory.getLogger(ControllerShutdown.class);
    /** Past the limit, the checkpoints of backends that left during the stop still get this long to be written. */
    private static final long FINAL_CHECKPOINT_GRACE_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final long limitMillis;
    private final AdminServer admin;
    /** The driver's listener, and the PostgreSQL front end's when it is on. */
    private final List<ClientListener> listeners;

    private final Collection<VirtualDatabase> virtualDatabases;
    private final Collection<ReplicationProtocol> groups;
    private boolean interrupted;

    /** @param admin null when the controller stops before its admin API started */
    ControllerShutdown(
            long limitMillis,
            AdminServer admin,
            List<ClientListener> listeners,
            Collection<VirtualDatabase> virtualDatabases,
            Collection<ReplicationProtocol> groups) {
        this.limitMillis = limitMillis;
        this.groups = groups;
        this.admin = admin;
        this.listeners = listeners;
        this.virtualDatabases = virtualDatabases;
    }

    void run() {
        interrupted = Thread.interrupted(); // see the end
        stopAccepting(); // the admin API's in-flight requests get up to a second
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limitMillis);
        endSessions(deadline);
        // Once its clients' transactions are rolled back everywhere, this controller leaves its groups: the
        // others roll back what their own clients had not finished here... and go on without it.
        groups.forEach(ReplicationProtocol::close);
        awaitOperations(deadline);
        awaitWrites(deadline);
        recordFinalCheckpoints(Math.max(deadline, System.nanoTime() + FINAL_CHECKPOINT_GRACE_NANOS));
        virtualDatabases.forEach(VirtualDatabase::closeBackends);
        log.info("shutdown: backend pools closed");
        virtualDatabases.forEach(VirtualDatabase::closeLog);
        log.info("shutdown: recovery logs closed");
        if (interrupted) {
            // The steps ran with the flag clear: a log store's driver may give up on an interrupted thread.
            Thread.currentThread().interrupt();
        }
    }

    private void stopAccepting() {
        if (admin != null) {
            admin.close();
        }
        listeners.forEach(ClientListener::stopAccepting);
        virtualDatabases.forEach(v -> v.recovery().stopOperations());
        log.info(
                "shutdown: no new client, admin request or operation; sessions, operations and writes in flight get {} ms",
                limitMillis);
    }

    private void endSessions(long deadline) {
        long started = System.nanoTime();
        try {
            int closed = 0;
            int stillRunning = 0;
            for (ClientListener listener : listeners) {
                ClientListener.SessionsEnded ended = listener.endSessions(deadline);
                closed += ended.closed();
                stillRunning += ended.stillRunning();
            }
            if (stillRunning == 0) {
                log.info(
                        "shutdown: {} client session(s) ended, any open transaction rolled back ({} ms)",
                        closed,
                        millisSince(started));
            } else {
                log.warn(
                        "shutdown: {} of {} client session(s) still running at the limit; their requests are abandoned",
                        stillRunning,
                        closed);
            }
        } catch (InterruptedException e) {
            interrupted = true;
        }
    }

    private void awaitOperations(long deadline) {
        long started = System.nanoTime();
        List<String> running = new ArrayList<>();
        try {
            for (VirtualDatabase v : virtualDatabases) {
                v.recovery().awaitOperations(deadline).forEach(op -> running.add(v.name() + ": " + op));
            }
        } catch (InterruptedException e) {
            interrupted = true;
        }
        if (running.isEmpty()) {
            log.info("shutdown: background operations ended ({} ms)", millisSince(started));
        } else {
            log.warn(
                    "shutdown: operations still running at the limit, abandoned: {} (a backend being restored or added"
                            + " then has no usable checkpoint)",
                    running);
        }
    }

    /** Nothing signals the end of a backend's work to a waiter; a stop can afford to look every 10 ms. */
    private void awaitWrites(long deadline) {
        long started = System.nanoTime();
        List<String> running = writesInFlight();
        while (!running.isEmpty() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            running = writesInFlight();
        }
        if (running.isEmpty()) {
            log.info("shutdown: no write in flight ({} ms)", millisSince(started));
        } else {
            log.warn(
                    "shutdown: writes still running at the limit, left in doubt: {}; the restarted controller compares the"
                            + " backends as after a crash",
                    running);
        }
    }

    private List<String> writesInFlight() {
        List<String> running = new ArrayList<>();
        for (VirtualDatabase v : virtualDatabases) {
            List<String> busy = v.backends().stream()
                    .filter(b -> b.pendingRequests() > 0)
                    .map(DatabaseBackend::name)
                    .toList();
            int units = v.writeLog().openUnits();
            if (units > 0 || !busy.isEmpty()) {
                running.add(v.name() + " (" + units + " unit(s) of work open, backends busy: " + busy + ")");
            }
        }
        return running;
    }

    private void recordFinalCheckpoints(long deadline) {
        List<String> recorded = new ArrayList<>();
        for (VirtualDatabase v : virtualDatabases) {
            Checkpoint last = v.recovery().recordCleanStop(deadline);
            if (last != null) {
                recorded.add(v.name() + " at " + last.name() + " (log position " + last.position() + ")");
            } else if (!v.writeLog().enabled()) {
                recorded.add(v.name() + ": none, it has no recovery log");
            } // else a warning said why
        }
        log.info("shutdown: final checkpoints: {}", recorded);
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }
}
