package org.raidb.balancer;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Smooth weighted round robin: reads go to candidates in proportion to their weight, interleaved
 * rather than in bursts (weights 5,1,1 give a a b a c a a, not a a a a a b c). Over any run of
 * (sum of weights) reads with a stable candidate set, a backend of weight w gets exactly w of them.
 * The running scores are kept by backend name so that a backend leaving and rejoining the candidate
 * set does not disturb the others.
 */
public final class WeightedRoundRobinReadPolicy implements ReadPolicy {
    private final Map<String, Long> currentScore = new HashMap<>();

    @Override
    public synchronized <B extends BackendView> B choose(List<B> candidates, Request request) {
        long total = 0;
        B best = null;
        long bestScore = Long.MIN_VALUE;
        for (B b : candidates) {
            int w = Math.max(1, b.weight());
            total += w;
            long score = currentScore.getOrDefault(b.name(), 0L) + w;
            currentScore.put(b.name(), score);
            if (score > bestScore) {
                bestScore = score;
                best = b;
            }
        }
        currentScore.put(best.name(), bestScore - total);
        return best;
    }
}
