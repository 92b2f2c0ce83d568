package org.raidb.controller.defaults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.raidb.controller.determinism.SqlDialect;
import org.raidb.controller.determinism.StatementClock;

/** A column added with a volatile default gets one literal for the rows already there, then its default back. */
class AddColumnDefaultsTest {
    private static final Instant START = Instant.parse("2026-11-22T03:40:00.123456Z");
    private static final StatementClock CLOCK = new StatementClock(
            START, START, Clock.fixed(START, ZoneOffset.UTC), new SplittableRandom(1), ZoneOffset.UTC);

    private static List<String> rewrite(String sql, SqlDialect dialect) throws SQLException {
        return new VolatileDefaults(new VolatileCatalog("shop", false)).addColumns(sql, dialect, CLOCK);
    }

    @Test
    void postgresqlAddsWithTheLiteralAndSetsTheDefaultBackInTheSameStatement() throws SQLException {
        assertThat(rewrite("ALTER TABLE t ADD COLUMN c timestamptz NOT NULL DEFAULT now();", SqlDialect.POSTGRESQL))
                .containsExactly(
                        "ALTER TABLE t ADD COLUMN c timestamptz NOT NULL DEFAULT TIMESTAMPTZ '2026-11-22 03:40:00.123456+00',"
                                + " ALTER COLUMN c SET DEFAULT now();");
        assertThat(rewrite(
                        "alter table only \"T\" add \"When\" date default current_date not null, add d int default 1",
                        SqlDialect.POSTGRESQL))
                .containsExactly("alter table only \"T\" add \"When\" date default DATE '2026-11-22' not null,"
                        + " add d int default 1, ALTER COLUMN \"When\" SET DEFAULT current_date");
    }

    @Test
    void mariaDbSetsTheDefaultBackInASecondStatement() throws SQLException {
        assertThat(rewrite(
                        "ALTER TABLE t ADD COLUMN c DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3)",
                        SqlDialect.MARIADB))
                .containsExactly(
                        "ALTER TABLE t ADD COLUMN c DATETIME(3) DEFAULT TIMESTAMP '2026-11-22 03:40:00.123' ON UPDATE CURRENT_TIMESTAMP(3)",
                        "ALTER TABLE t ALTER COLUMN c SET DEFAULT CURRENT_TIMESTAMP(3)");
    }

    @Test
    void otherDdlIsLeftAsWritten() throws SQLException {
        for (String sql : List.of(
                "ALTER TABLE t ADD COLUMN c int DEFAULT 0",
                "ALTER TABLE t ALTER COLUMN c SET DEFAULT now()",
                "ALTER TABLE t ADD CONSTRAINT c CHECK (at < now())",
                "CREATE TABLE t (at timestamptz DEFAULT now())",
                "ALTER TABLE t ADD COLUMN c text DEFAULT 'now()'")) {
            assertThat(rewrite(sql, SqlDialect.POSTGRESQL)).containsExactly(sql);
        }
    }

    @Test
    void aDefaultWithAValuePerRowIsRefusedWithWhatToDoInstead() {
        assertThatThrownBy(() ->
                        rewrite("ALTER TABLE t ADD COLUMN tok uuid DEFAULT gen_random_uuid()", SqlDialect.POSTGRESQL))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("UPDATE")
                .hasMessageContaining("SET DEFAULT gen_random_uuid()")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
    }
}
