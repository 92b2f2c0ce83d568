package org.raidb.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ReplayCursorTest {

    private RecoveryLog log;

    @BeforeEach
    void open() throws Exception {
        log = RecoveryLog.open(TestStores.freshH2("shop"));
    }

    @AfterEach
    void close() throws Exception {
        log.close();
    }

    private long write(long tx, String sql) throws Exception {
        return log.append(LogEntry.write(tx, "u", sql, List.of(), List.of("t")));
    }

    private long auto(String sql) throws Exception {
        return log.append(LogEntry.autoCommitWrite("u", sql, List.of(), List.of("t")));
    }

    private static List<String> sqlOf(ReplayItem item) {
        return item.statements().stream().map(LogEntry::sql).toList();
    }

    @Test
    void committedTransactionsReplayAsUnitsInCommitOrderAndRolledBackOnesAreSkipped() throws Exception {
        log.append(LogEntry.begin(1, "u"));
        log.append(LogEntry.begin(2, "v"));
        write(1, "t1-a");
        write(2, "t2-a");
        auto("auto-1");
        write(1, "t1-b");
        long commit2 = log.append(LogEntry.commit(2, "v"));
        log.append(LogEntry.begin(3, "u"));
        write(3, "t3-a");
        log.append(LogEntry.rollback(3, "u"));
        long commit1 = log.append(LogEntry.commit(1, "u"));

        try (ReplayCursor cursor = log.replayFrom(0)) {
            List<ReplayItem> items = cursor.nextBatch(100);
            assertThat(items).extracting(ReplayItem::orderPosition).containsExactly(5L, commit2, commit1);
            assertThat(sqlOf(items.get(0))).containsExactly("auto-1");
            assertThat(items.get(0).isTransaction()).isFalse();
            assertThat(sqlOf(items.get(1))).containsExactly("t2-a");
            assertThat(items.get(1).login()).isEqualTo("v");
            assertThat(sqlOf(items.get(2))).containsExactly("t1-a", "t1-b");
            assertThat(cursor.caughtUp()).isTrue();
            assertThat(cursor.pendingTransactions()).isZero();
        }
    }

    @Test
    void aCheckpointWithARaggedEdgeSkipsTheItemsItsBackendAlreadyHolds() throws Exception {
        long a1 = auto("a1");
        long a2 = auto("a2"); // in flight on the backend when it failed: missing there
        long a3 = auto("a3"); // ran in parallel and finished there before it failed
        write(7, "t7-a");
        long commit7 = log.append(LogEntry.commit(7, "u")); // committed there too
        long a4 = auto("a4");
        log.checkpointAt("pg2-failed", a1, List.of(a3, commit7, a1));

        try (ReplayCursor cursor = log.replayFrom("pg2-failed")) {
            assertThat(cursor.nextBatch(100))
                    .extracting(ReplayItem::orderPosition)
                    .containsExactly(a2, a4);
        }
        assertThat(log.checkpointPosition("pg2-failed")).hasValue(a1);
        // A later checkpoint purges the older one's list with it.
        log.checkpoint("later");
        log.purgeBefore("later");
        assertThat(log.checkpoints()).extracting(Checkpoint::name).containsExactly("later");
    }

    @Test
    void anOpenTransactionIsHeldBackUntilItCommits() throws Exception {
        log.append(LogEntry.begin(1, "u"));
        write(1, "t1-a");
        auto("auto-1");
        try (ReplayCursor cursor = log.replayFrom(0)) {
            assertThat(cursor.nextBatch(100))
                    .extracting(ReplayCursorTest::sqlOf)
                    .containsExactly(List.of("auto-1"));
            assertThat(cursor.pendingTransactions()).isEqualTo(1);
            assertThat(cursor.caughtUp()).isTrue();

            // Clients keep writing while the replay runs: the cursor sees what becomes durable later.
            log.append(LogEntry.commit(1, "u"));
            auto("auto-2");
            assertThat(cursor.caughtUp()).isFalse();
            assertThat(cursor.nextBatch(100))
                    .extracting(ReplayCursorTest::sqlOf)
                    .containsExactly(List.of("t1-a"), List.of("auto-2"));
            assertThat(cursor.pendingTransactions()).isZero();
            assertThat(cursor.lastPosition()).isEqualTo(log.lastPosition());
        }
    }

    @Test
    void writesUndoneByRollbackToSavepointAreDropped() throws Exception {
        log.append(LogEntry.begin(1, "u"));
        write(1, "keep-1");
        log.append(LogEntry.savepoint(1, "u", "s1"));
        write(1, "drop-1");
        log.append(LogEntry.savepoint(1, "u", "s2"));
        write(1, "drop-2");
        log.append(LogEntry.rollbackToSavepoint(1, "u", "s1"));
        write(1, "keep-2");
        // s2 was destroyed by the rollback to s1: rolling back to it changes nothing.
        log.append(LogEntry.rollbackToSavepoint(1, "u", "s2"));
        log.append(LogEntry.savepoint(1, "u", "s3"));
        write(1, "keep-3");
        log.append(LogEntry.releaseSavepoint(1, "u", "s3"));
        log.append(LogEntry.rollbackToSavepoint(1, "u", "s1"));
        write(1, "keep-4");
        log.append(LogEntry.commit(1, "u"));
        try (ReplayCursor cursor = log.replayFrom(0)) {
            assertThat(sqlOf(cursor.nextBatch(10).get(0))).containsExactly("keep-1", "keep-4");
        }
    }

    @Test
    void failedEntriesAndFailedCommitsAreSkipped() throws Exception {
        log.append(LogEntry.autoCommitWrite("u", "dup-key", List.of(), List.of("t"))
                .withOutcome(Outcome.failed("23505")));
        log.append(LogEntry.begin(1, "u"));
        write(1, "ok");
        log.append(LogEntry.write(1, "u", "bad", List.of(), List.of("t")).withOutcome(Outcome.failed("42P01")));
        log.append(LogEntry.commit(1, "u"));
        log.append(LogEntry.begin(2, "u"));
        write(2, "lost");
        log.append(LogEntry.commit(2, "u").withOutcome(Outcome.failed("40001")));
        log.append(LogEntry.ddl(0, "admin", "CREATE TABLE x (i INT)", List.of("x")));
        try (ReplayCursor cursor = log.replayFrom(0)) {
            assertThat(cursor.nextBatch(10))
                    .extracting(ReplayCursorTest::sqlOf)
                    .containsExactly(List.of("ok"), List.of("CREATE TABLE x (i INT)"));
        }
    }

    @Test
    void replayFromACheckpointIncludesTransactionsThatWereOpenThere() throws Exception {
        log.append(LogEntry.begin(1, "u"));
        write(1, "committed-before");
        log.append(LogEntry.commit(1, "u"));
        auto("auto-before");
        log.append(LogEntry.begin(2, "u"));
        write(2, "open-at-checkpoint");
        log.checkpoint("cp");
        write(2, "after-checkpoint");
        log.append(LogEntry.commit(2, "u"));
        auto("auto-after");
        try (ReplayCursor cursor = log.replayFrom("cp")) {
            assertThat(cursor.nextBatch(10))
                    .extracting(ReplayCursorTest::sqlOf)
                    .containsExactly(List.of("open-at-checkpoint", "after-checkpoint"), List.of("auto-after"));
            assertThat(log.entriesBetween(cursor.checkpointPosition(), cursor.lastPosition()))
                    .isEqualTo(3);
        }
    }

    @Test
    void batchesAreCutAtTheRequestedSizeAndSpanPages() throws Exception {
        int total = 5_000;
        for (int i = 0; i < total; i++) {
            log.appendAsync(LogEntry.autoCommitWrite("u", "w" + i, List.of(i), List.of("t")));
        }
        auto("last");
        try (ReplayCursor cursor = log.replayFrom(0)) {
            int seen = 0;
            for (List<ReplayItem> batch = cursor.nextBatch(777); !batch.isEmpty(); batch = cursor.nextBatch(777)) {
                assertThat(batch.size()).isLessThanOrEqualTo(777);
                assertThat(batch.get(0).statements().get(0).sql()).isEqualTo(seen == total ? "last" : "w" + seen);
                seen += batch.size();
            }
            assertThat(seen).isEqualTo(total + 1);
            assertThat(cursor.caughtUp()).isTrue();
        }
    }
}
