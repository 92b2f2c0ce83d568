package org.raidb.controller.recovery;

/** Where a long recovery operation stands, for whoever watches it (the admin API's operations). */
public interface Progress {
    Progress NONE = new Progress() {
        @Override
        public void total(long units) {}

        @Override
        public void advance(long units) {}
    };

    /** The amount of work, once known (log entries to replay, rows to copy). */
    void total(long units);

    void advance(long units);
}
