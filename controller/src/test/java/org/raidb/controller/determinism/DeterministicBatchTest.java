package org.raidb.controller.determinism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A prepared statement's batch rows each get their own values for per-call functions, as parameters. */
class DeterministicBatchTest {

    @Test
    void perCallValuesBecomeParametersPlacedAmongTheClientsOnesRowByRow() throws SQLException {
        StatementClock clock = FixedStatementClock.utc();
        DeterministicBatch b = DeterministicRewriter.rewriteBatch(
                "INSERT INTO t (id, at, tok, r, name) VALUES (?, now(), gen_random_uuid(), random(), ?)",
                List.of(List.of(1, "a"), List.of(2, "b")),
                SqlDialect.POSTGRESQL,
                clock);
        assertThat(b.sql())
                .isEqualTo(
                        "INSERT INTO t (id, at, tok, r, name) VALUES (?, TIMESTAMPTZ '2026-11-22 03:40:00.123456+00',"
                                + " CAST(? AS UUID), CAST(? AS DOUBLE PRECISION), ?)");
        assertThat(b.rows())
                .containsExactly(
                        List.of(1, clock.uuid(0).toString(), Double.toString(clock.random(0)), "a"),
                        List.of(2, clock.uuid(1).toString(), Double.toString(clock.random(1)), "b"));
        assertThat(clock.uuid(0)).isNotEqualTo(clock.uuid(1));
    }

    @Test
    void withoutPerCallFunctionsEveryRowSharesTheRewrittenText() throws SQLException {
        List<List<Object>> rows = List.of(List.of(1), List.of(2));
        DeterministicBatch b = DeterministicRewriter.rewriteBatch(
                "INSERT INTO t VALUES (?, now())", rows, SqlDialect.POSTGRESQL, FixedStatementClock.utc());
        assertThat(b.sql()).isEqualTo("INSERT INTO t VALUES (?, TIMESTAMPTZ '2026-11-22 03:40:00.123456+00')");
        assertThat(b.rows()).isSameAs(rows);
    }

    @Test
    void mariaDbMarkersCastToItsOwnTypes() throws SQLException {
        StatementClock clock = FixedStatementClock.utc();
        DeterministicBatch b = DeterministicRewriter.rewriteBatch(
                "INSERT INTO t VALUES (?, UUID(), RAND(), SYSDATE(3))", List.of(List.of(1)), SqlDialect.MARIADB, clock);
        assertThat(b.sql()).isEqualTo("INSERT INTO t VALUES (?, ?, CAST(? AS DOUBLE), CAST(? AS DATETIME(3)))");
        assertThat(b.rows())
                .containsExactly(
                        List.of(1, clock.uuid(0).toString(), clock.random(0) + "e0", "2026-11-22 03:42:00.500"));
    }

    @Test
    void rowsThatDoNotMatchTheMarkersAreRefused() {
        assertThatThrownBy(() -> DeterministicRewriter.rewriteBatch(
                        "INSERT INTO t VALUES (?, gen_random_uuid())",
                        List.of(List.of(1, 2)),
                        SqlDialect.POSTGRESQL,
                        FixedStatementClock.utc()))
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
    }
}
