package org.raidb.controller.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ClassLockManagerTest {
    private static final ConflictClass A = ConflictClass.table("a");
    private static final ConflictClass B = ConflictClass.table("b");

    private static ConflictClass row(String table, int id) {
        return ConflictClass.key(table, "(id)", true, List.of(Integer.toString(id)));
    }

    private static List<Claim> x(ConflictClass... classes) {
        return java.util.Arrays.stream(classes).map(Claim::exclusive).toList();
    }

    private static CompletableFuture<Void> acquireAsync(ClassLockManager m, long tx, List<Claim> claims) {
        return acquireAsync(m, tx, tx, claims);
    }

    private static CompletableFuture<Void> acquireAsync(ClassLockManager m, long tx, long stamp, List<Claim> claims) {
        return CompletableFuture.runAsync(() -> {
            try {
                m.acquire(tx, stamp, claims);
            } catch (SQLException e) {
                throw new RuntimeException(e);
            }
        });
    }

    /** The wait failed as a deadlock victim's (40P01, as PostgreSQL's), naming the class it waited for. */
    private static void assertDeadlockVictim(CompletableFuture<Void> wait, String waitedFor) {
        assertDeadlockVictim(wait, waitedFor, "");
    }

    /** … and the transaction of the cycle it waited for: {@code "(transaction 1"}, say. */
    private static void assertDeadlockVictim(CompletableFuture<Void> wait, String waitedFor, String transaction) {
        Throwable failure = catchThrowable(() -> wait.get(5, TimeUnit.SECONDS));
        while (failure != null && !(failure instanceof SQLException)) {
            failure = failure.getCause();
        }
        assertThat(failure)
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("deadlock detected by the controller: this transaction waited for " + waitedFor)
                .hasMessageContaining(transaction)
                .hasMessageContaining("run the transaction again");
        assertThat(((SQLException) failure).getSQLState()).isEqualTo("40P01");
    }

    /** Waits until {@code n} transactions wait, then checks that {@code f} is one of them (not done). */
    private static void awaitWaiting(ClassLockManager m, int n, CompletableFuture<?> f) {
        await().atMost(5, TimeUnit.SECONDS).until(() -> m.waiting() == n);
        assertThat(f).isNotDone();
    }

    @Test
    void disjointTablesDoNotWaitAndConflictingOnesDo() throws Exception {
        ClassLockManager m = new ClassLockManager(false, 10_000);
        m.acquire(1, x(A));
        m.acquire(2, x(B));
        CompletableFuture<Void> waiting = acquireAsync(m, 3, x(A));
        awaitWaiting(m, 1, waiting);
        m.releaseAll(1);
        waiting.get(5, TimeUnit.SECONDS);
        assertThat(m.held(3)).containsExactly(A);
    }

    @Test
    void everythingConflictsWithAnyClass() throws Exception {
        ClassLockManager m = new ClassLockManager(false, 10_000);
        m.acquire(1, x(row("x", 1)));
        CompletableFuture<Void> all = acquireAsync(m, 2, x(ConflictClass.EVERYTHING));
        awaitWaiting(m, 1, all);
        m.releaseAll(1);
        all.get(5, TimeUnit.SECONDS);
        CompletableFuture<Void> sequence = acquireAsync(m, 3, x(ConflictClass.sequence("s")));
        awaitWaiting(m, 1, sequence);
        m.releaseAll(2);
        sequence.get(5, TimeUnit.SECONDS);
    }

    @Test
    void rowsOfOneTableMeetOnlyWhenTheyAreOneRow() throws Exception {
        ClassLockManager m = new ClassLockManager(false, 10_000);
        m.acquire(1, x(row("r", 600)));
        m.acquire(2, x(row("r", 601))); // does not wait
        CompletableFuture<Void> same = acquireAsync(m, 3, x(row("r", 600)));
        awaitWaiting(m, 1, same);
        m.releaseAll(1);
        same.get(5, TimeUnit.SECONDS);
        assertThat(m.held(3)).containsExactly(row("r", 600));
    }

    @Test
    void aWholeTableMeetsEveryRowOfItInBothDirections() throws Exception {
        ClassLockManager m = new ClassLockManager(false, 10_000);
        m.acquire(1, x(row("r", 1)));
        CompletableFuture<Void> table = acquireAsync(m, 2, x(ConflictClass.table("r")));
        awaitWaiting(m, 1, table);
        m.releaseAll(1);
        table.get(5, TimeUnit.SECONDS);
        CompletableFuture<Void> row = acquireAsync(m, 3, x(row("r", 2)));
        awaitWaiting(m, 1, row);
        m.acquire(4, x(row("q", 2))); // another table's rows go on
        m.releaseAll(2);
        row.get(5, TimeUnit.SECONDS);
    }

    @Test
    void sharedClaimsGoTogetherAndMeetExclusiveOnes() throws Exception {
        ClassLockManager m = new ClassLockManager(false, 10_000);
        ConflictClass parent = row("parent", 1);
        m.acquire(1, List.of(Claim.shared(parent)));
        m.acquire(2, List.of(Claim.shared(parent)));
        m.acquire(3, List.of(Claim.shared(ConflictClass.table("child")))); // a read of a table
        m.acquire(4, List.of(Claim.shared(ConflictClass.table("child"))));
        CompletableFuture<Void> delete = acquireAsync(m, 5, x(parent));
        awaitWaiting(m, 1, delete);
        CompletableFuture<Void> childRow = acquireAsync(m, 6, x(row("child", 7)));
        awaitWaiting(m, 2, childRow);
        m.releaseAll(1);
        m.releaseAll(2);
        delete.get(5, TimeUnit.SECONDS);
        m.releaseAll(3);
        m.releaseAll(4);
        childRow.get(5, TimeUnit.SECONDS);
    }

    @Test
    void releasingOneStatementsClaimsKeepsWhatTheTransactionsOtherStatementsHold() throws Exception {
        ClassLockManager m = new ClassLockManager(true, 10_000); // the query scheduler releases claims per statement
        List<Claim> second = x(ConflictClass.sequence("s"));
        m.acquire(1, x(row("r", 1)));
        m.acquire(1, second);
        m.release(1, second);
        assertThat(m.held(1)).containsExactly(row("r", 1));
        m.acquire(2, second); // the sequence is free again
        CompletableFuture<Void> table = acquireAsync(m, 3, x(ConflictClass.table("r")));
        awaitWaiting(m, 1, table); // the intentions on r and on everything stayed with the row
        m.releaseAll(1);
        table.get(5, TimeUnit.SECONDS);
    }

    @Test
    void anUnnamedSequenceMeetsEveryNamedOne() throws Exception {
        ClassLockManager m = new ClassLockManager(false, 10_000);
        m.acquire(1, x(ConflictClass.sequence("s")));
        m.acquire(2, x(ConflictClass.table("t")));
        CompletableFuture<Void> any = acquireAsync(m, 3, x(ConflictClass.SEQUENCES));
        awaitWaiting(m, 1, any);
        m.releaseAll(1);
        any.get(5, TimeUnit.SECONDS);
    }

    @Test
    void theTransactionClosingACycleOfRowsIsTheVictimAndTheMessageNamesTheRow() throws Exception {
        ClassLockManager m = new ClassLockManager(false, 10_000);
        m.acquire(1, x(row("r", 1)));
        m.acquire(2, x(row("r", 2)));
        CompletableFuture<Void> first = acquireAsync(m, 1, x(row("r", 2))); // 1 waits for 2
        awaitWaiting(m, 1, first);
        assertThatThrownBy(() -> m.acquire(2, x(row("r", 1))))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("deadlock")
                .hasMessageContaining("row (id)=(1) of table r")
                .hasMessageContaining("held by a transaction that waits for it (transaction 1)")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40P01"));
        m.releaseAll(2); // the victim is rolled back
        first.get(5, TimeUnit.SECONDS);
        assertThat(m.held(1)).containsExactlyInAnyOrder(row("r", 1), row("r", 2));
    }

    @Test
    void theOlderTransactionOfACycleSurvivesWhicheverClosesIt() throws Exception {
        // Ids and stamps in opposite orders: the stamp is the age, not the id (a retry has a new id, an old stamp).
        long old = 20;
        long young = 10;
        for (boolean oldCloses : new boolean[] {true, false}) {
            ClassLockManager m = new ClassLockManager(false, 10_000);
            m.acquire(old, 1, x(row("r", 1)));
            m.acquire(young, 2, x(row("r", 2)));
            long first = oldCloses ? young : old;
            CompletableFuture<Void> waiting =
                    acquireAsync(m, first, first == old ? 1 : 2, x(row("r", first == old ? 2 : 1)));
            awaitWaiting(m, 1, waiting);
            CompletableFuture<Void> closing =
                    acquireAsync(m, oldCloses ? old : young, oldCloses ? 1 : 2, x(row("r", oldCloses ? 2 : 1)));
            CompletableFuture<Void> victim = oldCloses ? waiting : closing;
            CompletableFuture<Void> survivor = oldCloses ? closing : waiting;
            assertDeadlockVictim(victim, "row (id)=(1) of table r");
            assertThat(survivor)
                    .as("the old one waits for the victim's rollback")
                    .isNotDone();
            m.releaseAll(young); // the victim is rolled back
            survivor.get(5, TimeUnit.SECONDS);
            assertThat(m.held(old)).as("old closes: %s", oldCloses).containsExactlyInAnyOrder(row("r", 1), row("r", 2));
        }
    }

    @Test
    void theYoungestOfALongerCycleIsToldWhereItWaitsForAnotherThanTheOneClosingIt() throws Exception {
        ClassLockManager m = new ClassLockManager(false, 10_000);
        for (long tx = 1; tx <= 3; tx++) {
            m.acquire(tx, x(row("r", (int) tx)));
        }
        CompletableFuture<Void> youngest = acquireAsync(m, 3, 3, x(row("r", 1))); // 3 waits for 1
        awaitWaiting(m, 1, youngest);
        CompletableFuture<Void> oldest = acquireAsync(m, 1, 1, x(row("r", 2))); // 1 waits for 2
        awaitWaiting(m, 2, oldest);
        CompletableFuture<Void> closing = acquireAsync(m, 2, 2, x(row("r", 3))); // 2 waits for 3: a cycle
        assertDeadlockVictim(youngest, "row (id)=(1) of table r", "(transaction 1, through 1 other)");
        await().atMost(5, TimeUnit.SECONDS).until(() -> m.waiting() == 2); // 1 and 2 still wait, for the rollback
        m.releaseAll(3);
        closing.get(5, TimeUnit.SECONDS);
        m.releaseAll(2);
        oldest.get(5, TimeUnit.SECONDS);
        assertThat(m.held(1)).containsExactlyInAnyOrder(row("r", 1), row("r", 2));
    }

    @Test
    void aRetryWithItsVictimsStampWinsTheNextCycleAgainstANewerTransaction() throws Exception {
        ClassLockManager m = new ClassLockManager(false, 10_000);
        // 2 (stamp 2) was the victim of a cycle with 1 (theTransactionClosingACycleOfRows…); its session retries
        // it as transaction 4 with stamp 2, and meets 3, which started before the retry (stamp 3).
        m.acquire(3, 3, x(row("r", 1)));
        m.acquire(4, 2, x(row("r", 2)));
        CompletableFuture<Void> newer = acquireAsync(m, 3, 3, x(row("r", 2)));
        awaitWaiting(m, 1, newer);
        CompletableFuture<Void> retry = acquireAsync(m, 4, 2, x(row("r", 1))); // closes the cycle, and survives
        assertDeadlockVictim(newer, "row (id)=(2) of table r");
        m.releaseAll(3);
        retry.get(5, TimeUnit.SECONDS);
        assertThat(m.held(4)).containsExactlyInAnyOrder(row("r", 1), row("r", 2));
    }

    @Test
    void waitingTooLongFailsWithLockNotAvailableNamingTheTableAndTheKey() throws Exception {
        ClassLockManager m = new ClassLockManager(false, 200);
        m.acquire(1, x(ConflictClass.table("r")));
        assertThatThrownBy(() -> m.acquire(2, x(row("r", 600))))
                .hasMessageContaining(
                        "waited 200 ms for row (id)=(600) of table r, within table r held by another transaction")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("55P03"));
        assertThat(m.held(2)).isEmpty();
        assertThat(m.holdsNothing(2)).isTrue();
    }

    @Test
    void queryModeSeesWaitsThatHappenOnTheBackends() throws Exception {
        // Transaction 1 wrote "accounts" (row locks stay on the backends); transaction 2's statement now holds the
        // table and may be blocked by those row locks; 1 asking for the table again would wait forever.
        // 1 is the older, but 2 is not waiting in the controller, where it could be told: 1 is the victim.
        ClassLockManager m = new ClassLockManager(true, 10_000);
        ConflictClass accounts = ConflictClass.table("accounts");
        m.acquire(1, x(accounts));
        m.wrote(1, Set.of(accounts));
        m.release(1, x(accounts));
        m.acquire(2, x(accounts));
        m.wrote(2, Set.of(accounts));
        assertThatThrownBy(() -> m.acquire(1, x(accounts))) // after the grace period: 2 stays blocked
                .hasMessageContaining("(transaction 2)")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40P01"));
    }

    @Test
    void aNewcomerQueuesBehindAnEarlierWaiterInsteadOfStarvingIt() throws Exception {
        ClassLockManager m = new ClassLockManager(false, 10_000);
        m.acquire(1, x(row("r", 1)));
        CompletableFuture<Void> earlier = acquireAsync(m, 2, x(ConflictClass.table("r")));
        awaitWaiting(m, 1, earlier);
        // A row the first holder does not hold would be free, but the whole table waits for it first.
        CompletableFuture<Void> newcomer = acquireAsync(m, 3, x(row("r", 2)));
        awaitWaiting(m, 2, newcomer);
        m.releaseAll(1);
        earlier.get(5, TimeUnit.SECONDS);
        assertThat(newcomer).isNotDone();
        m.releaseAll(2);
        newcomer.get(5, TimeUnit.SECONDS);
        assertThat(m.held(3)).containsExactly(row("r", 2));
    }

    @Test
    void nothingClaimedWaitsForNothingAndHoldsNothing() throws Exception {
        ClassLockManager m = new ClassLockManager(false, 10_000);
        m.acquire(1, x(ConflictClass.EVERYTHING));
        m.acquire(2, List.of()); // a session setting
        assertThat(m.holdsNothing(2)).isTrue();
    }
}
