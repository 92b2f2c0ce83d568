package org.raidb.tpcw.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.raidb.tpcw.interactions.Mix;

/**
 * A configuration the harness knows how to run: no controller (SingleDB), or a controller with a
 * replication level, a read policy and, for RAIDb-0 and RAIDb-2, the paper's placement of the TPC-W
 * tables ({@link TpcwPlacement}: section 7.5.2 and Table 2).
 */
public enum BenchConfig {
    /** Plain pgjdbc to one backend, no controller: the paper's SingleDB reference. */
    SINGLE("single", null, null),
    RAIDB1_RR("raidb1-rr", "raidb1", "roundRobin"),
    RAIDB1_LPRF("raidb1-lprf", "raidb1", "leastPending"),
    /** RAIDb-1 LPRF with the controller's result cache at column granularity (the paper, section 5.1.5), strict. */
    RAIDB1_LPRF_CACHE("raidb1-lprf-cache", "raidb1", "leastPending", "<resultCache granularity=\"column\"/>"),
    /**
     * The same cache with the staleness TPC-W allows Best Sellers (its results may be up to 30 seconds old): one
     * {@code <relaxed>} rule for the reads summing order lines; every other read stays strict.
     */
    RAIDB1_LPRF_CACHE_TPCW(
            "raidb1-lprf-cache-tpcw",
            "raidb1",
            "leastPending",
            "<resultCache granularity=\"column\">"
                    + "<relaxed pattern=\"(?i)sum\\(ol_qty\\)\" stalenessMillis=\"30000\"/></resultCache>"),
    /** Shopping cart alone on the second backend (section 7.5.2); backends after the second hold no table. */
    RAIDB0("raidb0", "raidb0", null),
    RAIDB2_RR("raidb2-rr", "raidb2", "roundRobin"),
    RAIDB2_LPRF("raidb2-lprf", "raidb2", "leastPending");

    final String cliName;
    /** The controller's replication element; null without a controller. */
    final String level;
    /** The controller's readPolicy; null without a controller and for RAIDb-0 (one holder per table). */
    final String readPolicy;
    /** The controller's {@code <resultCache>} element, or null when it caches no result. */
    final String resultCache;

    BenchConfig(String cliName, String level, String readPolicy) {
        this(cliName, level, readPolicy, null);
    }

    BenchConfig(String cliName, String level, String readPolicy, String resultCache) {
        this.cliName = cliName;
        this.level = level;
        this.readPolicy = readPolicy;
        this.resultCache = resultCache;
    }

    public String cliName() {
        return cliName;
    }

    boolean hasController() {
        return level != null;
    }

    /** RAIDb-0 and RAIDb-2: each backend lists its tables, and holds only those. */
    boolean partial() {
        return "raidb0".equals(level) || "raidb2".equals(level);
    }

    /**
     * The tables of each of {@code backends} backends (element i: backend i), or null when every backend
     * holds every table.
     *
     * @throws IllegalArgumentException when the paper defines no placement for this many backends: the
     *     harness skips that cell with the message as reason rather than inventing one
     */
    List<Set<String>> placement(Mix mix, int backends) {
        if ("raidb0".equals(level)) {
            return TpcwPlacement.raidb0(backends);
        }
        if ("raidb2".equals(level)) {
            return mix == Mix.BROWSING ? TpcwPlacement.raidb2Browsing(backends) : TpcwPlacement.raidb2(backends);
        }
        return null;
    }

    public static BenchConfig parse(String name) {
        return Arrays.stream(values())
                .filter(c -> c.cliName.equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no configuration '" + name + "': use one of "
                        + Arrays.stream(values()).map(c -> c.cliName).collect(Collectors.joining(", "))));
    }
}
