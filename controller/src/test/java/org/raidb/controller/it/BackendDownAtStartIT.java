package org.raidb.controller.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.backend.BackendState;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.test.PostgresClusterExtension;

/** A backend that is down when the controller starts is disabled, and the others serve. */
class BackendDownAtStartIT {
  @RegisterExtension
  static final PostgresClusterExtension pg = PostgresClusterExtension.servers(3).database("shop");

  @Test
  void aDeadBackendStartsDisabledAndTheOthersServe() throws Exception {
    pg.server(1).kill();
    try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
      DatabaseBackend dead = raidb.controller().virtualDatabase("shop").backends().get(1);
      assertThat(dead.name()).isEqualTo(pg.server(1).name());
      assertThat(dead.state()).isEqualTo(BackendState.DISABLED);
      assertThat(dead.disabledReason()).contains("unreachable at start-up");
      try (Connection c = raidb.connect(); Statement st = c.createStatement()) {
        st.execute("CREATE TABLE t (id int PRIMARY KEY)");
        assertThat(st.executeUpdate("INSERT INTO t SELECT generate_series(1, 10)")).isEqualTo(10);
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
}
