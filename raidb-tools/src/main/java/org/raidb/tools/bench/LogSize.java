package org.raidb.tools.bench;

import java.util.Locale;
import org.raidb.recovery.RecoveryLog;

/**
 * What a recovery log's store holds against what the log records: the store's bytes ({@link RecoveryLog#storeBytes()},
 * -1 when the store cannot say) and the UTF-8 bytes of the SQL texts plus encoded parameters appended since the log
 * was opened ({@link RecoveryLog#recordedBytes()}). Issue 15 wants the first at most three times the second.
 */
record LogSize(long storeBytes, long recordedBytes) {
    /** Issue 15: the log's size at most this many times the bytes of the SQL text and parameters it records. */
    static final double TARGET_RATIO = 3.0;

    static LogSize of(RecoveryLog log) {
        return new LogSize(log.storeBytes(), log.recordedBytes());
    }

    /** What a phase added: this reading less the one taken before it (unknown when either store size is). */
    LogSize since(LogSize before) {
        boolean known = storeBytes >= 0 && before.storeBytes >= 0;
        return new LogSize(known ? storeBytes - before.storeBytes : -1, recordedBytes - before.recordedBytes);
    }

    boolean known() {
        return storeBytes >= 0 && recordedBytes > 0;
    }

    /** Store bytes per recorded byte; NaN when unknown. */
    double ratio() {
        return known() ? (double) storeBytes / recordedBytes : Double.NaN;
    }

    /** "12,345,678 store bytes for 4,567,890 recorded: 2.70×", or why there is no figure. */
    String describe() {
        if (storeBytes < 0) {
            return "the store cannot say its size";
        }
        if (recordedBytes <= 0) {
            return String.format(Locale.ROOT, "%,d store bytes, nothing recorded", storeBytes);
        }
        return String.format(
                Locale.ROOT, "%,d store bytes for %,d bytes recorded: %.2f×", storeBytes, recordedBytes, ratio());
    }
}
