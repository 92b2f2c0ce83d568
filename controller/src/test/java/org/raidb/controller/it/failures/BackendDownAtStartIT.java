package org.raidb.controller.it.failures;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.backend.BackendState;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.test.PostgresClusterExtension;

/** Backends that are down: at start-up they start disabled; when the last one goes, clients get 08006. */
class BackendDownAtStartIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    @Test
    void aDeadBackendStartsDisabledAndTheOthersServe() throws Exception {
        pg.server(1).kill();
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            DatabaseBackend dead =
                    raidb.controller().virtualDatabase("shop").backends().get(1);
            assertThat(dead.name()).isEqualTo(pg.server(1).name());
            assertThat(dead.state()).isEqualTo(BackendState.DISABLED);
            assertThat(dead.disabledReason()).contains("unreachable at start-up");
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE t (id int PRIMARY KEY)");
                assertThat(st.executeUpdate("INSERT INTO t SELECT generate_series(1, 10)"))
                        .isEqualTo(10);
                for (int i = 0; i < 6; i++) {
                    try (ResultSet rs = st.executeQuery("SELECT count(*) FROM t")) {
                        rs.next();
                        assertThat(rs.getInt(1)).isEqualTo(10);
                    }
                }
            }
            assertThat(dead.requestsServed()).isZero();
        }
    }

    @Test
    void losingTheLastBackendRefusesWorkWith08006() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(
                        pg.controllerConfig("shop").backends(java.util.List.of(pg.server(0), pg.server(1))), "shop");
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS last_one (id int PRIMARY KEY)");
            pg.server(0).kill();
            pg.server(1).kill();
            for (String sql : new String[] {
                "INSERT INTO last_one VALUES (1)", "SELECT count(*) FROM last_one", "INSERT INTO last_one VALUES (2)"
            }) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> st.execute(sql))
                        .as(sql)
                        .isInstanceOf(java.sql.SQLException.class)
                        .satisfies(e -> assertThat(((java.sql.SQLException) e).getSQLState())
                                .isEqualTo("08006"));
            }
            assertThat(raidb.controller().virtualDatabase("shop").backends()).noneMatch(DatabaseBackend::isEnabled);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> st.executeQuery("SELECT 1"))
                    .hasMessageContaining("has no enabled backend");
        }
    }
}
