package org.raidb.tpcw.play;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.raidb.tpcw.trace.TraceEvent;
import org.raidb.tpcw.trace.TraceEvent.Kind;

/**
 * The player's retry loop against a scripted connection (a fake: the loop, not a database, is under
 * test; the replay ITs run it on real ones): what is re-sent, in which order, how often, and what
 * the counts say. Waits are recorded, never slept.
 */
class RetryLoopTest {

    /** A connection that logs what it is sent and fails a statement or a commit with the SQLStates queued for it. */
    private static final class ScriptedConnection {
        final List<String> log = new ArrayList<>();
        final Map<String, Deque<String>> failures = new HashMap<>();

        ScriptedConnection fail(String sqlOrCommit, String... states) {
            failures.computeIfAbsent(sqlOrCommit, k -> new ArrayDeque<>()).addAll(List.of(states));
            return this;
        }

        private void maybeFail(String what) throws SQLException {
            Deque<String> queued = failures.get(what);
            if (queued != null && !queued.isEmpty()) {
                log.add(what + " !" + queued.peek());
                throw new SQLException("scripted failure of " + what, queued.poll());
            }
            log.add(what);
        }

        Connection connection() {
            Statement statement = (Statement) Proxy.newProxyInstance(
                    getClass().getClassLoader(),
                    new Class<?>[] {Statement.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "execute" -> {
                            maybeFail((String) args[0]);
                            yield false;
                        }
                        case "getUpdateCount" -> -1;
                        case "close" -> null;
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
            return (Connection) Proxy.newProxyInstance(
                    getClass().getClassLoader(),
                    new Class<?>[] {Connection.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "createStatement" -> statement;
                        case "setAutoCommit" -> {
                            log.add("autocommit " + args[0]);
                            yield null;
                        }
                        case "commit" -> {
                            maybeFail("commit");
                            yield null;
                        }
                        case "rollback" -> {
                            log.add("rollback");
                            yield null;
                        }
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }
    }

    private final List<Long> waits = new ArrayList<>();
    private final LongAdder statementsDone = new LongAdder();
    private final LongAdder errorsSeen = new LongAdder();

    private SessionStats replay(ScriptedConnection db, int maxRetries, List<TraceEvent> events)
            throws InterruptedException {
        SessionReplayer replayer = new SessionReplayer(
                db.connection(),
                Pace.MAX,
                System.nanoTime(),
                statementsDone,
                errorsSeen,
                RetryPolicy.withMaxRetries(maxRetries),
                new SplittableRandom(1),
                waits::add);
        replayer.replay(events);
        return replayer.stats();
    }

    private static List<TraceEvent> buyConfirmThenHome() {
        return List.of(
                new TraceEvent(0, 1, Kind.INTERACTION, "BuyConfirm"),
                TraceEvent.of(1, 1, Kind.BEGIN),
                TraceEvent.statement(2, 1, "S1"),
                TraceEvent.statement(3, 1, "S2"),
                TraceEvent.statement(4, 1, "S3"),
                TraceEvent.of(5, 1, Kind.COMMIT),
                new TraceEvent(6, 1, Kind.INTERACTION, "Home"),
                TraceEvent.statement(7, 1, "H1"));
    }

    @Test
    void anAbortedTransactionIsRolledBackAndRunAgainFromItsFirstStatement() throws Exception {
        ScriptedConnection db = new ScriptedConnection().fail("S2", "40001");

        SessionStats stats = replay(db, 10, buyConfirmThenHome());

        assertThat(db.log)
                .containsExactly(
                        "autocommit false",
                        "S1",
                        "S2 !40001",
                        "rollback",
                        "autocommit false",
                        "S1",
                        "S2",
                        "S3",
                        "commit",
                        "autocommit true",
                        "H1");
        assertThat(stats.retriesByInteraction).containsExactly(Map.entry("BuyConfirm", 1L));
        assertThat(stats.errorsBySqlState).isEmpty();
        assertThat(stats.statements).as("each trace statement once").isEqualTo(4);
        assertThat(stats.retriedStatements)
                .as("S1 and S2 of the aborted attempt")
                .isEqualTo(2);
        assertThat(stats.byKind.get("S").count())
                .as("every send has its latency")
                .isEqualTo(5);
        assertThat(stats.transactions).isEqualTo(2);
        assertThat(stats.rolledBack).isZero();
        assertThat(statementsDone.sum()).isEqualTo(4);
        assertThat(waits).singleElement().satisfies(w -> assertThat(w).isBetween(1L, 2L));
    }

    @Test
    void aDeadlockVictimAtCommitIsRunAgainWhole() throws Exception {
        ScriptedConnection db = new ScriptedConnection().fail("commit", "40P01");

        SessionStats stats = replay(db, 10, buyConfirmThenHome());

        assertThat(db.log)
                .containsExactly(
                        "autocommit false",
                        "S1",
                        "S2",
                        "S3",
                        "commit !40P01",
                        "rollback",
                        "autocommit true",
                        "autocommit false",
                        "S1",
                        "S2",
                        "S3",
                        "commit",
                        "autocommit true",
                        "H1");
        assertThat(stats.retriesByInteraction).containsExactly(Map.entry("BuyConfirm", 1L));
        assertThat(stats.retriedStatements).isEqualTo(3);
        assertThat(stats.errorsBySqlState).isEmpty();
    }

    @Test
    void retriesStopAtTheBoundAndTheTransactionCountsAsAnErrorWithItsState() throws Exception {
        ScriptedConnection db = new ScriptedConnection().fail("S2", "40P01", "40P01", "40P01", "40P01", "40P01");

        SessionStats stats = replay(db, 3, buyConfirmThenHome());

        assertThat(db.log.stream().filter(l -> l.startsWith("S2")).count())
                .as("first attempt and 3 retries")
                .isEqualTo(4);
        assertThat(db.log).doesNotContain("S3", "commit").endsWith("rollback", "autocommit true", "H1");
        assertThat(stats.retriesByInteraction).containsExactly(Map.entry("BuyConfirm", 3L));
        assertThat(stats.errorsBySqlState).containsExactly(Map.entry("40P01", 1L));
        assertThat(errorsSeen.sum()).isEqualTo(1);
        assertThat(stats.skipped).as("S3 of the last attempt").isEqualTo(1);
        assertThat(stats.rolledBack).isEqualTo(1);
        assertThat(waits).hasSize(3);
        long bound = 2;
        for (long wait : waits) {
            assertThat(wait).isBetween(1L, bound);
            bound *= 2;
        }
    }

    @Test
    void otherFailuresAreNotRetried() throws Exception {
        ScriptedConnection db = new ScriptedConnection().fail("S2", "23505");

        SessionStats stats = replay(db, 10, buyConfirmThenHome());

        assertThat(db.log)
                .containsExactly(
                        "autocommit false", "S1", "S2 !23505", "rollback", "rollback", "autocommit true", "H1");
        assertThat(stats.retriesByInteraction).isEmpty();
        assertThat(stats.errorsBySqlState).containsExactly(Map.entry("23505", 1L));
        assertThat(waits).isEmpty();
    }

    @Test
    void noRetryWhenMaxRetriesIsZero() throws Exception {
        ScriptedConnection db = new ScriptedConnection().fail("S1", "40001");

        SessionStats stats = replay(db, 0, buyConfirmThenHome());

        assertThat(stats.retriesByInteraction).isEmpty();
        assertThat(stats.errorsBySqlState).containsExactly(Map.entry("40001", 1L));
        assertThat(waits).isEmpty();
    }

    @Test
    void anAutoCommitStatementIsRetriedAloneAndEachTransactionHasItsOwnBudget() throws Exception {
        ScriptedConnection db =
                new ScriptedConnection().fail("H1", "40001", "40001").fail("S1", "40001", "40001");
        List<TraceEvent> events = new ArrayList<>(buyConfirmThenHome());
        events.addAll(List.of(
                TraceEvent.statement(8, 1, "H2"),
                new TraceEvent(9, 1, Kind.INTERACTION, "BuyConfirm"),
                TraceEvent.of(10, 1, Kind.BEGIN),
                TraceEvent.statement(11, 1, "S1"),
                TraceEvent.of(12, 1, Kind.COMMIT)));

        SessionStats stats = replay(db, 2, events);

        assertThat(db.log.subList(db.log.indexOf("autocommit true"), db.log.size()))
                .containsExactly(
                        "autocommit true",
                        "H1 !40001",
                        "H1 !40001",
                        "H1",
                        "H2",
                        "autocommit false",
                        "S1",
                        "commit",
                        "autocommit true");
        assertThat(stats.retriesByInteraction).containsExactly(Map.entry("BuyConfirm", 2L), Map.entry("Home", 2L));
        assertThat(stats.errorsBySqlState).isEmpty();
        assertThat(stats.statements).isEqualTo(6);
        assertThat(stats.retriedStatements).isEqualTo(4);
        assertThat(stats.transactions).isEqualTo(4);
    }
}
