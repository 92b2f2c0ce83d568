package org.raidb.controller.request;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.raidb.controller.backend.DatabaseBackend;

/**
 * Collects the backends' answers to one write as they arrive. {@link #quorum()} completes as soon as
 * {@code required} backends succeeded with the same answer (the completion policy is met), or with
 * null once every backend answered without that happening; {@link #all()} completes when every
 * backend answered. A backend answers once: an answer arriving after it was judged hung (its
 * connection aborted) is ignored.
 */
final class CompletionTracker {
    private final int required;
    private final int expected;
    /** The backends in the order the resolver breaks ties in; null: in the order they answered. */
    private final List<DatabaseBackend> order;

    private final List<BackendOutcome> outcomes = new ArrayList<>();
    private final Set<DatabaseBackend> answered = new HashSet<>();
    private final Map<String, Integer> successesBySignature = new HashMap<>();
    private final CompletableFuture<BackendOutcome> quorum = new CompletableFuture<>();
    private final CompletableFuture<List<BackendOutcome>> all = new CompletableFuture<>();

    CompletionTracker(int required, int expected) {
        this(required, expected, null);
    }

    CompletionTracker(int required, List<DatabaseBackend> backends) {
        this(required, backends.size(), List.copyOf(backends));
    }

    private CompletionTracker(int required, int expected, List<DatabaseBackend> order) {
        this.required = Math.max(1, required);
        this.expected = expected;
        this.order = order;
    }

    /** Counts an answer; returns how many backends have answered, or -1 when this backend had answered already. */
    int add(BackendOutcome o) {
        boolean quorumNow = false;
        boolean allNow;
        int count;
        synchronized (this) {
            if (!answered.add(o.backend())) {
                return -1;
            }
            outcomes.add(o);
            if (o.succeeded() && !quorum.isDone()) {
                int n = successesBySignature.merge(o.result().signature(), 1, Integer::sum);
                quorumNow = n >= required;
            }
            count = outcomes.size();
            allNow = count == expected;
        }
        if (quorumNow) {
            quorum.complete(o);
        }
        if (allNow) {
            List<BackendOutcome> copy;
            synchronized (this) {
                copy = new ArrayList<>(outcomes);
            }
            if (order != null) {
                // In the backends' order whatever the order they answered in: the resolver's ties go the same way each
                // time.
                copy.sort(Comparator.comparingInt(a -> order.indexOf(a.backend())));
            }
            quorum.complete(null);
            all.complete(List.copyOf(copy));
        }
        return count;
    }

    synchronized boolean hasAnswered(DatabaseBackend b) {
        return answered.contains(b);
    }

    CompletableFuture<BackendOutcome> quorum() {
        return quorum;
    }

    CompletableFuture<List<BackendOutcome>> all() {
        return all;
    }
}
