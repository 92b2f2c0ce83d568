package org.raidb.controller.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.recovery.Checkpoint;
import org.raidb.recovery.LogEntry;
import org.raidb.recovery.Outcome;
import org.raidb.recovery.PendingAppend;
import org.raidb.recovery.RecoveryLog;
import org.raidb.recovery.RecoveryLogConfig;

/** A replay's total, counted once and then over what was appended since, is the whole range's count. */
class ReplayTotalTest {
    @TempDir
    Path dataDir;

    @Test
    void countsWhatIsAppendedAfterTheCheckpointAndOnlyThat() throws Exception {
        try (RecoveryLog log = RecoveryLog.open(RecoveryLogConfig.h2File(dataDir, "shop"))) {
            append(log, 5);
            Checkpoint cp = log.checkpoint("old");
            ReplayTotal total = new ReplayTotal(log, cp.position());
            assertThat(total.update()).isZero();

            append(log, 7);
            assertThat(total.update()).isEqualTo(7);
            assertThat(total.update()).as("nothing appended since").isEqualTo(7);

            log.append(LogEntry.begin(1, "app"));
            log.append(LogEntry.write(1, "app", "UPDATE t SET n = n + 1", List.of(), List.of("t")));
            log.append(LogEntry.commit(1, "app").withOutcome(Outcome.SUCCESS));
            append(log, 2_500);
            assertThat(total.update())
                    .isEqualTo(7 + 3 + 2_500)
                    .isEqualTo(log.entriesBetween(cp.position(), log.lastPosition()));
        }
    }

    private static void append(RecoveryLog log, int n) throws Exception {
        List<LogEntry> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            batch.add(LogEntry.autoCommitWrite("app", "INSERT INTO t VALUES (?)", List.of(i), List.of("t"))
                    .withOutcome(Outcome.SUCCESS));
        }
        List<PendingAppend> appended = log.appendAllAsync(batch);
        appended.get(appended.size() - 1).await();
    }
}
