package org.raidb.tools.bench;

import java.util.Locale;

/**
 * One {@code enable}: the entries it replayed, how long after the request the first batch of them was applied (the
 * first {@code Progress.advance}; NaN when nothing was replayed), and how long the whole enable took.
 */
record ReplayFigures(long entries, double firstBatchSeconds, double seconds) {
    /** Issue 15: enable starts replaying within this many seconds on a 1.5 M-entry log. */
    static final double TARGET_START_SECONDS = 1.0;
    /** Issue 15: replay applies at least this many entries per second (issue 4 asked 5,000). */
    static final double TARGET_RATE = 20_000;

    double rate() {
        return entries / seconds;
    }

    String describe(String backend) {
        return String.format(
                Locale.ROOT,
                "Replay: %,d log entries applied to %s in %.2f s: **%,.0f entries/s** (target at least %,.0f; issue 4"
                        + " asked 5,000); the first batch was applied %s after the enable request (target within"
                        + " %.0f s).",
                entries,
                backend,
                seconds,
                rate(),
                TARGET_RATE,
                Double.isNaN(firstBatchSeconds)
                        ? "never (nothing to replay)"
                        : String.format(Locale.ROOT, "%.3f s", firstBatchSeconds),
                TARGET_START_SECONDS);
    }
}
