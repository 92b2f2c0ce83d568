package org.raidb.controller.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.test.PostgresClusterExtension;

/** A backend that answers a write differently from the others is disabled, never left divergent. */
class DivergenceIT {
  @RegisterExtension
  static final PostgresClusterExtension pg = PostgresClusterExtension.servers(3).database("shop");

  @Test
  void aDifferentUpdateCountDisablesTheMinorityAndNamesTheStatement() throws Exception {
    pg.cluster().recreateDatabases();
    try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
        Connection c = raidb.connect(); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE items (id int PRIMARY KEY, qty int NOT NULL)");
      st.executeUpdate("INSERT INTO items SELECT g, 10 FROM generate_series(1, 20) g");
      // Behind the controller's back: pg2 loses a row.
      try (Connection direct = pg.server(1).connect(); Statement ds = direct.createStatement()) {
        ds.executeUpdate("DELETE FROM items WHERE id = 5");
      }
      assertThat(st.executeUpdate("UPDATE items SET qty = qty - 1 WHERE id = 5")).as("the majority's count").isEqualTo(1);

      VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
      DatabaseBackend pg2 = vdb.backends().get(1);
      assertThat(pg2.isEnabled()).isFalse();
      assertThat(pg2.disabledReason())
          .contains("diverged on [UPDATE items SET qty = qty - 1 WHERE id = 5]")
          .contains("update count 0")
          .contains("update count 1");
      assertThat(vdb.backends().get(0).isEnabled()).isTrue();
      assertThat(vdb.backends().get(2).isEnabled()).isTrue();
      // Reads now come only from the two that agree.
      for (int i = 0; i < 6; i++) {
        try (ResultSet rs = st.executeQuery("SELECT qty FROM items WHERE id = 5")) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getInt(1)).isEqualTo(9);
        }
      }
    }
  }

  @Test
  void aStatementFailingOnOneBackendOnlyDisablesThatBackend() throws Exception {
    pg.cluster().recreateDatabases();
    try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
        Connection c = raidb.connect(); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE logs (id int PRIMARY KEY, line text)");
      try (Connection direct = pg.server(2).connect(); Statement ds = direct.createStatement()) {
        ds.execute("ALTER TABLE logs ADD CONSTRAINT short_lines CHECK (length(line) < 5)");
      }
      assertThat(st.executeUpdate("INSERT INTO logs VALUES (1, 'a long line')")).isEqualTo(1);
      DatabaseBackend pg3 = raidb.controller().virtualDatabase("shop").backends().get(2);
      assertThat(pg3.isEnabled()).isFalse();
      assertThat(pg3.disabledReason()).contains("INSERT INTO logs").contains("23514");
    }
  }

  @Test
  void anErrorEveryBackendReturnsIsTheClientsAndDisablesNobody() throws Exception {
    pg.cluster().recreateDatabases();
    try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
        Connection c = raidb.connect(); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE uniq (id int PRIMARY KEY)");
      st.executeUpdate("INSERT INTO uniq VALUES (1)");
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> st.executeUpdate("INSERT INTO uniq VALUES (1)"))
          .satisfies(e -> assertThat(((java.sql.SQLException) e).getSQLState()).isEqualTo("23505"));
      assertThat(raidb.controller().virtualDatabase("shop").backends()).allSatisfy(b -> assertThat(b.isEnabled()).isTrue());
    }
  }
}
