package org.raidb.controller.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.raidb.balancer.CompletionPolicy;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.result.UpdateCount;

/**
 * The completion policies as the write path applies them, with hand-made backend answers (no
 * database: backends that are never started): when the client is answered ({@link
 * CompletionTracker}), what it is answered and who is disabled ({@link OutcomeResolver}).
 */
class CompletionAndOutcomeTest {
    private static final String STATEMENT = "UPDATE items SET qty = qty - 1 WHERE id = 5";

    private final DatabaseBackend pg1 = backend("pg1");
    private final DatabaseBackend pg2 = backend("pg2");
    private final DatabaseBackend pg3 = backend("pg3");

    private static DatabaseBackend backend(String name) {
        return new DatabaseBackend(
                "shop", new BackendConfig(name, "jdbc:postgresql://127.0.0.1:1/shop", "postgres", "", 1, 1, List.of()));
    }

    private static BackendOutcome ok(DatabaseBackend b, long updateCount) {
        return new BackendOutcome(b, new StatementResult(List.of(new UpdateCount(updateCount)), null), null);
    }

    private static BackendOutcome failed(DatabaseBackend b, String sqlState) {
        return new BackendOutcome(b, null, new SQLException(b.name() + " says no", sqlState));
    }

    private static CompletionTracker tracker(CompletionPolicy policy, int targets) {
        return new CompletionTracker(policy.required(targets), targets);
    }

    /**
     * How many answers had arrived when the client was answered, feeding them in this order; 0 when the
     * policy was never met and the client waits for the resolver's verdict instead.
     */
    private static int answeredAfter(CompletionPolicy policy, BackendOutcome... arrivals) {
        CompletionTracker t = tracker(policy, arrivals.length);
        for (int i = 0; i < arrivals.length; i++) {
            t.add(arrivals[i]);
            if (t.quorum().isDone()) {
                return t.quorum().join() == null ? 0 : i + 1;
            }
        }
        throw new AssertionError("the tracker never completed after every backend answered");
    }

    // ---- when the client is answered --------------------------------------------------------------

    @Test
    void firstAnswersWithTheFirstSuccessAndNotBefore() {
        assertThat(answeredAfter(CompletionPolicy.FIRST, ok(pg2, 1), ok(pg1, 1), ok(pg3, 1)))
                .isEqualTo(1);
        // A backend that failed is no answer: the client waits for the next one.
        assertThat(answeredAfter(CompletionPolicy.FIRST, failed(pg1, "08006"), ok(pg2, 1), ok(pg3, 1)))
                .isEqualTo(2);

        CompletionTracker t = tracker(CompletionPolicy.FIRST, 3);
        BackendOutcome fromPg3 = ok(pg3, 1);
        t.add(fromPg3);
        assertThat(t.quorum().join()).isSameAs(fromPg3);
        assertThat(t.all()).as("the other backends are still running").isNotDone();
        t.add(ok(pg1, 1));
        t.add(ok(pg2, 1));
        assertThat(t.all().join()).hasSize(3);
    }

    @Test
    void majorityNeedsTwoIdenticalAnswersOutOfThree() {
        assertThat(answeredAfter(CompletionPolicy.MAJORITY, ok(pg1, 1), ok(pg2, 1), ok(pg3, 1)))
                .isEqualTo(2);
        // Two successes that disagree are not a majority: the third decides.
        assertThat(answeredAfter(CompletionPolicy.MAJORITY, ok(pg1, 1), ok(pg2, 0), ok(pg3, 1)))
                .isEqualTo(3);
        assertThat(answeredAfter(CompletionPolicy.MAJORITY, failed(pg1, "08006"), ok(pg2, 1), ok(pg3, 1)))
                .isEqualTo(3);
        // No two agree: the client waits for the verdict on all three.
        assertThat(answeredAfter(CompletionPolicy.MAJORITY, ok(pg1, 1), failed(pg2, "23505"), failed(pg3, "08006")))
                .isZero();
        assertThat(CompletionPolicy.MAJORITY.required(2))
                .as("majority of two backends is both")
                .isEqualTo(2);
    }

    @Test
    void allWaitsForEveryBackend() {
        assertThat(answeredAfter(CompletionPolicy.ALL, ok(pg1, 1), ok(pg2, 1), ok(pg3, 1)))
                .isEqualTo(3);
        assertThat(answeredAfter(CompletionPolicy.ALL, ok(pg1, 1), ok(pg2, 1), failed(pg3, "23514")))
                .isZero();
        assertThat(answeredAfter(CompletionPolicy.ALL, ok(pg1, 1), ok(pg2, 0), ok(pg3, 1)))
                .isZero();
    }

    @Test
    void anErrorEveryBackendReturnsReachesTheClientUnderEveryPolicy() {
        for (CompletionPolicy policy : CompletionPolicy.values()) {
            List<BackendOutcome> all = List.of(failed(pg1, "23505"), failed(pg2, "23505"), failed(pg3, "23505"));
            assertThat(answeredAfter(policy, all.toArray(new BackendOutcome[0])))
                    .as("%s answers early", policy)
                    .isZero();
            OutcomeResolver.Resolution r = OutcomeResolver.resolve(all, STATEMENT);
            assertThat(r.clientError() != null).as("%s: a client error", policy).isTrue();
            assertThat(r.clientError().getSQLState()).isEqualTo("23505");
            assertThat(r.clientError().getMessage()).isEqualTo("pg1 says no");
            assertThat(r.toDisable()).as("nobody diverged under %s", policy).isEmpty();
        }
    }

    // ---- who is disabled --------------------------------------------------------------------------

    @Test
    void identicalAnswersDisableNobody() {
        OutcomeResolver.Resolution r = OutcomeResolver.resolve(List.of(ok(pg1, 1), ok(pg2, 1), ok(pg3, 1)), STATEMENT);
        assertThat(r.clientError() == null).as("no client error").isTrue();
        assertThat(r.winner().backend()).isSameAs(pg1);
        assertThat(r.toDisable()).isEmpty();
    }

    @Test
    void aDifferentUpdateCountDisablesTheMinorityNamingTheStatement() {
        OutcomeResolver.Resolution r = OutcomeResolver.resolve(List.of(ok(pg1, 1), ok(pg2, 0), ok(pg3, 1)), STATEMENT);
        assertThat(r.winner().result().results()).containsExactly(new UpdateCount(1));
        assertThat(r.toDisable()).containsOnlyKeys(pg2);
        assertThat(r.toDisable().get(pg2))
                .contains("diverged on [" + STATEMENT + "]")
                .contains("update count 0")
                .contains("update count 1");
    }

    @Test
    void aFailureOnOneBackendOnlyIsADivergenceOfThatBackend() {
        OutcomeResolver.Resolution r =
                OutcomeResolver.resolve(List.of(ok(pg1, 1), ok(pg2, 1), failed(pg3, "23514")), STATEMENT);
        assertThat(r.clientError() == null).as("no client error").isTrue();
        assertThat(r.winner().result().results()).containsExactly(new UpdateCount(1));
        assertThat(r.toDisable()).containsOnlyKeys(pg3);
        assertThat(r.toDisable().get(pg3)).contains("23514");
    }

    @Test
    void whenMostBackendsFailTheStatementTheClientGetsTheErrorAndTheLoneSuccessIsDisabled() {
        OutcomeResolver.Resolution r =
                OutcomeResolver.resolve(List.of(failed(pg1, "23505"), ok(pg2, 1), failed(pg3, "23505")), STATEMENT);
        assertThat(r.clientError().getSQLState()).isEqualTo("23505");
        assertThat(r.toDisable()).containsOnlyKeys(pg2);
    }

    @Test
    void aConnectionFailureDisablesThatBackendAsFailedNotDiverged() {
        OutcomeResolver.Resolution r =
                OutcomeResolver.resolve(List.of(ok(pg1, 1), failed(pg2, "08006"), ok(pg3, 1)), STATEMENT);
        assertThat(r.clientError() == null).as("no client error").isTrue();
        assertThat(r.toDisable()).containsOnlyKeys(pg2);
        assertThat(r.toDisable().get(pg2)).startsWith("connection failed");
    }

    /** During a kill, a queued write met HikariCP's closed connection (no SQLState): a failure, not a divergence. */
    @Test
    void aConnectionClosedUnderAWriteIsAFailureNotADivergence() {
        BackendOutcome closed = new BackendOutcome(pg2, null, new SQLException("Connection is closed"));
        OutcomeResolver.Resolution r = OutcomeResolver.resolve(List.of(ok(pg1, 1), closed, ok(pg3, 1)), STATEMENT);
        assertThat(r.clientError() == null).as("no client error").isTrue();
        assertThat(r.toDisable()).containsOnlyKeys(pg2);
        assertThat(r.diverged()).isEmpty();
        assertThat(r.toDisable().get(pg2))
                .startsWith("connection failed")
                .contains("SQLState 08003")
                .doesNotContain("diverged");
    }

    /** A backend judged hung answers once: its late answer, after its connection was aborted, is not counted again. */
    @Test
    void aBackendAnswersOnceEvenWhenItsAbortedWorkAnswersLate() {
        CompletionTracker t = new CompletionTracker(3, List.of(pg1, pg2, pg3));
        assertThat(t.add(ok(pg3, 1))).isEqualTo(1);
        assertThat(t.add(ok(pg1, 1))).isEqualTo(2);
        assertThat(t.add(failed(pg2, "08006"))).isEqualTo(3);
        assertThat(t.add(ok(pg2, 1))).as("the late answer").isEqualTo(-1);
        assertThat(t.all().join())
                .extracting(BackendOutcome::backend)
                .as("in the backends' order")
                .containsExactly(pg1, pg2, pg3);
        assertThat(t.all().join().get(1).succeeded()).isFalse();
    }

    @Test
    void withTwoBackendsATieBetweenSuccessAndFailureKeepsTheOneThatApplied() {
        OutcomeResolver.Resolution r = OutcomeResolver.resolve(List.of(failed(pg1, "23514"), ok(pg2, 1)), STATEMENT);
        assertThat(r.clientError() == null).as("no client error").isTrue();
        assertThat(r.winner().backend()).isSameAs(pg2);
        assertThat(r.toDisable()).containsOnlyKeys(pg1);
    }

    @Test
    void whenEveryBackendFailedTheClientGets08006AndAllAreDisabled() {
        OutcomeResolver.Resolution r = OutcomeResolver.resolve(
                List.of(failed(pg1, "08006"), failed(pg2, "08003"), failed(pg3, "57P01")), STATEMENT);
        assertThat(r.clientError().getSQLState()).isEqualTo("08006");
        assertThat(r.clientError().getMessage()).contains("no backend left");
        assertThat(r.toDisable()).containsOnlyKeys(pg1, pg2, pg3);
    }

    @Test
    void aDeadlockVictimOnOneBackendInATransactionIsNoDivergence() {
        List<BackendOutcome> outcomes = List.of(ok(pg1, 1), failed(pg2, "40P01"), ok(pg3, 1));
        OutcomeResolver.Resolution inTransaction = OutcomeResolver.resolve(outcomes, STATEMENT, true);
        assertThat(inTransaction.clientError().getSQLState()).isEqualTo("40P01");
        assertThat(inTransaction.toDisable())
                .as("the caller rolls the transaction back everywhere")
                .isEmpty();
        // In auto-commit the two others applied the statement: pg2 is the odd one out.
        assertThat(OutcomeResolver.resolve(outcomes, STATEMENT, false).toDisable())
                .containsOnlyKeys(pg2);
    }

    @Test
    void aSerializationVictimOnOneBackendIsToldToRunTheTransactionAgain() {
        List<BackendOutcome> outcomes = List.of(ok(pg1, 1), ok(pg2, 1), failed(pg3, "40001"));
        OutcomeResolver.Resolution r = OutcomeResolver.resolve(outcomes, STATEMENT, true);
        assertThat(r.clientError().getSQLState()).isEqualTo("40001");
        assertThat(r.clientError().getMessage())
                .contains("pg3", "rolled back on every backend", "run the transaction again");
        assertThat(r.toDisable()).isEmpty();
    }

    /**
     * With first, the client has its answer before anyone can compare: a backend that answered first
     * and turns out to be the minority is still disabled once the others have answered.
     */
    @Test
    void underFirstAMinorityThatAnsweredFirstIsDisabledAfterwards() {
        CompletionTracker t = tracker(CompletionPolicy.FIRST, 3);
        BackendOutcome wrong = ok(pg2, 0);
        t.add(wrong);
        assertThat(t.quorum().join()).isSameAs(wrong);
        t.add(ok(pg1, 1));
        t.add(ok(pg3, 1));
        OutcomeResolver.Resolution r = OutcomeResolver.resolve(t.all().join(), STATEMENT);
        assertThat(r.toDisable()).containsOnlyKeys(pg2);
        assertThat(r.winner().backend()).isSameAs(pg1);
    }
}
