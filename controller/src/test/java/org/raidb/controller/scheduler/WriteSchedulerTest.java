package org.raidb.controller.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** What each scheduler type makes of a write's claims, and how long it keeps them. */
class WriteSchedulerTest {
    private static final List<Claim> ROW_1 =
            List.of(Claim.exclusive(ConflictClass.key("r", "(id)", true, List.of("1"))));
    private static final List<Claim> ROW_2 =
            List.of(Claim.exclusive(ConflictClass.key("r", "(id)", true, List.of("2"))));

    private static CompletableFuture<List<Claim>> admitAsync(WriteScheduler s, long tx, List<Claim> claims) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return s.admit(tx, true, ClaimSource.of(claims));
            } catch (SQLException e) {
                throw new RuntimeException(e);
            }
        });
    }

    @Test
    void optimisticKeepsRowsApartAndHoldsThemToTheTransactionsEnd() throws Exception {
        WriteScheduler s = new WriteScheduler(SchedulerType.OPTIMISTIC_TRANSACTION, 10_000);
        assertThat(s.admit(1, true, ClaimSource.of(ROW_1)))
                .as("nothing to release at the statement's end")
                .isEmpty();
        s.admit(2, true, ClaimSource.of(ROW_2)); // another row of r: no wait
        CompletableFuture<List<Claim>> same = admitAsync(s, 3, ROW_1);
        await().atMost(5, TimeUnit.SECONDS).until(() -> s.waitingWrites() == 1);
        s.transactionDone(1);
        same.get(5, TimeUnit.SECONDS);
    }

    @Test
    void queryMakesRowsTheirTableForOneStatement() throws Exception {
        WriteScheduler s = new WriteScheduler(SchedulerType.QUERY, 10_000);
        List<Claim> held = s.admit(1, true, ClaimSource.of(ROW_1));
        assertThat(held).containsExactly(Claim.exclusive(ConflictClass.table("r")));
        CompletableFuture<List<Claim>> other = admitAsync(s, 2, ROW_2);
        await().atMost(5, TimeUnit.SECONDS).until(() -> s.waitingWrites() == 1);
        s.statementDone(1, true, held); // the statement ended: its table goes, the transaction goes on
        other.get(5, TimeUnit.SECONDS);
        assertThat(s.holdsNothing(1)).isTrue();
    }

    @Test
    void pessimisticAdmitsOneWriteTransactionAtATime() throws Exception {
        WriteScheduler s = new WriteScheduler(SchedulerType.PESSIMISTIC_TRANSACTION, 10_000);
        s.admit(1, true, ClaimSource.of(ROW_1));
        CompletableFuture<List<Claim>> other =
                admitAsync(s, 2, List.of(Claim.exclusive(ConflictClass.table("elsewhere"))));
        await().atMost(5, TimeUnit.SECONDS).until(() -> s.waitingWrites() == 1);
        s.transactionDone(1);
        other.get(5, TimeUnit.SECONDS);
    }

    @Test
    void claimsThatChangedWhileTheWriteWaitedAreTakenAnew() throws Exception {
        WriteScheduler s = new WriteScheduler(SchedulerType.OPTIMISTIC_TRANSACTION, 10_000);
        ConflictClass unique = ConflictClass.key("users", "(email)", false, List.of("x"));
        s.admit(3, true, ClaimSource.of(List.of(Claim.exclusive(unique)))); // holds the value the new claims want
        s.admit(1, true, ClaimSource.of(List.of(Claim.exclusive(ConflictClass.table("r"))))); // DDL of r, say
        AtomicBoolean ddlDone = new AtomicBoolean();
        ClaimSource source = new ClaimSource() {
            @Override
            public List<Claim> claims() {
                return ddlDone.get() ? List.of(Claim.exclusive(unique)) : ROW_1;
            }

            @Override
            public boolean changed() {
                return ddlDone.get();
            }
        };
        CompletableFuture<List<Claim>> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return s.admit(2, true, source);
            } catch (SQLException e) {
                throw new RuntimeException(e);
            }
        });
        await().atMost(5, TimeUnit.SECONDS).until(() -> s.waitingWrites() == 1);
        ddlDone.set(true);
        s.transactionDone(1);
        // Its first claims are free now, but its new ones are held by 3: it gave the first back and waits on.
        await().atMost(5, TimeUnit.SECONDS).until(() -> s.waitingWrites() == 1 && s.holdsNothing(2));
        assertThat(waiting).isNotDone();
        s.transactionDone(3);
        waiting.get(5, TimeUnit.SECONDS);
        assertThat(s.holdsNothing(2)).isFalse();
    }

    @Test
    void aWriteClaimingNothingIsNeverHeldUp() throws Exception {
        for (SchedulerType type : SchedulerType.values()) {
            WriteScheduler s = new WriteScheduler(type, 10_000);
            s.admit(1, true, ClaimSource.of(List.of(Claim.exclusive(ConflictClass.EVERYTHING))));
            assertThat(s.admit(2, false, ClaimSource.of(List.of())))
                    .as("a session setting under %s", type)
                    .isEmpty();
            assertThat(s.holdsNothing(2)).isTrue();
        }
    }
}
