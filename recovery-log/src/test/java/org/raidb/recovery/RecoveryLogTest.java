package org.raidb.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecoveryLogTest {

    @TempDir
    Path dataDir;

    private RecoveryLogConfig fileStore() {
        return RecoveryLogConfig.h2File(dataDir, "shop");
    }

    @Test
    void positionsAreGapFreeAndSurviveReopen() throws Exception {
        try (RecoveryLog log = RecoveryLog.open(fileStore())) {
            assertThat(log.append(
                            LogEntry.autoCommitWrite("alice", "INSERT INTO t VALUES (?)", List.of(1), List.of("t"))))
                    .isEqualTo(1);
            assertThat(log.append(LogEntry.begin(7, "alice"))).isEqualTo(2);
            assertThat(log.append(LogEntry.commit(7, "alice"))).isEqualTo(3);
        }
        try (RecoveryLog log = RecoveryLog.open(fileStore())) {
            assertThat(log.lastPosition()).isEqualTo(3);
            assertThat(log.append(LogEntry.autoCommitWrite("bob", "DELETE FROM t", List.of(), List.of("t"))))
                    .isEqualTo(4);
            try (ReplayCursor cursor = log.replayFrom(0)) {
                List<ReplayItem> items = cursor.nextBatch(10);
                assertThat(items).extracting(ReplayItem::orderPosition).containsExactly(1L, 4L);
                LogEntry first = items.get(0).statements().get(0);
                assertThat(first.sql()).isEqualTo("INSERT INTO t VALUES (?)");
                assertThat(first.parameters()).containsExactly(1);
                assertThat(first.tablesWritten()).containsExactly("t");
                assertThat(first.login()).isEqualTo("alice");
            }
        }
    }

    @Test
    void everyParameterTypeSurvivesTheStore() throws Exception {
        try (RecoveryLog log = RecoveryLog.open(fileStore())) {
            List<Object> values = ParameterCodecTest.everyType();
            log.append(LogEntry.autoCommitWrite("u", "INSERT ...", values, List.of("a", "b")));
            try (ReplayCursor cursor = log.replayFrom(0)) {
                LogEntry stored = cursor.nextBatch(1).get(0).statements().get(0);
                assertThat(stored.parameters()).hasSameSizeAs(values);
                for (int i = 0; i < values.size(); i++) {
                    assertThat(stored.parameters().get(i)).isEqualTo(values.get(i));
                }
                assertThat(stored.tablesWritten()).containsExactly("a", "b");
            }
        }
    }

    /**
     * An embedded H2 store's writes are acknowledged once in the journal. Here the store dies first (H2's
     * SHUTDOWN IMMEDIATELY, as a crash would leave it), so what is appended afterwards exists only in the
     * journal: the next open must store it, in order, with its parameters and outcomes.
     */
    @Test
    void writesAcknowledgedFromTheJournalSurviveAStoreThatDied() throws Exception {
        RecoveryLogConfig config = fileStore();
        RecoveryLog log = RecoveryLog.open(config);
        log.append(LogEntry.autoCommitWrite("u", "INSERT INTO t VALUES (?)", List.of(0), List.of("t"))
                .withOutcome(Outcome.SUCCESS));
        log.checkpoint("before"); // in the store
        try (Connection c = DriverManager.getConnection(StoreUrl.forConnecting(config.jdbcUrl()), "sa", "");
                Statement s = c.createStatement()) {
            s.execute("SHUTDOWN IMMEDIATELY");
        } catch (java.sql.SQLException closedUnderUs) {
            // H2 closes this connection as it shuts down
        }
        List<LogEntry> batch = new ArrayList<>();
        batch.add(LogEntry.begin(5, "u"));
        for (int i = 1; i <= 50; i++) {
            batch.add(LogEntry.write(5, "u", "INSERT INTO t VALUES (?)", List.of(i), List.of("t")));
        }
        batch.add(LogEntry.commit(5, "u"));
        List<PendingAppend> appended = log.appendAllAsync(batch);
        long commit = appended.get(appended.size() - 1).await();
        assertThat(commit).isEqualTo(53);
        try {
            log.close();
        } catch (java.sql.SQLException storeGone) {
            // the store was shut down: closing its connections may complain
        }
        try (RecoveryLog reopened = RecoveryLog.open(config)) {
            assertThat(reopened.lastPosition()).isEqualTo(commit);
            try (ReplayCursor cursor = reopened.replayFrom("before")) {
                List<ReplayItem> items = cursor.nextBatch(10);
                assertThat(items).hasSize(1);
                assertThat(items.get(0).orderPosition()).isEqualTo(commit);
                assertThat(items.get(0).statements())
                        .extracting(e -> e.parameters().get(0))
                        .containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(1, 50)
                                .boxed()
                                .map(Object.class::cast)
                                .toList());
            }
            // Stored now: the journal is empty again.
            assertThat(journalBytes(config)).isZero();
        }
    }

    private static long journalBytes(RecoveryLogConfig config) throws java.io.IOException {
        Path store = StoreUrl.h2File(config.jdbcUrl());
        long total = 0;
        try (var files = java.nio.file.Files.list(store.getParent())) {
            for (Path f : files.filter(f -> f.getFileName().toString().contains(".journal-"))
                    .toList()) {
                total += java.nio.file.Files.size(f);
            }
        }
        return total;
    }

    /**
     * Statement texts are stored once, so the purge must also delete the rows of texts no kept entry uses:
     * here texts with literals (each its own row, more than the writer caches) before a checkpoint and one
     * text used throughout; then again after a restart, when the ids from before the restart go too.
     */
    @Test
    void purgeDeletesTheStatementsNoKeptEntryUses() throws Exception {
        RecoveryLogConfig config = fileStore();
        int literals = StatementIds.MAX_CACHED + 1000;
        try (RecoveryLog log = RecoveryLog.open(config)) {
            appendLiteralsAndOneHotText(log, 0, literals);
            log.checkpoint("middle");
            appendLiteralsAndOneHotText(log, literals, 10);
            long before = statementRows(config);
            assertThat(before).isEqualTo(literals + 10 + 1);
            log.purgeBefore("middle");
            assertThat(unknownStatementReferences(config)).isZero();
            // Only texts still cached may stay without an entry referring to them.
            assertThat(unreferencedStatements(config)).isLessThanOrEqualTo(StatementIds.MAX_CACHED);
            assertThat(statementRows(config)).isLessThan(before - 1000);
            try (ReplayCursor cursor = log.replayFrom("middle")) {
                List<ReplayItem> items = cursor.nextBatch(100);
                assertThat(items).hasSize(20);
                assertThat(items)
                        .allSatisfy(i -> assertThat(i.statements().get(0).sql()).startsWith("UPDATE t"));
            }
        }
        try (RecoveryLog log = RecoveryLog.open(config)) {
            appendLiteralsAndOneHotText(log, 2 * literals, 10);
            log.checkpoint("after-restart");
            appendLiteralsAndOneHotText(log, 3 * literals, 10);
            log.purgeBefore("after-restart");
            assertThat(unknownStatementReferences(config)).isZero();
            // Every id from before the restart is gone; of this run's, the texts the kept entries use.
            assertThat(unreferencedStatements(config)).isLessThanOrEqualTo(11);
            try (ReplayCursor cursor = log.replayFrom("after-restart")) {
                assertThat(cursor.nextBatch(100))
                        .hasSize(20)
                        .allSatisfy(i -> assertThat(i.statements().get(0).sql()).isNotNull());
            }
        }
    }

    private static void appendLiteralsAndOneHotText(RecoveryLog log, int first, int count) throws Exception {
        List<LogEntry> batch = new ArrayList<>();
        for (int i = first; i < first + count; i++) {
            batch.add(LogEntry.autoCommitWrite("u", "UPDATE t SET x = " + i, List.of(), List.of("t"))
                    .withOutcome(Outcome.SUCCESS));
            batch.add(LogEntry.autoCommitWrite("u", "UPDATE t SET y = ?", List.of(i), List.of("t"))
                    .withOutcome(Outcome.SUCCESS));
        }
        log.appendAllAsync(batch).get(batch.size() - 1).await();
        log.checkpoint("sync-" + first); // everything in the store before the counts are read
    }

    private static long statementRows(RecoveryLogConfig config) throws Exception {
        return count(config, "SELECT COUNT(*) FROM raidb_stmt_1");
    }

    private static long unreferencedStatements(RecoveryLogConfig config) throws Exception {
        return count(
                config,
                "SELECT COUNT(*) FROM raidb_stmt_1 s WHERE NOT EXISTS"
                        + " (SELECT 1 FROM raidb_log_1 e WHERE e.stmt_id = s.stmt_id)");
    }

    private static long unknownStatementReferences(RecoveryLogConfig config) throws Exception {
        return count(
                config,
                "SELECT COUNT(*) FROM raidb_log_1 e WHERE e.stmt_id IS NOT NULL AND NOT EXISTS"
                        + " (SELECT 1 FROM raidb_stmt_1 s WHERE s.stmt_id = e.stmt_id)");
    }

    private static long count(RecoveryLogConfig config, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(StoreUrl.forConnecting(config.jdbcUrl()), "sa", "");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void groupCommitPutsConcurrentAppendsInOneStoreTransaction() throws Exception {
        // A long wait and a batch of 16: the writer commits only when all 16 appenders have queued, so
        // the assertion does not depend on timing.
        int threads = 16;
        int perThread = 50;
        try (RecoveryLog log = RecoveryLog.open(fileStore().withGroupCommit(threads, 5_000_000))) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<List<Long>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String login = "user" + t;
                results.add(pool.submit(() -> {
                    List<Long> positions = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        positions.add(log.append(
                                LogEntry.autoCommitWrite(login, "UPDATE t SET x = ?", List.of(i), List.of("t"))));
                    }
                    return positions;
                }));
            }
            List<Long> all = new ArrayList<>();
            for (Future<List<Long>> f : results) {
                all.addAll(f.get());
            }
            pool.shutdown();
            RecoveryLog.GroupCommitStats stats = log.groupCommitStats();
            assertThat(stats.entriesWritten()).isEqualTo((long) threads * perThread);
            // A file store: each batch is one journal record; the store takes them many at a time.
            assertThat(stats.journalWrites()).isEqualTo(perThread);
            assertThat(stats.storeCommits()).isLessThanOrEqualTo(perThread);
            assertThat(all).doesNotHaveDuplicates().hasSize(threads * perThread);
            assertThat(all.stream().mapToLong(Long::longValue).max().orElseThrow())
                    .isEqualTo((long) threads * perThread);
        }
    }

    /**
     * A value the log cannot store used to be found by the writer thread, which died of it: every later
     * append then waited for its durability forever. Now the append itself fails, none of its entries is
     * queued, and the log goes on.
     */
    @Test
    void anUnstorableParameterFailsItsAppendAloneAndTheLogGoesOn() throws Exception {
        try (RecoveryLog log = RecoveryLog.open(fileStore())) {
            log.append(LogEntry.autoCommitWrite("u", "INSERT INTO t VALUES (1)", List.of(), List.of("t")));
            List<LogEntry> transaction = List.of(
                    LogEntry.write(9, "u", "INSERT INTO t VALUES (?)", List.of(2), List.of("t")),
                    LogEntry.write(9, "u", "INSERT INTO t VALUES (?)", List.of(new Object()), List.of("t")),
                    LogEntry.commit(9, "u"));
            assertThatThrownBy(() -> log.appendAllAsync(transaction))
                    .isInstanceOf(RecoveryLogException.class)
                    .hasMessageContaining("the write was not run")
                    .hasMessageContaining("java.lang.Object")
                    .satisfies(e ->
                            assertThat(((RecoveryLogException) e).getSQLState()).isEqualTo("22023"));
            assertThat(log.lastPosition())
                    .as("no entry of the refused transaction queued")
                    .isEqualTo(1);
            PendingAppend next = log.appendAsync(
                    LogEntry.autoCommitWrite("u", "INSERT INTO t VALUES (?)", List.of(3), List.of("t")));
            assertThat(next.durable().get(30, java.util.concurrent.TimeUnit.SECONDS))
                    .isEqualTo(2);
            try (ReplayCursor cursor = log.replayFrom(0)) {
                assertThat(cursor.nextBatch(10))
                        .extracting(ReplayItem::orderPosition)
                        .containsExactly(1L, 2L);
            }
        }
    }

    @Test
    void anAppendAfterCloseFailsInsteadOfWaitingForever() throws Exception {
        RecoveryLog log = RecoveryLog.open(fileStore());
        log.append(LogEntry.autoCommitWrite("u", "INSERT INTO t VALUES (1)", List.of(), List.of("t")));
        log.close();
        // A session still rolling back while its virtual database stops must hear an error, not hang.
        assertThatThrownBy(() -> log.appendAsync(
                                LogEntry.autoCommitWrite("u", "INSERT INTO t VALUES (2)", List.of(), List.of("t")))
                        .durable()
                        .get(30, java.util.concurrent.TimeUnit.SECONDS))
                .hasRootCauseInstanceOf(java.sql.SQLException.class)
                .hasStackTraceContaining("is closed");
    }

    @Test
    void outcomeLoggedAfterExecutionIsStored() throws Exception {
        try (RecoveryLog log = RecoveryLog.open(fileStore())) {
            PendingAppend pending =
                    log.appendAsync(LogEntry.autoCommitWrite("u", "INSERT INTO t VALUES (1)", List.of(), List.of("t")));
            long ok = log.append(LogEntry.autoCommitWrite("u", "INSERT INTO t VALUES (2)", List.of(), List.of("t")));
            assertThat(pending.await()).isEqualTo(1);
            log.setOutcome(pending.position(), Outcome.failed("23505"));
            log.setOutcome(ok, Outcome.SUCCESS);
            try (ReplayCursor cursor = log.replayFrom(0)) {
                assertThat(cursor.nextBatch(10))
                        .extracting(ReplayItem::orderPosition)
                        .containsExactly(ok);
            }
        }
        try (Connection c = DriverManager.getConnection(fileStore().jdbcUrl(), "sa", "");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT outcome, sql_state FROM raidb_log_1 ORDER BY log_position")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1) + "/" + rs.getString(2)).isEqualTo(Outcome.Status.FAILED.code() + "/23505");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(Outcome.Status.SUCCESS.code());
        }
    }

    @Test
    void checkpointNamesAreUnique() throws Exception {
        try (RecoveryLog log = RecoveryLog.open(fileStore())) {
            log.append(LogEntry.autoCommitWrite("u", "DELETE FROM t", List.of(), List.of("t")));
            Checkpoint c = log.checkpoint("before-upgrade");
            assertThat(c.position()).isEqualTo(1);
            assertThat(log.checkpointPosition("before-upgrade")).hasValue(1);
            assertThat(log.checkpointPosition("nope")).isEmpty();
            assertThatThrownBy(() -> log.checkpoint("before-upgrade"))
                    .isInstanceOf(RecoveryLogException.class)
                    .hasMessageContaining("before-upgrade already exists")
                    .hasMessageContaining("position 1");
            String auto = log.autoCheckpointName("pg2", "disabled");
            assertThat(auto).matches("pg2-disabled-\\d{8}T\\d{6}Z-1");
            log.checkpoint(auto);
            assertThat(log.autoCheckpointName("pg2", "disabled")).isNotEqualTo(auto);
            assertThat(log.checkpoints()).extracting(Checkpoint::name).containsExactly("before-upgrade", auto);
        }
    }

    @Test
    void backendStatesAndDumpsSurviveReopen() throws Exception {
        Instant date = Instant.parse("2026-11-22T04:15:00Z");
        try (RecoveryLog log = RecoveryLog.open(fileStore())) {
            log.checkpoint("cp1");
            log.saveBackendState("pg1", BackendStateRecord.now(RecordedBackendState.ENABLED, null));
            log.saveBackendState("pg2", BackendStateRecord.now(RecordedBackendState.ENABLED, null));
            log.saveBackendState("pg2", new BackendStateRecord(RecordedBackendState.DISABLED, "cp1", date));
            log.registerDump(new DumpRecord("d1", "pg1", "cp1", "pg_dump-custom", "/data/d1.dump", date, 4096, "shop"));
            assertThatThrownBy(() ->
                            log.registerDump(new DumpRecord("d2", "pg1", "missing", "plain", "/x", date, 1, "shop")))
                    .hasMessageContaining("checkpoint missing");
        }
        try (RecoveryLog log = RecoveryLog.open(fileStore())) {
            assertThat(log.backendStates()).containsOnlyKeys("pg1", "pg2");
            assertThat(log.backendStates().get("pg2"))
                    .isEqualTo(new BackendStateRecord(RecordedBackendState.DISABLED, "cp1", date));
            assertThat(log.backendStates().get("pg1").state()).isEqualTo(RecordedBackendState.ENABLED);
            assertThat(log.dump("d1"))
                    .contains(
                            new DumpRecord("d1", "pg1", "cp1", "pg_dump-custom", "/data/d1.dump", date, 4096, "shop"));
            assertThat(log.dumps()).hasSize(1);
            assertThat(log.removeDump("d1")).isTrue();
            assertThat(log.dump("d1")).isEmpty();
        }
    }

    @Test
    void aDisableCauseSurvivesReopenAndIsForgottenWithTheNextStateSavedWithoutOne() throws Exception {
        DisableCause diverged = new DisableCause(DisableCause.Kind.DIVERGENCE, "diverged on [UPDATE t SET n = 1]");
        try (RecoveryLog log = RecoveryLog.open(fileStore())) {
            log.checkpoint("cp1");
            log.saveBackendState("pg2", BackendStateRecord.now(RecordedBackendState.DISABLED, null, diverged));
            log.saveBackendState("pg2", BackendStateRecord.now(RecordedBackendState.DISABLED, "cp1", diverged));
            log.saveBackendState(
                    "pg3",
                    BackendStateRecord.now(
                            RecordedBackendState.DISABLED,
                            "cp1",
                            new DisableCause(DisableCause.Kind.FAILURE, "connection failed")));
        }
        try (RecoveryLog log = RecoveryLog.open(fileStore())) {
            assertThat(log.backendStates().get("pg2").cause()).isEqualTo(diverged);
            assertThat(log.backendStates().get("pg2").lastCheckpoint()).isEqualTo("cp1");
            assertThat(log.backendStates().get("pg3").cause().kind()).isEqualTo(DisableCause.Kind.FAILURE);
            log.saveBackendState("pg2", BackendStateRecord.now(RecordedBackendState.ENABLED, null));
        }
        try (RecoveryLog log = RecoveryLog.open(fileStore())) {
            assertThat(log.backendStates().get("pg2").cause()).isNull();
            assertThat(log.backendStates().get("pg3").cause().reason()).isEqualTo("connection failed");
        }
    }

    @Test
    void virtualDatabasesSharingAStoreDoNotSeeEachOther() throws Exception {
        RecoveryLogConfig shop = TestStores.freshH2("shop");
        RecoveryLogConfig blog = new RecoveryLogConfig(shop.jdbcUrl(), "sa", "", "raidb_", "blog", 100, 0);
        try (RecoveryLog a = RecoveryLog.open(shop);
                RecoveryLog b = RecoveryLog.open(blog)) {
            a.append(LogEntry.autoCommitWrite("u", "INSERT 1", List.of(), List.of("t")));
            a.checkpoint("cp");
            assertThat(b.append(LogEntry.autoCommitWrite("u", "INSERT 1", List.of(), List.of("t"))))
                    .isEqualTo(1);
            assertThat(b.checkpoints()).isEmpty();
            b.checkpoint("cp");
        }
    }

    @Test
    void purgeIsRefusedWhileABackendOrDumpNeedsOlderEntries() throws Exception {
        try (RecoveryLog log = RecoveryLog.open(fileStore())) {
            log.append(LogEntry.autoCommitWrite("u", "INSERT 1", List.of(), List.of("t")));
            log.checkpoint("old");
            log.append(LogEntry.autoCommitWrite("u", "INSERT 2", List.of(), List.of("t")));
            log.checkpoint("new");
            log.append(LogEntry.autoCommitWrite("u", "INSERT 3", List.of(), List.of("t")));
            log.saveBackendState("pg2", BackendStateRecord.now(RecordedBackendState.DISABLED, "old"));
            log.registerDump(new DumpRecord("nightly", "pg1", "old", "plain", "/d", Instant.now(), 1, "shop"));

            assertThatThrownBy(() -> log.purgeBefore("new"))
                    .isInstanceOf(RecoveryLogException.class)
                    .hasMessageContaining("backend pg2")
                    .hasMessageContaining("dump nightly");

            log.saveBackendState("pg2", BackendStateRecord.now(RecordedBackendState.ENABLED, null));
            log.removeDump("nightly");
            assertThat(log.purgeBefore("new")).isEqualTo(2);
            assertThat(log.checkpoints()).extracting(Checkpoint::name).containsExactly("new");
            assertThatThrownBy(() -> log.replayFrom(0)).hasMessageContaining("purged");
            try (ReplayCursor cursor = log.replayFrom("new")) {
                assertThat(cursor.nextBatch(10))
                        .extracting(ReplayItem::orderPosition)
                        .containsExactly(3L);
            }
        }
        try (RecoveryLog log = RecoveryLog.open(fileStore())) {
            assertThat(log.lastPosition()).isEqualTo(3);
        }
    }

    @Test
    void automaticPurgeStopsAtWhatADisabledBackendStillNeeds() throws Exception {
        try (RecoveryLog log = RecoveryLog.open(fileStore())) {
            log.append(LogEntry.autoCommitWrite("u", "INSERT 1", List.of(), List.of("t")));
            log.checkpoint("pg2-stopped");
            log.saveBackendState("pg2", BackendStateRecord.now(RecordedBackendState.DISABLED, "pg2-stopped"));
            log.append(LogEntry.autoCommitWrite("u", "INSERT 2", List.of(), List.of("t")));
            log.append(LogEntry.autoCommitWrite("u", "INSERT 3", List.of(), List.of("t")));

            // Everything is old enough, but pg2 replays from its checkpoint: only what is before it goes.
            assertThat(log.purgeOlderThan(Duration.ZERO)).isEqualTo(1);
            assertThat(log.checkpoints()).extracting(Checkpoint::name).first().isEqualTo("pg2-stopped");
            try (ReplayCursor cursor = log.replayFrom("pg2-stopped")) {
                assertThat(cursor.nextBatch(10))
                        .extracting(ReplayItem::orderPosition)
                        .containsExactly(2L, 3L);
            }
            // Checkpoints younger than the age are not purged before.
            log.saveBackendState("pg2", BackendStateRecord.now(RecordedBackendState.ENABLED, null));
            assertThat(log.purgeOlderThan(Duration.ofHours(1))).isZero();
            // Once pg2 is back, everything before the newest old-enough checkpoint goes.
            assertThat(log.purgeOlderThan(Duration.ZERO)).isEqualTo(2);
            assertThat(log.entriesBetween(0, log.lastPosition())).isZero();
        }
    }

    @Test
    void automaticPurgeRunsOnItsOwn() throws Exception {
        try (RecoveryLog log = RecoveryLog.open(fileStore())) {
            for (int i = 0; i < 5; i++) {
                log.append(LogEntry.autoCommitWrite("u", "INSERT " + i, List.of(), List.of("t"))
                        .withOutcome(Outcome.SUCCESS));
            }
            log.purgeAutomatically(Duration.ofMillis(1));
            // The first round checkpoints the end, a later one purges before that checkpoint.
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> log.entriesBetween(0, log.lastPosition()) == 0);
            assertThat(log.automaticPurgeFailure()).isNull();
            assertThat(log.checkpoints()).extracting(Checkpoint::position).containsExactly(5L);
        }
    }

    @Test
    void purgeKeepsTheWritesOfATransactionOpenAtTheCheckpoint() throws Exception {
        try (RecoveryLog log = RecoveryLog.open(fileStore())) {
            log.append(LogEntry.begin(5, "u"));
            log.append(LogEntry.write(5, "u", "UPDATE a", List.of(), List.of("a")));
            log.append(LogEntry.autoCommitWrite("u", "INSERT b", List.of(), List.of("b")));
            log.checkpoint("cp");
            log.append(LogEntry.commit(5, "u"));
            assertThat(log.purgeBefore("cp")).isZero();
            try (ReplayCursor cursor = log.replayFrom("cp")) {
                List<ReplayItem> items = cursor.nextBatch(10);
                assertThat(items).hasSize(1);
                assertThat(items.get(0).statements()).extracting(LogEntry::sql).containsExactly("UPDATE a");
            }
        }
    }

    @Test
    void transactionsLeftOpenByACrashAreRolledBackOnReopen() throws Exception {
        try (RecoveryLog log = RecoveryLog.open(fileStore())) {
            log.append(LogEntry.begin(9, "u"));
            log.append(LogEntry.write(9, "u", "UPDATE a", List.of(), List.of("a")));
        }
        try (RecoveryLog log = RecoveryLog.open(fileStore());
                ReplayCursor cursor = log.replayFrom(0)) {
            assertThat(log.lastPosition()).isEqualTo(3);
            assertThat(cursor.nextBatch(10)).isEmpty();
            assertThat(cursor.pendingTransactions()).isZero();
            assertThat(cursor.caughtUp()).isTrue();
        }
    }

    @Test
    void unreachableStoreIsAClearError() {
        RecoveryLogConfig config = RecoveryLogConfig.of("jdbc:h2:tcp://127.0.0.1:1/nowhere", "sa", "", "shop");
        assertThatThrownBy(() -> RecoveryLog.open(config))
                .isInstanceOf(RecoveryLogException.class)
                .hasMessageContaining("jdbc:h2:tcp://127.0.0.1:1/nowhere")
                .hasMessageContaining("Check that the database is running")
                .hasMessageContaining("shop cannot start")
                .satisfies(e ->
                        assertThat(((RecoveryLogException) e).getSQLState()).isEqualTo("08001"));
    }

    @Test
    void incompatibleSchemaVersionIsRefused() throws Exception {
        RecoveryLogConfig config = TestStores.freshH2("shop");
        RecoveryLog.open(config).close();
        try (Connection c = DriverManager.getConnection(config.jdbcUrl(), "sa", "");
                Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE raidb_meta SET meta_value = '99' WHERE meta_key = 'schema_version'");
        }
        assertThatThrownBy(() -> RecoveryLog.open(config))
                .isInstanceOf(RecoveryLogException.class)
                .hasMessageContaining("schema version 99")
                .hasMessageContaining("reads version 2")
                .hasMessageContaining("written by a newer RAIDb");
        // Another prefix in the same store is a separate, compatible log.
        RecoveryLog.open(config.withTablePrefix("other_")).close();
    }

    @Test
    void logOfTheOlderVersionIsRefusedWithWhatToDo() throws Exception {
        RecoveryLogConfig config = TestStores.freshH2("shop");
        // What a version-1 controller left: its meta table and its one log table for every virtual database.
        try (Connection c = DriverManager.getConnection(config.jdbcUrl(), "sa", "");
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE raidb_meta (meta_key VARCHAR(255) NOT NULL PRIMARY KEY,"
                    + " meta_value VARCHAR(255) NOT NULL)");
            s.execute("INSERT INTO raidb_meta VALUES ('schema_version', '1')");
            s.execute("CREATE TABLE raidb_log (vdb VARCHAR(128) NOT NULL, log_position BIGINT NOT NULL,"
                    + " kind VARCHAR(24) NOT NULL, PRIMARY KEY (vdb, log_position))");
        }
        assertThatThrownBy(() -> RecoveryLog.open(config))
                .isInstanceOf(RecoveryLogException.class)
                .hasMessageContaining("schema version 1")
                .hasMessageContaining("reads version 2")
                .hasMessageContaining("written by an older RAIDb")
                .hasMessageContaining("move the store aside")
                .satisfies(e ->
                        assertThat(((RecoveryLogException) e).getSQLState()).isEqualTo("55000"));
        // Refused before anything was created in it: the old controller still finds its store as it left it.
        try (Connection c = DriverManager.getConnection(config.jdbcUrl(), "sa", "");
                ResultSet rs = c.getMetaData().getTables(null, null, "RAIDB_VDB", null)) {
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void restartRollsBackOpenTransactionsFoundAfterTheSavedTail() throws Exception {
        RecoveryLogConfig config = fileStore();
        long entries = LogTail.SNAPSHOT_EVERY * 2 + 500;
        long early;
        try (RecoveryLog log = RecoveryLog.open(config)) {
            // Transaction 1 opens before the first saved tail and stays open; transaction 2 after the last one.
            log.append(LogEntry.begin(1, "u"));
            log.append(LogEntry.write(1, "u", "UPDATE t SET x = 1", List.of(), List.of("t")));
            // A write whose outcome never comes (it was running when the controller died), before every saved tail.
            early = log.append(LogEntry.autoCommitWrite("u", "DELETE FROM t WHERE x = 0", List.of(), List.of("t")));
            List<LogEntry> batch = new ArrayList<>();
            for (long i = 0; i < entries; i++) {
                batch.add(LogEntry.autoCommitWrite("u", "UPDATE t SET x = ?", List.of(i), List.of("t"))
                        .withOutcome(Outcome.SUCCESS));
            }
            log.appendAllAsync(batch).get(batch.size() - 1).await();
            log.append(LogEntry.begin(2, "u"));
            long pendingItem = log.append(LogEntry.autoCommitWrite("u", "DELETE FROM t", List.of(), List.of("t")));
            assertThat(pendingItem).isEqualTo(entries + 5);
        }
        // As after a crash: only the first tail saved survives (a close saves one, a crash does not).
        try (Connection c = DriverManager.getConnection(config.jdbcUrl(), "sa", "");
                Statement s = c.createStatement()) {
            long first;
            try (ResultSet rs = s.executeQuery("SELECT MIN(log_position) FROM raidb_log_state")) {
                rs.next();
                first = rs.getLong(1);
            }
            assertThat(first).isBetween(LogTail.SNAPSHOT_EVERY, entries);
            assertThat(s.executeUpdate("DELETE FROM raidb_log_state WHERE log_position > " + first))
                    .isPositive();
        }
        try (RecoveryLog log = RecoveryLog.open(config)) {
            assertThat(log.maxTransactionId()).isEqualTo(2);
            assertThat(log.pendingItems()).containsExactly(early, entries + 5);
            // Both left open were closed with a ROLLBACK at the end.
            assertThat(log.lastPosition()).isEqualTo(entries + 7);
            assertThat(log.committed(1)).isFalse();
            log.append(LogEntry.begin(3, "u"));
            log.append(LogEntry.commit(3, "u"));
            assertThat(log.committed(3)).isTrue();
        }
        try (RecoveryLog log = RecoveryLog.open(config)) {
            // Nothing is left open twice: the rollbacks written at the last open closed both.
            assertThat(log.lastPosition()).isEqualTo(entries + 9);
        }
    }

    @Test
    void badSettingsNameTheSetting() {
        assertThatThrownBy(() -> RecoveryLogConfig.of("postgres://x", "u", "p", "shop"))
                .hasMessageContaining("recoveryLog.url");
        assertThatThrownBy(() -> TestStores.freshH2("shop").withTablePrefix("drop table;"))
                .hasMessageContaining("recoveryLog.tablePrefix");
    }
}
