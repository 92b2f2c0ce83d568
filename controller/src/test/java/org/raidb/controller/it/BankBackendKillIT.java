package org.raidb.controller.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/** The bank again, with one backend's server killed with kill -9 halfway through. */
class BankBackendKillIT {
  @RegisterExtension
  static final PostgresClusterExtension pg = PostgresClusterExtension.servers(3).database("shop");

  @ParameterizedTest(name = "completion {0}")
  @ValueSource(strings = {"majority", "first", "all"})
  void aKilledBackendIsDisabledAndTheSurvivorsStayIdentical(String completion) throws Exception {
    pg.cluster().recreateDatabases();
    EmbeddedPostgresServer victim = pg.server(2);
    try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop")
        .replication("<raidb1 readPolicy=\"roundRobin\" completion=\"" + completion + "\"/>"), "shop")) {
      BankWorkload.createAccounts(raidb.url());
      BankWorkload bank = new BankWorkload();
      bank.run(raidb.url(), 16, 20_000, victim::kill);

      // No client sees the failure: connection-level errors never reach them, whatever the policy.
      assertThat(bank.errorSamples).as("errors clients saw with completion %s", completion).isEmpty();
      // Nor as a conflict to retry. Every transfer writes the one table accounts, whose lock the
      // optimistic scheduler holds from a transaction's first write to its end: transfers run one
      // after the other, so no deadlock (40P01/40001) and no lock-wait timeout (55P03, after 30 s) can
      // happen. A "retry" here could only be the kill leaking to a client under another SQLState.
      assertThat(bank.retried.get()).as("transfers failed as conflicts with completion %s: %s", completion,
          bank.retriedByState).isZero();
      assertThat(bank.committed.get()).isGreaterThan(100);
      DatabaseBackend dead = raidb.controller().virtualDatabase("shop").backends().get(2);
      assertThat(dead.name()).isEqualTo(victim.name());
      assertThat(dead.isEnabled()).isFalse();
      List<EmbeddedPostgresServer> survivors = List.of(pg.server(0), pg.server(1));
      for (EmbeddedPostgresServer s : survivors) {
        assertThat(BankWorkload.total(s)).as("total on %s", s.name()).isEqualTo(BankWorkload.ACCOUNTS * BankWorkload.INITIAL_BALANCE);
      }
      Map<String, Map<String, String>> sums = ControllerFixture.checksums(survivors);
      assertThat(sums.get("pg1")).isEqualTo(sums.get("pg2"));
      System.out.printf("bank with kill, completion %s: %d transfers committed, %d retried; %s disabled: %s%n", completion,
          bank.committed.get(), bank.retried.get(), dead.name(), dead.disabledReason());
    }
  }
}
