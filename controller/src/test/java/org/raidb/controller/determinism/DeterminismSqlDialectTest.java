package org.raidb.controller.determinism;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeterminismSqlDialectTest {

    @Test
    void fromJdbcProductNames() {
        assertThat(SqlDialect.of("PostgreSQL")).isEqualTo(SqlDialect.POSTGRESQL);
        assertThat(SqlDialect.of("MariaDB")).isEqualTo(SqlDialect.MARIADB);
        assertThat(SqlDialect.of("MySQL")).isEqualTo(SqlDialect.MARIADB);
        assertThat(SqlDialect.of("H2")).isEqualTo(SqlDialect.GENERIC);
        assertThat(SqlDialect.of(null)).isEqualTo(SqlDialect.GENERIC);
    }
}
