package org.raidb.controller.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.raidb.controller.analysis.ReadColumns;
import org.raidb.controller.config.ResultCacheConfig;
import org.raidb.driver.protocol.ColumnInfo;

/**
 * The query result cache of one virtual database (the RAIDb paper, section 5.1.5; docs/architecture.md,
 * step 5). Results are held by {@link CacheKey} in a Caffeine cache bounded by count and weight.
 *
 * <p>Consistency does not rest on finding and removing entries: each result is cached with the
 * versions of what it depends on (its tables, or at column granularity the rows and the columns it
 * uses), taken before it was read, and is served only while none of them moved. Every write moves
 * the versions of what it may change before it runs on any backend and again once every backend
 * answered, and a read that starts while such a write runs is not cached. So no read is cached with
 * data older than a write that had started before it was read, and a cached result is never served
 * after a write that may change it began (except within relaxedStalenessMillis, or its {@code <relaxed>}
 * rule's staleness, when configured). A
 * transaction's writes move the versions again at its commit, since other sessions see them only then.
 */
public final class ResultCache {
    private static final ResultCache DISABLED = new ResultCache(null);

    private final ResultCacheConfig config;
    private final Cache<CacheKey, CachedResult> results;
    private final VersionCounter everything = new VersionCounter();
    private final ConcurrentHashMap<String, TableVersions> tables = new ConcurrentHashMap<>();
    /** Temporary tables created through this controller: each session has its own, so their reads are not shared. */
    private final Set<String> temporaryTables = ConcurrentHashMap.newKeySet();
    /** Per open transaction, what its writes may change: moved again at its commit. */
    private final Map<Long, List<WriteEffect>> pending = new ConcurrentHashMap<>();

    private final LongAdder hits = new LongAdder();
    private final LongAdder staleHits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder bypassed = new LongAdder();
    private final LongAdder invalidations = new LongAdder();

    private ResultCache(ResultCacheConfig config) {
        this.config = config;
        if (config == null) {
            this.results = null;
            return;
        }
        // Caffeine bounds either count or weight: every entry weighs at least maxBytes / maxEntries, so that
        // the weight bound also keeps the count within maxEntries.
        long leastWeight = Math.max(1, (config.maxBytes() + config.maxEntries() - 1) / config.maxEntries());
        this.results = Caffeine.newBuilder()
                .maximumWeight(config.maxBytes())
                .weigher((CacheKey k, CachedResult r) ->
                        (int) Math.min(Integer.MAX_VALUE, Math.max(leastWeight, r.bytes())))
                .recordStats()
                .build();
    }

    /** The cache configured, or one that caches nothing when {@code config} is null. */
    public static ResultCache of(ResultCacheConfig config) {
        return config == null ? DISABLED : new ResultCache(config);
    }

    public boolean enabled() {
        return config != null;
    }

    /** Null when the cache is off. */
    public ResultCacheConfig config() {
        return config;
    }

    /** A larger result is never cached. */
    public long maxBytes() {
        return config.maxBytes();
    }

    /** Whether the read names a temporary table created through this controller (never cached). */
    public boolean readsTemporaryTable(Set<String> tablesRead) {
        if (temporaryTables.isEmpty()) {
            return false;
        }
        for (String t : tablesRead) {
            if (temporaryTables.contains(WriteEffect.table(t))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The versions of what a read of {@code tablesRead} using {@code columns} depends on, taken before it
     * runs; null while a write that may change its result is running (the read is then not cached).
     */
    public ReadVersions versionsFor(Set<String> tablesRead, ReadColumns columns) {
        List<VersionCounter> counters = new ArrayList<>();
        counters.add(everything);
        boolean byColumn = config.granularity() == ResultCacheConfig.Granularity.COLUMN && !columns.allColumns();
        for (String t : tablesRead) {
            TableVersions v = table(t);
            if (byColumn) {
                counters.add(v.rows);
                for (String c : columns.columns()) {
                    counters.add(v.column(c));
                }
            } else {
                counters.add(v.anyWrite);
            }
        }
        long[] versions = new long[counters.size()];
        for (int i = 0; i < versions.length; i++) {
            versions[i] = counters.get(i).stableVersion();
            if (versions[i] < 0) {
                return null;
            }
        }
        return new ReadVersions(List.copyOf(counters), versions);
    }

    /** The cached result for {@code key} if it may be served; counts a hit or a miss. */
    public CachedResult lookup(CacheKey key) {
        CachedResult r = results.getIfPresent(key);
        if (r != null) {
            if (r.versions().fresh()) {
                hits.increment();
                return r;
            }
            long relaxed = r.relaxedNanos();
            if (relaxed > 0) {
                long since = r.versions().staleSince();
                if (since != Long.MIN_VALUE && System.nanoTime() - since < relaxed) {
                    hits.increment();
                    staleHits.increment();
                    return r;
                }
            }
            if (results.asMap().remove(key, r)) {
                invalidations.increment();
            }
        }
        misses.increment();
        return null;
    }

    /** A read the cache may not hold went past it. */
    public void bypassed() {
        bypassed.increment();
    }

    /** Holds a read's rows, read at {@code versions}; a result over maxBytes is not held. */
    public void store(CacheKey key, ColumnInfo[] columns, List<Object[]> rows, long bytes, ReadVersions versions) {
        if (bytes > config.maxBytes()) {
            return;
        }
        long relaxed = TimeUnit.MILLISECONDS.toNanos(config.stalenessMillisFor(key.sql()));
        results.put(key, new CachedResult(columns, rows, bytes, versions, relaxed));
    }

    /**
     * A write is about to run: what it may change is stale from now on, until {@link Invalidation#finished}.
     *
     * @param transactionId its transaction, whose commit moves the versions again; 0 for an auto-commit write
     */
    public Invalidation writeStarting(WriteEffect effect, long transactionId) {
        if (config == null) {
            return Invalidation.NONE;
        }
        if (transactionId != 0) {
            pending.computeIfAbsent(transactionId, id -> java.util.Collections.synchronizedList(new ArrayList<>()))
                    .add(effect);
        }
        return start(List.of(effect));
    }

    /** A transaction commits: what its writes changed becomes visible to other sessions now. */
    public Invalidation committing(long transactionId) {
        if (config == null) {
            return Invalidation.NONE;
        }
        List<WriteEffect> effects = pending.remove(transactionId);
        if (effects == null) {
            return Invalidation.NONE;
        }
        synchronized (effects) {
            return start(List.copyOf(effects));
        }
    }

    /** A transaction ended (committed or rolled back): what it wrote is forgotten. */
    public void transactionEnded(long transactionId) {
        pending.remove(transactionId);
    }

    private Invalidation start(List<WriteEffect> effects) {
        List<VersionCounter> moved = new ArrayList<>();
        for (WriteEffect e : effects) {
            if (e.temporaryTable() != null) {
                temporaryTables.add(e.temporaryTable());
            }
            if (e.everything()) {
                moved.add(everything);
            }
            for (String t : e.tables()) {
                TableVersions v = table(t);
                moved.add(v.anyWrite);
                moved.add(v.rows);
            }
            if (e.updatedTable() != null) {
                TableVersions v = table(e.updatedTable());
                moved.add(v.anyWrite);
                for (String c : e.updatedColumns()) {
                    moved.add(v.column(c));
                }
            }
        }
        if (moved.isEmpty()) {
            return Invalidation.NONE;
        }
        long now = System.nanoTime();
        for (VersionCounter c : moved) {
            c.writeStarted(now);
        }
        return new Invalidation(moved);
    }

    private TableVersions table(String name) {
        return tables.computeIfAbsent(WriteEffect.table(name), n -> new TableVersions());
    }

    public CacheFigures figures() {
        if (config == null) {
            return null;
        }
        return new CacheFigures(
                config.granularity().name().toLowerCase(Locale.ROOT),
                hits.sum(),
                misses.sum(),
                bypassed.sum(),
                results.stats().evictionCount(),
                invalidations.sum(),
                staleHits.sum(),
                results.estimatedSize(),
                results.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L));
    }
}
