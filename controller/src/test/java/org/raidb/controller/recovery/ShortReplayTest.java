package org.raidb.controller.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.raidb.recovery.LogEntry;
import org.raidb.recovery.RecoveryLog;
import org.raidb.recovery.RecoveryLogConfig;
import org.raidb.recovery.ReplayCursor;
import org.raidb.recovery.ReplayItem;

/** The checkpoint a replay that ended short leaves its backend at, and what a replay from it applies. */
class ShortReplayTest {
    private static final AtomicInteger STORES = new AtomicInteger();
    private RecoveryLog log;

    @BeforeEach
    void thirtyAutoCommitWrites() throws Exception {
        // An embedded store is the point here: the checkpoint tables as any store keeps them.
        log = RecoveryLog.open(RecoveryLogConfig.of(
                "jdbc:h2:mem:short-replay-" + STORES.incrementAndGet() + ";DB_CLOSE_DELAY=-1", "sa", "", "shop"));
        for (int i = 1; i <= 30; i++) {
            log.append(LogEntry.autoCommitWrite("app", "INSERT INTO t VALUES (" + i + ")", null, List.of("t")));
        }
    }

    @AfterEach
    void close() throws Exception {
        log.close();
    }

    @Test
    void aReplayThatCommittedNothingLeavesTheOldCheckpoint() throws Exception {
        log.checkpointAt("pg3-disabled", 10, Set.of(14L), Set.of(12L));

        String at = ShortReplay.checkpoint(
                log, "pg3", "pg3-disabled", new ShortReplay.Applied(-1, List.of(), List.of(), List.of()));

        assertThat(at).isEqualTo("pg3-disabled");
    }

    @Test
    void aReplayCutShortMovesTheCheckpointToTheLastItemItAppliedKeepingWhatTheOldOneListedBeyond() throws Exception {
        log.checkpointAt("pg3-disabled", 10, Set.of(25L), Set.of(28L));

        String at = ShortReplay.checkpoint(
                log, "pg3", "pg3-disabled", new ShortReplay.Applied(20, List.of(), List.of(), List.of()));

        assertThat(at).startsWith("pg3-replayed-");
        assertThat(log.checkpointPosition(at)).hasValue(20);
        assertThat(log.appliedAfter(at)).containsExactly(25L);
        assertThat(log.inDoubtAfter(at)).containsExactly(28L);
        assertThat(replayedFrom(at)).containsExactly(21L, 22L, 23L, 24L, 26L, 27L, 28L, 29L, 30L);
    }

    @Test
    void itemsInDoubtTheReplayMetStayInDoubtAndWhatItCommittedAfterThemIsHeld() throws Exception {
        log.checkpointAt("pg3-disabled", 10, Set.of(), Set.of(12L));

        String at = ShortReplay.checkpoint(
                log,
                "pg3",
                "pg3-disabled",
                new ShortReplay.Applied(16, List.of(12L), List.of(13L, 14L, 15L, 16L), List.of()));

        assertThat(log.checkpointPosition(at)).hasValue(11);
        assertThat(log.inDoubtAfter(at)).containsExactly(12L);
        // Applied again with care and compared, as on the first try; what it committed after is not applied twice.
        assertThat(replayedFrom(at)).startsWith(12L, 17L).doesNotContain(13L, 14L, 15L, 16L);
    }

    @Test
    void itemsWhoseCommitBrokeWithTheConnectionAreInDoubt() throws Exception {
        log.checkpointAt("pg3-disabled", 10, Set.of(), Set.of());

        String at = ShortReplay.checkpoint(
                log, "pg3", "pg3-disabled", new ShortReplay.Applied(18, List.of(), List.of(), List.of(19L, 20L)));

        assertThat(log.checkpointPosition(at)).hasValue(18);
        assertThat(log.inDoubtAfter(at)).containsExactly(19L, 20L);
    }

    private List<Long> replayedFrom(String checkpoint) throws Exception {
        List<Long> positions = new ArrayList<>();
        try (ReplayCursor cursor = log.replayFrom(checkpoint)) {
            for (ReplayItem item : cursor.nextBatch(100)) {
                positions.add(item.orderPosition());
            }
        }
        return positions;
    }
}
