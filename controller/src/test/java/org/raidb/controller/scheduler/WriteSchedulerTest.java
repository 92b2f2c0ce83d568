package org.raidb.controller.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.transaction.TransactionIds;

/** What each scheduler type makes of a write's claims, and how long it keeps them. */
class WriteSchedulerTest {
    private static final List<Claim> ROW_1 =
            List.of(Claim.exclusive(ConflictClass.key("r", "(id)", true, List.of("1"))));
    private static final List<Claim> ROW_2 =
            List.of(Claim.exclusive(ConflictClass.key("r", "(id)", true, List.of("2"))));

    private static CompletableFuture<List<Claim>> admitAsync(WriteScheduler s, long tx, List<Claim> claims) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return s.admit(tx, tx, true, ClaimSource.of(claims));
            } catch (SQLException e) {
                throw new RuntimeException(e);
            }
        });
    }

    @Test
    void optimisticKeepsRowsApartAndHoldsThemToTheTransactionsEnd() throws Exception {
        WriteScheduler s = new WriteScheduler(SchedulerType.OPTIMISTIC_TRANSACTION, 10_000);
        assertThat(s.admit(1, 1, true, ClaimSource.of(ROW_1)))
                .as("nothing to release at the statement's end")
                .isEmpty();
        s.admit(2, 2, true, ClaimSource.of(ROW_2)); // another row of r: no wait
        CompletableFuture<List<Claim>> same = admitAsync(s, 3, ROW_1);
        await().atMost(5, TimeUnit.SECONDS).until(() -> s.waitingWrites() == 1);
        s.transactionDone(1);
        same.get(5, TimeUnit.SECONDS);
    }

    @Test
    void queryMakesRowsTheirTableForOneStatement() throws Exception {
        WriteScheduler s = new WriteScheduler(SchedulerType.QUERY, 10_000);
        List<Claim> held = s.admit(1, 1, true, ClaimSource.of(ROW_1));
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
        s.admit(1, 1, true, ClaimSource.of(ROW_1));
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
        s.admit(3, 3, true, ClaimSource.of(List.of(Claim.exclusive(unique)))); // holds the value the new claims want
        s.admit(1, 1, true, ClaimSource.of(List.of(Claim.exclusive(ConflictClass.table("r"))))); // DDL of r, say
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
                return s.admit(2, 2, true, source);
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
            s.admit(1, 1, true, ClaimSource.of(List.of(Claim.exclusive(ConflictClass.EVERYTHING))));
            assertThat(s.admit(2, 2, false, ClaimSource.of(List.of())))
                    .as("a session setting under %s", type)
                    .isEmpty();
            assertThat(s.holdsNothing(2)).isTrue();
        }
    }

    /**
     * Two sessions deadlock round after round, in the order worst for a retry: the other session's new
     * transaction starts first (a smaller id) and the retry's write closes the cycle, which made the retry
     * the victim every time while the victim was the transaction closing a cycle. With the session keeping
     * a victim's stamp, every retry commits at its first attempt: each session loses at most once in a row.
     */
    @Test
    void aRetriedVictimCommitsAtItsNextAttemptRoundAfterRoundWithoutStarving() throws Exception {
        WriteScheduler s = new WriteScheduler(SchedulerType.OPTIMISTIC_TRANSACTION, 10_000);
        TransactionIds ids = new TransactionIds();
        SessionState p = new SessionState(1, "p", ids);
        SessionState q = new SessionState(2, "q", ids);
        // Round zero: both new, q the younger; q's write closes the cycle and q is the victim.
        long p0 = p.nextTransactionId();
        s.admit(p0, p.priorityStamp(p0), true, ClaimSource.of(ROW_1));
        long q0 = q.nextTransactionId();
        s.admit(q0, q.priorityStamp(q0), true, ClaimSource.of(ROW_2));
        CompletableFuture<List<Claim>> pWaits = admitAsync(s, p0, p.priorityStamp(p0), ROW_2);
        await().atMost(5, TimeUnit.SECONDS).until(() -> s.waitingWrites() == 1);
        SQLException first = catchThrowableOfType(
                () -> s.admit(q0, q.priorityStamp(q0), true, ClaimSource.of(ROW_1)), SQLException.class);
        assertThat(first.getMessage()).contains("deadlock detected");
        assertThat(first.getSQLState()).isEqualTo("40P01");
        s.transactionDone(q0);
        q.transactionEnded(first.getSQLState()); // the victim's state is what keeps its age for the retry
        pWaits.get(5, TimeUnit.SECONDS);
        s.transactionDone(p0);
        p.transactionEnded(null);
        SessionState fresh = p;
        SessionState retrying = q;
        int rounds = 20;
        int retriesCommitted = 0;
        for (int round = 1; round <= rounds; round++) {
            long f = fresh.nextTransactionId();
            s.admit(f, fresh.priorityStamp(f), true, ClaimSource.of(ROW_1));
            long r = retrying.nextTransactionId();
            long retryStamp = retrying.priorityStamp(r);
            assertThat(retryStamp)
                    .as("the retry is older than the new transaction")
                    .isLessThan(f);
            s.admit(r, retryStamp, true, ClaimSource.of(ROW_2));
            CompletableFuture<List<Claim>> freshWaits = admitAsync(s, f, fresh.priorityStamp(f), ROW_2);
            await().atMost(5, TimeUnit.SECONDS).until(() -> s.waitingWrites() == 1);
            CompletableFuture<List<Claim>> retryCloses = admitAsync(s, r, retryStamp, ROW_1);
            SQLException victim = failure(freshWaits);
            assertThat(victim.getSQLState()).as("round %d", round).isEqualTo("40P01");
            s.transactionDone(f); // rolled back on every backend
            fresh.transactionEnded(victim.getSQLState());
            retryCloses.get(5, TimeUnit.SECONDS);
            s.transactionDone(r); // committed
            retrying.transactionEnded(null);
            retriesCommitted++;
            SessionState next = fresh; // this round's victim retries in the next
            fresh = retrying;
            retrying = next;
        }
        assertThat(retriesCommitted).isEqualTo(rounds);
        assertThat(s.waitingWrites()).isZero();
    }

    @Test
    void aCommitOrAClientRollbackGivesTheStampUpAndAVictimKeepsIt() {
        SessionState session = new SessionState(1, "u", new TransactionIds());
        assertThat(session.priorityStamp(5)).isEqualTo(5);
        assertThat(session.priorityStamp(6))
                .as("the same transaction's later writes")
                .isEqualTo(5);
        session.transactionEnded("40P01"); // a deadlock victim, the controller's or a backend's
        assertThat(session.priorityStamp(9)).as("its retry").isEqualTo(5);
        session.transactionEnded("40001"); // a serialization victim (a backend's, or a lost snapshot)
        assertThat(session.priorityStamp(12)).as("its second retry").isEqualTo(5);
        session.transactionEnded(null); // committed at last
        assertThat(session.priorityStamp(14)).isEqualTo(14);
        session.transactionEnded("23505"); // failed, but no victim: the client's next transaction is new
        assertThat(session.priorityStamp(20)).isEqualTo(20);
    }

    private static CompletableFuture<List<Claim>> admitAsync(
            WriteScheduler s, long tx, long stamp, List<Claim> claims) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return s.admit(tx, stamp, true, ClaimSource.of(claims));
            } catch (SQLException e) {
                throw new RuntimeException(e);
            }
        });
    }

    private static SQLException failure(CompletableFuture<?> f) {
        Throwable t = catchThrowable(() -> f.get(5, TimeUnit.SECONDS));
        while (t != null && !(t instanceof SQLException)) {
            t = t.getCause();
        }
        assertThat(t).as("the write's failure").isInstanceOf(SQLException.class);
        return (SQLException) t;
    }
}
