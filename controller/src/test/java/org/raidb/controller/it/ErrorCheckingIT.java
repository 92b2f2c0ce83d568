package org.raidb.controller.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.test.PostgresClusterExtension;

/**
 * RAIDb-1ec over three PostgreSQL servers: every read goes to the three backends and their answers
 * are voted on. One backend whose data was changed behind the controller's back is outvoted and
 * disabled while the client gets the majority's answer; with no majority the client gets XX001 and
 * nothing is disabled.
 */
class ErrorCheckingIT {
  @RegisterExtension
  static final PostgresClusterExtension pg = PostgresClusterExtension.servers(3).database("shop");

  @BeforeEach
  void freshDatabases() {
    pg.cluster().ensureAllRunning();
    pg.cluster().recreateDatabases();
  }

  private static ControllerFixture start() throws Exception {
    return start("<raidb1ec readPolicy=\"roundRobin\" completion=\"all\" nodes=\"3\"/>");
  }

  private static ControllerFixture start(String level) throws Exception {
    ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop").replication(level), "shop");
    try (Connection c = raidb.connect(); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE accounts (id int PRIMARY KEY, balance numeric(10,2) NOT NULL)");
      st.execute("INSERT INTO accounts VALUES (1, 100.00), (2, 50.00)");
    }
    return raidb;
  }

  private static void behindTheControllersBack(int server, String sql) throws SQLException {
    try (Connection c = pg.server(server).connect(); Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  @Test
  void aBackendWhoseDataChangedIsOutvotedAndTheClientGetsTheMajorityAnswer() throws Exception {
    try (ControllerFixture raidb = start()) {
      behindTheControllersBack(2, "UPDATE accounts SET balance = 999.99 WHERE id = 1");
      VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
      for (int round = 0; round < 3; round++) { // whichever backend the read policy starts with
        try (Connection c = raidb.connect(); Statement st = c.createStatement();
            ResultSet rs = st.executeQuery("SELECT balance FROM accounts WHERE id = 1")) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getBigDecimal(1)).isEqualByComparingTo("100.00");
        }
      }
      DatabaseBackend pg3 = vdb.backend("pg3");
      assertThat(pg3.isEnabled()).isFalse();
      assertThat(pg3.disabledReason()).contains("outvoted on an error-checked read")
          .contains("SELECT balance FROM accounts WHERE id = 1");
      assertThat(vdb.backend("pg1").isEnabled()).isTrue();
      assertThat(vdb.backend("pg2").isEnabled()).isTrue();
    }
  }

  /** RAIDb-2ec: accounts on all three backends (create rule all), so its reads are voted on by three. */
  @Test
  void raidb2ecOutvotesTheBackendWhoseCopyDiffers() throws Exception {
    try (ControllerFixture raidb = start("<raidb2ec readPolicy=\"leastPending\" completion=\"all\" nodes=\"3\">"
        + "<createTable policy=\"all\"/></raidb2ec>")) {
      behindTheControllersBack(0, "UPDATE accounts SET balance = 0.01 WHERE id = 2");
      try (Connection c = raidb.connect(); Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT id, balance FROM accounts ORDER BY id")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.next()).isTrue();
        assertThat(rs.getBigDecimal(2)).isEqualByComparingTo("50.00");
      }
      VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
      assertThat(vdb.backend("pg1").isEnabled()).as("pg1, whose copy differs").isFalse();
      assertThat(vdb.backend("pg1").disabledReason()).contains("outvoted on an error-checked read");
      assertThat(vdb.backend("pg2").isEnabled()).isTrue();
      assertThat(vdb.backend("pg3").isEnabled()).isTrue();
    }
  }

  @Test
  void withoutAMajorityTheClientGetsAnErrorAndNothingIsDisabled() throws Exception {
    try (ControllerFixture raidb = start()) {
      behindTheControllersBack(1, "UPDATE accounts SET balance = 1.00 WHERE id = 2");
      behindTheControllersBack(2, "UPDATE accounts SET balance = 2.00 WHERE id = 2");
      try (Connection c = raidb.connect(); Statement st = c.createStatement()) {
        assertThatThrownBy(() -> st.executeQuery("SELECT balance FROM accounts WHERE id = 2"))
            .isInstanceOfSatisfying(SQLException.class, e -> {
              assertThat(e.getSQLState()).isEqualTo("XX001");
              assertThat(e.getMessage()).contains("SELECT balance FROM accounts WHERE id = 2").contains("No backend was disabled");
            });
        try (ResultSet rs = st.executeQuery("SELECT balance FROM accounts WHERE id = 1")) {
          assertThat(rs.next()).as("the session still works where the backends agree").isTrue();
          assertThat(rs.getBigDecimal(1)).isEqualByComparingTo("100.00");
        }
      }
      assertThat(raidb.controller().virtualDatabase("shop").backends()).allMatch(DatabaseBackend::isEnabled);
    }
  }
}
