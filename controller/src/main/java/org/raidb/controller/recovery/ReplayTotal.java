package org.raidb.controller.recovery;

import java.sql.SQLException;
import org.raidb.recovery.RecoveryLog;

/**
 * The log entries a replay has to apply, for its progress: counted from the checkpoint to the log's end
 * once, then only over what was appended since the previous count. Counting the whole range again after
 * every batch, as the replay did, made it quadratic in its length on a store where a count reads the rows:
 * on a MariaDB store, a count over a million entries takes 100 to 300 ms, and a million-entry replay made
 * a thousand of them (it had not ended after four minutes; 200,000 entries took 10 to 16 s).
 */
final class ReplayTotal {
    private final RecoveryLog log;
    private long countedTo;
    private long total;

    /** @param from the checkpoint's position: the replay applies what comes after it */
    ReplayTotal(RecoveryLog log, long from) {
        this.log = log;
        this.countedTo = from;
    }

    /**
     * The entries after the checkpoint up to the log's last durable position. Every entry at or before that
     * position is in the store (a replay reads up to it), so no entry counted later can fall below it.
     */
    long update() throws SQLException {
        long to = log.lastDurablePosition();
        if (to > countedTo) {
            total += log.entriesBetween(countedTo, to);
            countedTo = to;
        }
        return total;
    }
}
