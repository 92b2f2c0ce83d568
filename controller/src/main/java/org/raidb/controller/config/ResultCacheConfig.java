package org.raidb.controller.config;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code <resultCache>}: the query result cache of one virtual database (docs/configuration.md).
 *
 * @param granularity what a write must touch to drop a cached read: any of its tables, or one of its
 *     columns (an UPDATE that sets none of the read's columns keeps it)
 * @param maxEntries at most this many results are held
 * @param maxBytes the results held weigh at most this much in total; a larger result is never cached
 * @param relaxedStalenessMillis a result a write made stale may still be served this long after that
 *     write (the RAIDb paper's relaxed consistency); 0: never
 * @param relaxedRules reads whose text matches a rule's pattern take the rule's staleness instead (the first
 *     rule that matches): C-JDBC's per-query cache rules, for the few reads an application allows to lag (TPC-W
 *     lets Best Sellers be 30 seconds old) while every other read stays strict
 */
public record ResultCacheConfig(
        Granularity granularity,
        long maxEntries,
        long maxBytes,
        long relaxedStalenessMillis,
        List<RelaxedRule> relaxedRules) {

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
        checkStaleness("relaxedStalenessMillis", relaxedStalenessMillis);
        relaxedRules = List.copyOf(relaxedRules);
    }

    /** A cache with no per-query rule. */
    public ResultCacheConfig(Granularity granularity, long maxEntries, long maxBytes, long relaxedStalenessMillis) {
        this(granularity, maxEntries, maxBytes, relaxedStalenessMillis, List.of());
    }

    /** How long a result of {@code sql} that a write made stale may still be served, in milliseconds. */
    public long stalenessMillisFor(String sql) {
        for (RelaxedRule rule : relaxedRules) {
            if (rule.pattern().matcher(sql).find()) {
                return rule.stalenessMillis();
            }
        }
        return relaxedStalenessMillis;
    }

    private static void checkStaleness(String what, long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("<resultCache> " + what
                    + " must be 0 (strict) or a positive number of milliseconds, got " + millis);
        }
    }

    /**
     * {@code <relaxed pattern="…" stalenessMillis="…"/>}: reads whose text the pattern finds (a Java regular
     * expression) may be served this stale.
     */
    public record RelaxedRule(Pattern pattern, long stalenessMillis) {
        public RelaxedRule {
            checkStaleness("<relaxed> stalenessMillis", stalenessMillis);
        }

        /** The rule as written in the configuration; a pattern that is not a regular expression is refused. */
        public static RelaxedRule parse(String pattern, Long stalenessMillis) {
            if (pattern == null || pattern.isBlank()) {
                throw new IllegalArgumentException(
                        "<resultCache> <relaxed> needs a pattern: a regular expression found in the reads it relaxes");
            }
            if (stalenessMillis == null) {
                throw new IllegalArgumentException("<resultCache> <relaxed pattern=\"" + pattern
                        + "\"> needs stalenessMillis: how old a result it matches may be, in milliseconds");
            }
            try {
                return new RelaxedRule(Pattern.compile(pattern), stalenessMillis);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(
                        "<resultCache> <relaxed pattern=\"" + pattern + "\"> is not a regular expression: "
                                + e.getDescription() + " near index " + e.getIndex(),
                        e);
            }
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
