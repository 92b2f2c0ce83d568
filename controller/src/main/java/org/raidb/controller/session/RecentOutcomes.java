package org.raidb.controller.session;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The outcomes of the recent requests that wrote or ended a transaction, by client session id and request
 * id (one instance per virtual database): a driver whose controller failed sends its request again to
 * another controller with the same ids, and a controller that already ran it (itself, or as a member of a
 * controller group that ordered it) answers the remembered outcome instead of running it twice.
 *
 * <p>Bounded: the last {@value #PER_CLIENT_SESSION} outcomes of each client session (a driver only ever
 * sends again the one request it was waiting on, so a few are plenty), {@value #TOTAL} in all and {@value
 * #TOTAL_ROWS} rows of generated keys and RETURNING values in all, the oldest forgotten first. At 10,000 writes
 * a second an outcome is kept for at least 10 s, longer than any driver takes to fail over (its connect
 * timeout). Without rows an outcome is a few hundred bytes: the total stays in the tens of MB. Outcomes live in memory only; they are lost with the controller, which is why a
 * group's other members record the writes they run for it.
 *
 * <p>Thread-safe; lookups take no lock.
 */
public final class RecentOutcomes {
    public static final int PER_CLIENT_SESSION = 16;
    public static final int TOTAL = 100_000;
    public static final int TOTAL_ROWS = 1_000_000;
    /** The longest a lookup waits for a request a group member is still running (a lock wait, a slow backend). */
    public static final int EXPECTED_WAIT_SECONDS = 30;

    private record Key(String clientSessionId, long requestId) {}

    private final int perClientSession;
    private final int total;
    private final int totalRows;
    private long rows;
    /** Insertion order: the first is the oldest. Guarded by this. */
    private final LinkedHashMap<Key, RequestOutcome> outcomes = new LinkedHashMap<>();
    /**
     * The same outcomes, for lookups without the lock: every request of a failover-enabled client is looked
     * up, and sessions must not queue on each other for that.
     */
    private final ConcurrentHashMap<Key, RequestOutcome> byKey = new ConcurrentHashMap<>();

    private final Map<String, ArrayDeque<Long>> requestsBySession = new HashMap<>();
    /** Requests a group member is running for another member's client; removed once settled. */
    private final ConcurrentHashMap<Key, CompletableFuture<Void>> expected = new ConcurrentHashMap<>();

    public RecentOutcomes() {
        this(PER_CLIENT_SESSION, TOTAL, TOTAL_ROWS);
    }

    /** With other bounds, for tests. */
    RecentOutcomes(int perClientSession, int total, int totalRows) {
        this.perClientSession = perClientSession;
        this.total = total;
        this.totalRows = totalRows;
    }

    /**
     * Remembers what a request was answered. Ignored for a request without ids (a driver that predates them:
     * null session id or request id 0). Recording the same request again replaces its outcome.
     */
    public synchronized void record(String clientSessionId, long requestId, RequestOutcome outcome) {
        if (clientSessionId == null || requestId <= 0 || outcome == null) {
            return;
        }
        Key key = new Key(clientSessionId, requestId);
        RequestOutcome replaced = outcomes.put(key, outcome);
        byKey.put(key, outcome);
        rows += outcome.rowCount();
        if (replaced != null) {
            rows -= replaced.rowCount(); // already counted in its session's queue
        } else {
            ArrayDeque<Long> mine = requestsBySession.computeIfAbsent(clientSessionId, s -> new ArrayDeque<>());
            mine.addLast(requestId);
            if (mine.size() > perClientSession) {
                Key evicted = new Key(clientSessionId, mine.removeFirst());
                byKey.remove(evicted);
                forget(outcomes.remove(evicted));
            }
        }
        Iterator<Map.Entry<Key, RequestOutcome>> oldest = outcomes.entrySet().iterator();
        while ((outcomes.size() > total || rows > totalRows) && oldest.hasNext()) {
            Map.Entry<Key, RequestOutcome> e = oldest.next();
            oldest.remove();
            byKey.remove(e.getKey());
            forget(e.getValue());
            forgetInSession(e.getKey());
        }
    }

    private void forget(RequestOutcome outcome) {
        if (outcome != null) {
            rows -= outcome.rowCount();
        }
    }

    /**
     * The remembered outcome of that request, if it is still remembered. When a group member is still
     * running it for another member's client ({@link #expect}), waits for it to finish first (at most
     * {@value #EXPECTED_WAIT_SECONDS} s): a driver that failed over must not run again what is about to end here.
     */
    public Optional<RequestOutcome> lookup(String clientSessionId, long requestId) {
        if (clientSessionId == null || requestId <= 0) {
            return Optional.empty();
        }
        Key key = new Key(clientSessionId, requestId);
        CompletableFuture<Void> running = expected.get(key);
        if (running != null) {
            try {
                running.get(EXPECTED_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // not finished in time: the request is looked up as it stands
            }
        }
        return Optional.ofNullable(byKey.get(key));
    }

    /**
     * A controller group delivered another member's request that this controller will run for its client:
     * until {@link #settled}, a lookup of it waits.
     */
    public void expect(String clientSessionId, long requestId) {
        if (clientSessionId != null && requestId > 0) {
            expected.putIfAbsent(new Key(clientSessionId, requestId), new CompletableFuture<>());
        }
    }

    /** The expected request has run here, its outcome recorded or not (a transaction still open). */
    public void settled(String clientSessionId, long requestId) {
        if (clientSessionId != null && requestId > 0) {
            CompletableFuture<Void> running = expected.remove(new Key(clientSessionId, requestId));
            if (running != null) {
                running.complete(null);
            }
        }
    }

    /** How many outcomes are remembered, for tests and the admin's curiosity. */
    public synchronized int size() {
        return outcomes.size();
    }

    private void forgetInSession(Key k) {
        ArrayDeque<Long> mine = requestsBySession.get(k.clientSessionId());
        if (mine != null) {
            mine.remove(k.requestId());
            if (mine.isEmpty()) {
                requestsBySession.remove(k.clientSessionId());
            }
        }
    }
}
