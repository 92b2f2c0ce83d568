package org.raidb.tools.demo;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * What a {@link DemoWorkload} run did, and the final state it checked against its own model.
 *
 * @param rowCounts final rows per table (customers, products, orders), as read back and checked
 * @param totalBalance sum of all customers' balances, as read back and checked
 */
public record WorkloadSummary(
        long inserts,
        long updates,
        long deletes,
        int committedTransactions,
        int rolledBackTransactions,
        Map<String, Long> rowCounts,
        BigDecimal totalBalance,
        Duration elapsed) {

    public void printTo(PrintStream out) {
        out.println(String.format(
                Locale.US,
                "workload done in %.1f s: %,d inserts, %,d rows updated, %,d rows deleted, %,d transactions committed, %,d rolled back",
                elapsed.toMillis() / 1000.0,
                inserts,
                updates,
                deletes,
                committedTransactions,
                rolledBackTransactions));
        StringBuilder counts = new StringBuilder("final rows:");
        rowCounts.forEach((table, count) -> counts.append(String.format(Locale.US, " %s %,d", table, count)));
        out.println(counts
                + String.format(
                        Locale.US, "; total balance %,.2f (all checked against the expected values)", totalBalance));
    }
}
