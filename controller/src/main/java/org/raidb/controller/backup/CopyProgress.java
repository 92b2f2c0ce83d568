package org.raidb.controller.backup;

/**
 * How a backuper reports progress, so that the admin API can show "rows copied of total, rate, time
 * left". Calls never overlap, but may come from a thread the backuper started (pgDump reports from
 * the thread reading the tool's output); implementations must be quick and must not throw.
 *
 * <p>A run has one or more steps (dumping, then restoring, for a copy through a file). Each step
 * begins with {@link #begin}; the units {@link #advance} reports count from zero within that step.
 */
public interface CopyProgress {

    /** Reports nothing. */
    CopyProgress NONE = new CopyProgress() {
        @Override
        public void begin(String step, String unit, long total) {}

        @Override
        public void advance(long units) {}
    };

    /**
     * A step starts.
     *
     * @param step what is being done: "dumping", "restoring", "copying"
     * @param unit what {@code total} and {@link #advance} count: "rows", "tables"
     * @param total units this step will do, or -1 when not known
     */
    void begin(String step, String unit, long total);

    /** {@code units} more units of the current step are done. */
    void advance(long units);
}
