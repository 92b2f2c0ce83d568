package org.raidb.controller.recovery;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.recovery.RecoveryLog;

/**
 * Where a replay that ended before its backend joined (the controller stopping, a statement
 * failing) leaves the backend. What the replay committed is on it, so its old checkpoint is no
 * longer true: the next replay would apply those items again. The backend gets a checkpoint that
 * says exactly what it holds, and the next {@code enable} goes on from there.
 *
 * <p>Items are committed in log order, so the new checkpoint is the last item applied, with what
 * the old checkpoint listed beyond it (items held, items in doubt). Items in doubt that this replay
 * met were applied with care but not yet compared with the other backends, which only happens as
 * the backend joins: the checkpoint then stays just before the first of them, keeps them in doubt
 * (the next replay applies them with care again, and compares), and lists the items committed after
 * them as held. Items whose commit broke with the backend's connection are in doubt as well.
 */
final class ShortReplay {

    /**
     * What a replay applied so far.
     *
     * @param through the log position up to which the backend holds every item the replay was handed; -1 before any
     * @param inDoubtReplayed the items in doubt it applied (or took as held)
     * @param heldAfterDoubt the items it committed after the first of those
     * @param uncertain the items whose commit broke with the backend's connection
     */
    record Applied(long through, List<Long> inDoubtReplayed, List<Long> heldAfterDoubt, List<Long> uncertain) {
        Applied {
            inDoubtReplayed = List.copyOf(inDoubtReplayed);
            heldAfterDoubt = List.copyOf(heldAfterDoubt);
            uncertain = List.copyOf(uncertain);
        }
    }

    private ShortReplay() {}

    /**
     * The checkpoint the backend stopped at: {@code from} when the replay committed nothing, else a new
     * one named after the backend.
     */
    static String checkpoint(RecoveryLog log, String backend, String from, Applied applied) throws SQLException {
        if (applied.through() < 0 && applied.uncertain().isEmpty()) {
            return from;
        }
        long old = log.checkpointPosition(from)
                .orElseThrow(() -> new SQLException("checkpoint " + from + " is gone", SqlStates.UNDEFINED_OBJECT));
        long firstInDoubt = applied.inDoubtReplayed().stream()
                .mapToLong(Long::longValue)
                .min()
                .orElse(Long.MAX_VALUE);
        long at = Math.max(old, Math.min(applied.through(), firstInDoubt - 1));
        Set<Long> held = new TreeSet<>(log.appliedAfter(from));
        held.addAll(applied.heldAfterDoubt());
        Set<Long> inDoubt = new TreeSet<>(log.inDoubtAfter(from));
        inDoubt.addAll(applied.uncertain());
        return log.checkpointAt(log.autoCheckpointName(backend, "replayed"), at, held, inDoubt)
                .name();
    }
}
