package org.raidb.controller.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.raidb.controller.recovery.RecoveryManager;
import org.raidb.controller.recovery.WriteLog;
import org.raidb.recovery.RecoveryLog;

/**
 * The recovery log and the write path of one virtual database: entries written, the journal writes and
 * store commits that made them durable, entries not yet durable, units of work in flight, and entries replayed into backends being
 * enabled. A virtual database without a recovery log has only the units in flight.
 */
final class RecoveryMetrics {
    private RecoveryMetrics() {}

    static void bind(MeterRegistry registry, String vdb, WriteLog writeLog, RecoveryManager recovery) {
        Tags tags = Tags.of("vdb", vdb);
        Gauge.builder("raidb.writes.in.flight", writeLog, WriteLog::openUnits)
                .description("Units of work not over: auto-commit writes a backend has not answered, open logged"
                        + " transactions")
                .tags(tags)
                .strongReference(true)
                .register(registry);
        if (recovery != null) {
            FunctionCounter.builder("raidb.recovery.replayed.entries", recovery, RecoveryManager::replayedEntries)
                    .description("Recovery log entries replayed into backends being enabled")
                    .tags(tags)
                    .register(registry);
        }
        RecoveryLog log = writeLog.log();
        if (log == null) {
            return;
        }
        FunctionCounter.builder(
                        "raidb.recovery.log.entries",
                        log,
                        l -> l.groupCommitStats().entriesWritten())
                .description("Entries the recovery log wrote to its store")
                .tags(tags)
                .register(registry);
        FunctionCounter.builder(
                        "raidb.recovery.log.store.commits",
                        log,
                        l -> l.groupCommitStats().storeCommits())
                .description("Store transactions the recovery log committed (each carries a group of entries)")
                .tags(tags)
                .register(registry);
        FunctionCounter.builder(
                        "raidb.recovery.log.journal.writes",
                        log,
                        l -> l.groupCommitStats().journalWrites())
                .description("Records written to the journal in front of an embedded H2 store, each making a group"
                        + " of entries durable (0 with other stores, where each store commit does)")
                .tags(tags)
                .register(registry);
        Gauge.builder("raidb.recovery.log.pending.entries", log, l -> l.lastPosition() - l.lastDurablePosition())
                .description("Entries appended to the recovery log and not durable yet: the log's write queue")
                .tags(tags)
                .strongReference(true)
                .register(registry);
    }
}
