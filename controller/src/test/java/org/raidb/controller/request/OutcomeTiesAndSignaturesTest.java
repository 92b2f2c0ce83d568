package org.raidb.controller.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.result.MaterializedRows;
import org.raidb.controller.result.Result;
import org.raidb.controller.result.Rows;
import org.raidb.controller.result.UpdateCount;
import org.raidb.driver.protocol.ColumnInfo;

/**
 * What {@link CompletionAndOutcomeTest} leaves aside: which side a tie goes to whatever the order the
 * answers arrived in, what makes two answers identical (every result of the statement, rows returned
 * by a write), and the reason logged for a long statement. Backends are never started.
 */
class OutcomeTiesAndSignaturesTest {
    private static final String STATEMENT = "DELETE FROM carts WHERE expires < now()";

    private final List<DatabaseBackend> backends = List.of(named("db1"), named("db2"), named("db3"));

    private static DatabaseBackend named(String name) {
        return new DatabaseBackend(
                "shop", new BackendConfig(name, "jdbc:h2:mem:never-opened-" + name, "sa", "", 1, 1, List.of()));
    }

    /** A successful answer of backend {@code i}: update counts ({@code Long}) and row counts ({@code Integer}). */
    private BackendOutcome answer(int i, Object... results) {
        List<Result> converted = new ArrayList<>();
        for (Object r : results) {
            converted.add(r instanceof Integer rows ? new Rows(rows(rows)) : new UpdateCount((Long) r));
        }
        return new BackendOutcome(backends.get(i), new StatementResult(converted, null), null);
    }

    private BackendOutcome error(int i, String sqlState) {
        return new BackendOutcome(
                backends.get(i), null, new SQLException(backends.get(i).name() + " refused", sqlState));
    }

    private static MaterializedRows rows(int n) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(new Object[] {(long) i});
        }
        return new MaterializedRows(
                new ColumnInfo[] {ColumnInfo.simple("id", Types.BIGINT, "int8", "java.lang.Long")}, rows);
    }

    /** The answers fed to a tracker of the backends' order, in the order given; what the resolver makes of them. */
    private OutcomeResolver.Resolution arriving(BackendOutcome... arrivals) {
        CompletionTracker tracker = new CompletionTracker(arrivals.length, backends.subList(0, arrivals.length));
        Arrays.stream(arrivals).forEach(tracker::add);
        return OutcomeResolver.resolve(tracker.all().join(), STATEMENT);
    }

    @Test
    void twoBackendsThatDisagreeKeepTheFirstInConfigurationOrderWhicheverAnsweredFirst() {
        for (boolean db2First : new boolean[] {false, true}) {
            BackendOutcome one = answer(0, 3L);
            BackendOutcome two = answer(1, 2L);
            OutcomeResolver.Resolution r = db2First ? arriving(two, one) : arriving(one, two);

            assertThat(r.winner().backend().name())
                    .as("db2 first: %s", db2First)
                    .isEqualTo("db1");
            assertThat(r.toDisable()).containsOnlyKeys(backends.get(1));
            assertThat(r.diverged()).containsExactly(backends.get(1));
        }
    }

    @Test
    void threeDifferentAnswersKeepTheFirstBackendAndDisableTheOthers() {
        OutcomeResolver.Resolution r = arriving(answer(2, 5L), answer(1, 4L), answer(0, 3L));

        assertThat(r.winner().backend()).isSameAs(backends.get(0));
        assertThat(r.winner().result().results()).containsExactly(new UpdateCount(3));
        assertThat(r.toDisable()).containsOnlyKeys(backends.get(1), backends.get(2));
    }

    @Test
    void rowsReturnedByAWriteAreComparedByTheirNumber() {
        OutcomeResolver.Resolution r = arriving(answer(0, 2), answer(1, 2), answer(2, 3));

        assertThat(r.clientError() == null).as("no client error").isTrue();
        assertThat(r.toDisable()).containsOnlyKeys(backends.get(2));
        assertThat(r.toDisable().get(backends.get(2))).contains("3 rows").contains("2 rows");
    }

    @Test
    void everyResultOfTheStatementCountsNotOnlyTheFirst() {
        OutcomeResolver.Resolution r = arriving(answer(0, 1L, 4L), answer(1, 1L, 5L), answer(2, 1L, 4L));

        assertThat(r.toDisable()).containsOnlyKeys(backends.get(1));
        assertThat(r.winner().result().results()).containsExactly(new UpdateCount(1), new UpdateCount(4));
    }

    @Test
    void theQuorumCountsOnlyIdenticalAnswersAcrossEveryResult() {
        CompletionTracker tracker = new CompletionTracker(2, backends);
        tracker.add(answer(0, 1L, 4L));
        tracker.add(answer(1, 1L, 5L));
        assertThat(tracker.quorum()).as("same first result, different second").isNotDone();
        BackendOutcome third = answer(2, 1L, 4L);
        tracker.add(third);
        assertThat(tracker.quorum().join()).isSameAs(third);
    }

    @Test
    void aQuorumOfNoneIsAQuorumOfOne() {
        CompletionTracker tracker = new CompletionTracker(0, backends);
        tracker.add(error(1, "23505"));
        assertThat(tracker.quorum()).as("a failure is no answer").isNotDone();
        BackendOutcome ok = answer(2, 1L);
        tracker.add(ok);
        assertThat(tracker.quorum().join()).isSameAs(ok);
    }

    @Test
    void differentErrorsOnEveryBackendAreTheFirstBackendsErrorAndDisableNobody() {
        OutcomeResolver.Resolution r = arriving(error(2, "42P01"), error(0, "23505"), error(1, "23503"));

        assertThat(r.clientError().getSQLState()).isEqualTo("23505");
        assertThat(r.clientError().getMessage()).isEqualTo("db1 refused");
        assertThat(r.toDisable()).as("no backend applied the write").isEmpty();
    }

    @Test
    void aVictimInATransactionStillDisablesABackendWhoseConnectionFailed() {
        List<BackendOutcome> outcomes = List.of(error(0, "08006"), error(1, "40P01"), answer(2, 1L));

        OutcomeResolver.Resolution r = OutcomeResolver.resolve(outcomes, STATEMENT, true);

        assertThat(r.clientError().getSQLState()).isEqualTo("40P01");
        assertThat(r.clientError().getMessage()).contains("db2");
        assertThat(r.toDisable()).containsOnlyKeys(backends.get(0));
    }

    @Test
    void theReasonNamesALongStatementOnOneLineAbbreviated() {
        String longStatement = "UPDATE items\n   SET note = '" + "x".repeat(300) + "'\n WHERE id = 1";
        List<BackendOutcome> outcomes = List.of(answer(0, 1L), answer(1, 0L), answer(2, 1L));

        String reason =
                OutcomeResolver.resolve(outcomes, longStatement).toDisable().get(backends.get(1));

        assertThat(reason)
                .startsWith("diverged on [UPDATE items SET note = 'xxx")
                .doesNotContain("\n")
                .contains("…]")
                .contains("it answered update count 0;")
                .contains("while db1 and the majority answered update count 1");
        assertThat(OutcomeResolver.abbreviate(longStatement)).hasSize(161);
    }
}
