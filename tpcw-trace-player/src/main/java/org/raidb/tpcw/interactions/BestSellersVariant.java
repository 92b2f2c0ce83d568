package org.raidb.tpcw.interactions;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Two ways to write Best Sellers. The paper's implementation (for a MySQL without sub-selects)
 * materialised the recent orders in a temporary table, created and dropped on every backend by
 * RAIDb-1, which is what made RAIDb-2's placement of that table matter; keep it to reproduce that.
 */
public enum BestSellersVariant {
    /** One SELECT with a sub-select on orders. */
    SUBQUERY,
    /** CREATE TEMP TABLE of recent orders, SELECT joining it, DROP TABLE, in one transaction. */
    TEMP_TABLE;

    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static BestSellersVariant parse(String name) {
        return Arrays.stream(values())
                .filter(v -> v.cliName().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no Best Sellers variant '" + name + "': use one of "
                        + Arrays.stream(values())
                                .map(BestSellersVariant::cliName)
                                .collect(Collectors.joining(", "))));
    }
}
