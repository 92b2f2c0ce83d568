package org.raidb.controller.cache;

/**
 * The cache's counts since the controller started, for the admin API and the metrics.
 *
 * @param hits reads answered from the cache
 * @param misses reads the cache could have answered but did not hold (or held stale)
 * @param bypassed reads that may not be cached (in a transaction that wrote, non-deterministic,
 *     catalogue or temporary tables, unknown functions)
 * @param evictions results dropped to stay within maxEntries and maxBytes
 * @param invalidations cached results found stale after a write, and dropped
 * @param staleHits of the hits, those served stale within relaxedStalenessMillis
 * @param entries results held now
 * @param bytes what they weigh, estimated
 */
public record CacheFigures(
        String granularity,
        long hits,
        long misses,
        long bypassed,
        long evictions,
        long invalidations,
        long staleHits,
        long entries,
        long bytes) {

    /** Hits over hits and misses; 0 before any read the cache could answer. */
    public double hitRatio() {
        long asked = hits + misses;
        return asked == 0 ? 0 : (double) hits / asked;
    }
}
