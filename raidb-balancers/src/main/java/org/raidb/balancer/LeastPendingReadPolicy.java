package org.raidb.balancer;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Least Pending Requests First (the RAIDb paper's LPRF): a read goes to the candidate with the
 * fewest requests in flight, which adapts to backends of unequal speed without configuration.
 * Ties are broken in turn, so that idle backends share the load instead of the first one taking all.
 */
public final class LeastPendingReadPolicy implements ReadPolicy {
    private final AtomicInteger tieBreak = new AtomicInteger();

    @Override
    public <B extends BackendView> B choose(List<B> candidates, Request request) {
        int n = candidates.size();
        int start = Math.floorMod(tieBreak.getAndIncrement(), n);
        B best = null;
        int bestPending = Integer.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            B b = candidates.get((start + i) % n);
            int pending = b.pendingRequests();
            if (pending < bestPending) {
                bestPending = pending;
                best = b;
            }
        }
        return best;
    }
}
