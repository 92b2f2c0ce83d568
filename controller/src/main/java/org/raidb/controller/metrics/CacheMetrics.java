package org.raidb.controller.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.function.ToDoubleFunction;
import org.raidb.controller.cache.CacheFigures;
import org.raidb.controller.cache.ResultCache;

/** The query result cache of one virtual database, read from its own counts at scrape time; nothing when it has none. */
final class CacheMetrics {
    private CacheMetrics() {}

    static void bind(MeterRegistry registry, String vdb, ResultCache cache) {
        if (!cache.enabled()) {
            return;
        }
        Tags tags = Tags.of("vdb", vdb);
        counter(registry, tags, cache, "raidb.cache.hits", "Reads answered from the result cache", f -> f.hits());
        counter(
                registry,
                tags,
                cache,
                "raidb.cache.misses",
                "Reads the result cache could have answered but held no fresh result for",
                f -> f.misses());
        counter(
                registry,
                tags,
                cache,
                "raidb.cache.bypassed",
                "Reads that may not be cached (in a transaction that wrote, non-deterministic, temporary tables)",
                f -> f.bypassed());
        counter(
                registry,
                tags,
                cache,
                "raidb.cache.evictions",
                "Cached results dropped to stay within maxEntries and maxBytes",
                f -> f.evictions());
        counter(
                registry,
                tags,
                cache,
                "raidb.cache.invalidations",
                "Cached results dropped because a write made them stale",
                f -> f.invalidations());
        Gauge.builder("raidb.cache.hit.ratio", cache, c -> c.figures().hitRatio())
                .description("Hits over hits and misses since the controller started")
                .tags(tags)
                .strongReference(true)
                .register(registry);
        Gauge.builder("raidb.cache.entries", cache, c -> c.figures().entries())
                .description("Results the cache holds now")
                .tags(tags)
                .strongReference(true)
                .register(registry);
        Gauge.builder("raidb.cache.weight.bytes", cache, c -> c.figures().bytes())
                .description("What the results held weigh, estimated (each at least maxBytes / maxEntries)")
                .tags(tags)
                .strongReference(true)
                .register(registry);
    }

    private static void counter(
            MeterRegistry registry,
            Tags tags,
            ResultCache cache,
            String name,
            String description,
            ToDoubleFunction<CacheFigures> count) {
        FunctionCounter.builder(name, cache, c -> count.applyAsDouble(c.figures()))
                .description(description)
                .tags(tags)
                .register(registry);
    }
}
