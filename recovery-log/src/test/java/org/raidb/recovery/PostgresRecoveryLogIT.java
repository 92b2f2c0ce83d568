package org.raidb.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The log stored in a real PostgreSQL server: types (TEXT, BYTEA), SQL and restart behaviour. */
class PostgresRecoveryLogIT {

    private static EmbeddedPostgres postgres;

    @BeforeAll
    static void start() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }

    private static RecoveryLogConfig store(String prefix) {
        return RecoveryLogConfig.of(postgres.getJdbcUrl("postgres", "postgres"), "postgres", "", "shop")
                .withTablePrefix(prefix);
    }

    @Test
    void logReplayAndCatalogWorkOnPostgres() throws Exception {
        List<Object> values = ParameterCodecTest.everyType();
        try (RecoveryLog log = RecoveryLog.open(store("pg_"))) {
            log.append(LogEntry.autoCommitWrite("alice", "INSERT INTO t VALUES (?)", values, List.of("t")));
            log.append(LogEntry.begin(1, "alice"));
            log.append(LogEntry.write(1, "alice", "UPDATE t SET x = ?", List.of(2), List.of("t")));
            log.checkpoint("cp");
            log.append(LogEntry.begin(2, "bob"));
            log.append(LogEntry.write(2, "bob", "DELETE FROM t", List.of(), List.of("t")));
            log.append(LogEntry.commit(1, "alice"));
            log.saveBackendState("pg2", BackendStateRecord.now(RecordedBackendState.DISABLED, "cp"));
            log.registerDump(new DumpRecord("d", "pg1", "cp", "pg_dump-custom", "/d", Instant.now(), 10, "shop"));
            assertThatThrownBy(() -> log.checkpoint("cp")).hasMessageContaining("already exists");
        }
        try (RecoveryLog log = RecoveryLog.open(store("pg_"))) {
            // Transaction 2 was left open: reopening rolls it back.
            assertThat(log.lastPosition()).isEqualTo(7);
            try (ReplayCursor all = log.replayFrom(0)) {
                List<ReplayItem> items = all.nextBatch(10);
                assertThat(items).extracting(ReplayItem::orderPosition).containsExactly(1L, 6L);
                List<Object> stored = items.get(0).statements().get(0).parameters();
                for (int i = 0; i < values.size(); i++) {
                    assertThat(stored.get(i)).isEqualTo(values.get(i));
                }
            }
            try (ReplayCursor fromCp = log.replayFrom("cp")) {
                assertThat(fromCp.nextBatch(10))
                        .singleElement()
                        .satisfies(i -> assertThat(i.statements())
                                .extracting(LogEntry::sql)
                                .containsExactly("UPDATE t SET x = ?"));
            }
            assertThat(log.backendStates().get("pg2").lastCheckpoint()).isEqualTo("cp");
            assertThat(log.dumps()).extracting(DumpRecord::name).containsExactly("d");
            log.checkpoint("later");
            assertThatThrownBy(() -> log.purgeBefore("later"))
                    .hasMessageContaining("backend pg2")
                    .hasMessageContaining("dump d");
        }
    }

    @Test
    void groupCommitBatchesOnPostgres() throws Exception {
        try (RecoveryLog log = RecoveryLog.open(store("gc_").withGroupCommit(8, 5_000_000))) {
            Thread[] threads = new Thread[8];
            for (int t = 0; t < threads.length; t++) {
                threads[t] = new Thread(() -> {
                    try {
                        for (int i = 0; i < 20; i++) {
                            log.append(LogEntry.autoCommitWrite("u", "UPDATE t SET x = 1", List.of(), List.of("t")));
                        }
                    } catch (RecoveryLogException e) {
                        throw new IllegalStateException(e);
                    }
                });
                threads[t].start();
            }
            for (Thread t : threads) {
                t.join();
            }
            assertThat(log.groupCommitStats()).isEqualTo(new RecoveryLog.GroupCommitStats(20, 160, 0));
        }
    }

    @Test
    void unreachablePostgresIsAClearError() {
        RecoveryLogConfig config = RecoveryLogConfig.of("jdbc:postgresql://127.0.0.1:1/log", "postgres", "", "shop");
        assertThatThrownBy(() -> RecoveryLog.open(config))
                .isInstanceOf(RecoveryLogException.class)
                .hasMessageContaining("jdbc:postgresql://127.0.0.1:1/log")
                .hasMessageContaining("Check that");
    }
}
