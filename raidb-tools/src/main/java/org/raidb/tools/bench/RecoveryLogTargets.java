package org.raidb.tools.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Issue 15's targets ("The recovery log at scale") judged on one run of {@code bench recovery-log}, as a Markdown
 * table. The restart, enable and purge targets are set for a 1.5 M-entry log and a purge of 1 M entries: on a
 * smaller run the verdict says so.
 *
 * @param wholeLog the logged controller's log after the write measurements (a fresh data directory: all of it)
 * @param batchLoad the batch load, on a logged controller of its own
 * @param replayLogEntries the entries the log held when the replayed backend was disabled
 */
record RecoveryLogTargets(
        LogSize wholeLog,
        BatchLoad.Result batchLoad,
        ReplayFigures replay,
        long replayLogEntries,
        RestartableController.Restart restart,
        PurgeUnderLoad.Result purge) {
    /** The log size issue 15 sets its restart and enable targets for. */
    static final long TARGET_LOG_ENTRIES = 1_500_000;
    /** The purge size issue 15 sets its purge target for. */
    static final long TARGET_PURGE_ENTRIES = 1_000_000;

    List<TargetVerdict> verdicts() {
        List<TargetVerdict> v = new ArrayList<>();
        v.add(size(
                "log size ≤ 3× the SQL text and parameters it records: the whole log after the write runs", wholeLog));
        v.add(size(
                String.format(
                        Locale.ROOT,
                        "log size ≤ 3× what it records: batch load (%,d INSERTs, `executeBatch`)",
                        batchLoad.rows()),
                batchLoad.growth()));
        v.add(judged(
                "restart on a 1.5 M-entry log ≤ 5 s",
                restart.startSeconds() <= RestartableController.TARGET_RESTART_SECONDS,
                String.format(Locale.ROOT, "%.2f s on %,d entries", restart.startSeconds(), restart.logEntries()),
                restart.logEntries(),
                TARGET_LOG_ENTRIES));
        if (Double.isNaN(replay.firstBatchSeconds())) {
            v.add(new TargetVerdict(
                    "enable starts replaying ≤ 1 s", TargetVerdict.Status.NOT_MEASURED, "nothing was replayed"));
        } else {
            v.add(judged(
                    "enable starts replaying ≤ 1 s",
                    replay.firstBatchSeconds() <= ReplayFigures.TARGET_START_SECONDS,
                    String.format(
                            Locale.ROOT,
                            "first batch %.3f s after the request, log of %,d entries",
                            replay.firstBatchSeconds(),
                            replayLogEntries),
                    replayLogEntries,
                    TARGET_LOG_ENTRIES));
        }
        v.add(judged(
                "replay ≥ 20,000 entries/s",
                replay.rate() >= ReplayFigures.TARGET_RATE,
                String.format(Locale.ROOT, "%,.0f entries/s (%,d entries)", replay.rate(), replay.entries()),
                replayLogEntries,
                TARGET_LOG_ENTRIES));
        v.add(judged(
                "writes (16 clients) during a purge of 1 M entries ≥ 0.8× without",
                purge.throughputRatio() >= PurgeUnderLoad.TARGET_THROUGHPUT_RATIO,
                String.format(
                        Locale.ROOT,
                        "%.2f× (%,.0f against %,.0f ops/s; %,d entries purged in %.2f s)",
                        purge.throughputRatio(),
                        purge.during().opsPerSecond(),
                        purge.without().opsPerSecond(),
                        purge.deleted(),
                        purge.purgeSeconds()),
                purge.deleted(),
                TARGET_PURGE_ENTRIES));
        AdminLatencyProbe.Figures admin = purge.admin();
        if (admin.answers() == 0) {
            v.add(new TargetVerdict(
                    "`show backends` ≤ 200 ms throughout the purge",
                    admin.failures() == 0 ? TargetVerdict.Status.NOT_MEASURED : TargetVerdict.Status.NOT_MET,
                    admin.describe()));
        } else {
            v.add(judged(
                    "`show backends` ≤ 200 ms throughout the purge",
                    admin.failures() == 0 && admin.maxMillis() <= AdminLatencyProbe.TARGET_MAX_MILLIS,
                    admin.describe(),
                    purge.deleted(),
                    TARGET_PURGE_ENTRIES));
        }
        return v;
    }

    /** The verdicts as a Markdown table: target, what this run measured, met or not. */
    String table() {
        StringBuilder t = new StringBuilder("| issue 15 target | measured | verdict |\n|---|---|---|\n");
        for (TargetVerdict v : verdicts()) {
            t.append("| ")
                    .append(v.target())
                    .append(" | ")
                    .append(v.measured())
                    .append(" | ")
                    .append(v.status().text())
                    .append(" |\n");
        }
        return t.toString();
    }

    private static TargetVerdict size(String target, LogSize size) {
        if (!size.known()) {
            return new TargetVerdict(target, TargetVerdict.Status.NOT_MEASURED, size.describe());
        }
        return new TargetVerdict(
                target,
                size.ratio() <= LogSize.TARGET_RATIO ? TargetVerdict.Status.MET : TargetVerdict.Status.NOT_MET,
                size.describe());
    }

    /**
     * A target set for a log (or purge) of {@code targetScale} entries, judged on a run of {@code scale}: a smaller
     * run is not the target's case, which the measured text then says.
     */
    private static TargetVerdict judged(String target, boolean met, String measured, long scale, long targetScale) {
        String note = scale >= targetScale
                ? ""
                : String.format(Locale.ROOT, "; smaller than the target's %,d entries: not its case", targetScale);
        return new TargetVerdict(
                target, met ? TargetVerdict.Status.MET : TargetVerdict.Status.NOT_MET, measured + note);
    }
}
