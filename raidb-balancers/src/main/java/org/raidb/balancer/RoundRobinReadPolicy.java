package org.raidb.balancer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Each read goes to the next candidate in turn. */
public final class RoundRobinReadPolicy implements ReadPolicy {
    private final AtomicInteger next = new AtomicInteger();

    @Override
    public <B extends BackendView> B choose(List<B> candidates, Request request) {
        int i = Math.floorMod(next.getAndIncrement(), candidates.size());
        return candidates.get(i);
    }

    /** The next {@code count} candidates in turn, so that every backend is asked equally often. */
    @Override
    public <B extends BackendView> List<B> chooseSeveral(List<B> candidates, int count, Request request) {
        int n = candidates.size();
        int start = Math.floorMod(next.getAndAdd(count), n);
        List<B> chosen = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            chosen.add(candidates.get((start + i) % n));
        }
        return chosen;
    }
}
