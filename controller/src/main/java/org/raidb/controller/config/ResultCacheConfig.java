package org.raidb.controller.config;

import java.util.Locale;

/**
 * {@code <resultCache>}: the query result cache of one virtual database (docs/configuration.md).
 *
 * @param granularity what a write must touch to drop a cached read: any of its tables, or one of its
 *     columns (an UPDATE that sets none of the read's columns keeps it)
 * @param maxEntries at most this many results are held
 * @param maxBytes the results held weigh at most this much in total; a larger result is never cached
 * @param relaxedStalenessMillis a result a write made stale may still be served this long after that
 *     write (the RAIDb paper's relaxed consistency); 0: never
 */
public record ResultCacheConfig(Granularity granularity, long maxEntries, long maxBytes, long relaxedStalenessMillis) {

    public static final long DEFAULT_MAX_ENTRIES = 10_000;
    public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;

    public ResultCacheConfig {
        if (granularity == null) {
            throw new IllegalArgumentException("<resultCache> granularity must be table or column");
        }
        if (maxEntries <= 0) {
            throw new IllegalArgumentException(
                    "<resultCache> maxEntries must be a positive number of results, got " + maxEntries);
        }
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("<resultCache> maxBytes must be a positive number of bytes, got "
                    + maxBytes + "; remove <resultCache> to run without a cache");
        }
        if (relaxedStalenessMillis < 0) {
            throw new IllegalArgumentException(
                    "<resultCache> relaxedStalenessMillis must be 0 (strict) or a positive number of milliseconds, got "
                            + relaxedStalenessMillis);
        }
    }

    /** What a write must touch to drop a cached read. */
    public enum Granularity {
        TABLE,
        COLUMN;

        public static Granularity parse(String value) {
            return switch (value.strip().toLowerCase(Locale.ROOT)) {
                case "table" -> TABLE;
                case "column" -> COLUMN;
                default ->
                    throw new IllegalArgumentException(
                            "<resultCache> granularity must be table or column, got '" + value + "'");
            };
        }
    }
}
