package org.raidb.balancer;

import java.util.ArrayList;
import java.util.List;

/**
 * Chooses which of the backends able to answer a read gets it. Implementations must be
 * thread-safe: one instance serves every session of a virtual database.
 */
public interface ReadPolicy {
    /**
     * The backend that gets {@code request}, one of {@code candidates}.
     *
     * @param candidates enabled backends that hold every table of the request; never empty
     */
    <B extends BackendView> B choose(List<B> candidates, Request request);

    /**
     * {@code count} distinct candidates, for a read sent to several backends (error checking). By
     * default the policy's choice, then its choice among the rest, and so on.
     *
     * @param count at least 1, at most the number of candidates
     */
    default <B extends BackendView> List<B> chooseSeveral(List<B> candidates, int count, Request request) {
        List<B> left = new ArrayList<>(candidates);
        List<B> chosen = new ArrayList<>(count);
        while (chosen.size() < count) {
            B b = left.size() == 1 ? left.get(0) : choose(left, request);
            left.remove(b);
            chosen.add(b);
        }
        return chosen;
    }
}
