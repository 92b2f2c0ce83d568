package org.raidb.controller.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.raidb.controller.request.StatementResult;
import org.raidb.controller.result.MaterializedRows;
import org.raidb.controller.result.RowSource;
import org.raidb.controller.result.Rows;
import org.raidb.controller.result.UpdateCount;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.PayloadWriter;

/** The outcomes a controller remembers for clients that send a request again, and their bounds. */
class RecentOutcomesTest {
    private static final ColumnInfo ID = new ColumnInfo(
            "id",
            "id",
            "t",
            "public",
            java.sql.Types.INTEGER,
            "int4",
            "java.lang.Integer",
            10,
            0,
            11,
            0,
            false,
            true,
            false);

    @Test
    void anOutcomeIsFoundByItsClientSessionAndRequestIdOnly() {
        RecentOutcomes outcomes = new RecentOutcomes();
        outcomes.record("s1", 1, RequestOutcome.updateCounts(3));
        assertThat(outcomes.lookup("s1", 1))
                .hasValueSatisfying(o -> assertThat(o.counts()).containsExactly(3));
        assertThat(outcomes.lookup("s1", 2)).isEmpty();
        assertThat(outcomes.lookup("s2", 1)).isEmpty();
    }

    @Test
    void requestsWithoutIdsAreNotRemembered() {
        RecentOutcomes outcomes = new RecentOutcomes();
        outcomes.record(null, 1, RequestOutcome.ok());
        outcomes.record("s1", 0, RequestOutcome.ok());
        assertThat(outcomes.size()).isZero();
        assertThat(outcomes.lookup(null, 1)).isEmpty();
    }

    @Test
    void eachClientSessionKeepsItsLastOutcomesAndTheTotalIsCapped() {
        RecentOutcomes outcomes = new RecentOutcomes(2, 5, 1000);
        for (long id = 1; id <= 3; id++) {
            outcomes.record("busy", id, RequestOutcome.ok());
        }
        assertThat(outcomes.lookup("busy", 1)).as("beyond the session's 2").isEmpty();
        assertThat(outcomes.lookup("busy", 3)).isPresent();
        for (int s = 0; s < 5; s++) {
            outcomes.record("other" + s, 1, RequestOutcome.ok());
        }
        assertThat(outcomes.size()).isEqualTo(5);
        assertThat(outcomes.lookup("busy", 2)).as("oldest forgotten first").isEmpty();
        assertThat(outcomes.lookup("busy", 3)).isEmpty();
        assertThat(outcomes.lookup("other4", 1)).isPresent();
        outcomes.record("busy", 9, RequestOutcome.ok());
        assertThat(outcomes.lookup("busy", 9)).isPresent();
        assertThat(outcomes.size()).isEqualTo(5);
    }

    @Test
    void theRowsHeldInAllAreCapped() throws SQLException {
        RecentOutcomes outcomes = new RecentOutcomes(16, 100, 3);
        outcomes.record("s", 1, RequestOutcome.of(insertReturning(2)).orElseThrow());
        outcomes.record("s", 2, RequestOutcome.of(insertReturning(1)).orElseThrow());
        assertThat(outcomes.lookup("s", 1)).isPresent();
        outcomes.record("s", 3, RequestOutcome.of(insertReturning(1)).orElseThrow());
        assertThat(outcomes.lookup("s", 1)).as("4 rows held: the oldest goes").isEmpty();
        assertThat(outcomes.lookup("s", 2)).isPresent();
        assertThat(outcomes.lookup("s", 3)).isPresent();
    }

    private static StatementResult insertReturning(int rows) {
        List<Object[]> values = new java.util.ArrayList<>();
        for (int i = 0; i < rows; i++) {
            values.add(new Object[] {i});
        }
        return new StatementResult(List.of(new UpdateCount(rows)), new MaterializedRows(new ColumnInfo[] {ID}, values));
    }

    @Test
    void aFailureKeepsItsStateMessageAndBatchCountsButNotItsCause() {
        SQLException backend = new SQLException("duplicate key", "23505", 7, new RuntimeException("driver object"));
        RequestOutcome failed = RequestOutcome.failed(backend);
        assertThat(failed.succeeded()).isFalse();
        assertThat(failed.failure().getSQLState()).isEqualTo("23505");
        assertThat(failed.failure().getMessage()).isEqualTo("duplicate key");
        assertThat(failed.failure().getErrorCode()).isEqualTo(7);
        assertThat(failed.failure().getCause()).isNull();
        RequestOutcome batch =
                RequestOutcome.failed(new BatchUpdateException("row 2", "23505", 0, new long[] {1}, null));
        assertThat(((BatchUpdateException) batch.failure()).getLargeUpdateCounts())
                .containsExactly(1);
    }

    @Test
    void resultsHeldInMemoryAreKeptAndStreamedOnesAreNot() throws SQLException {
        ColumnInfo id = ID;
        MaterializedRows returning = new MaterializedRows(new ColumnInfo[] {id}, List.<Object[]>of(new Object[] {5}));
        StatementResult insert = new StatementResult(List.of(new UpdateCount(1)), returning);
        assertThat(RequestOutcome.of(insert)).hasValueSatisfying(o -> {
            assertThat(o.counts()).containsExactly(1);
            assertThat(o.generatedKeys().firstBatch().rows()).hasSize(1);
        });
        assertThat(returning.knownRowCount())
                .as("nothing read from the result still to be sent")
                .isEqualTo(1);
        RowSource cursor = new RowSource() {
            @Override
            public ColumnInfo[] columns() {
                return new ColumnInfo[] {id};
            }

            @Override
            public boolean writeBatch(PayloadWriter w, int maxRows, int maxBytes) {
                return true;
            }

            @Override
            public long knownRowCount() {
                return -1;
            }

            @Override
            public void close() {}
        };
        assertThat(RequestOutcome.of(new StatementResult(List.of(new Rows(cursor)), null)))
                .isEmpty();
    }
}
