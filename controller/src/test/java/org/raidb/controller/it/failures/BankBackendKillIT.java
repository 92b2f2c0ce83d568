package org.raidb.controller.it.failures;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.it.support.BankWorkload;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.recovery.DisableCause;
import org.raidb.test.PostgresClusterExtension;

/**
 * The bank again (20 s or {@link BankWorkload#ENOUGH_TRANSFERS}), with one backend's server killed
 * with kill -9 after 300 transfers, while the clients go on.
 */
class BankBackendKillIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    @ParameterizedTest(name = "completion {0}")
    @ValueSource(strings = {"majority", "first", "all"})
    void aKilledBackendIsDisabledAndTheSurvivorsStayIdentical(String completion) throws Exception {
        pg.cluster().recreateDatabases();
        EmbeddedPostgresServer victim = pg.server(2);
        try (ControllerFixture raidb = ControllerFixture.start(
                pg.controllerConfig("shop")
                        .replication("<raidb1 readPolicy=\"roundRobin\" completion=\"" + completion + "\"/>"),
                "shop")) {
            BankWorkload.createAccounts(raidb.url());
            BankWorkload bank = new BankWorkload();
            bank.run(raidb.url(), 16, 20_000, BankWorkload.ENOUGH_TRANSFERS, victim::kill);

            // No client sees the failure: connection-level errors never reach them, whatever the policy.
            assertThat(bank.errorSamples)
                    .as("errors clients saw with completion %s", completion)
                    .isEmpty();
            // Nor as a conflict to retry, other than the deadlocks transfers make among themselves: under the
            // default scheduler each transfer claims its two account rows to its end, and two transfers taking
            // each other's accounts in opposite order deadlock; the controller picks the victim (its 40P01)
            // before any backend waits. A backend's 40P01 (told apart by its message), a lock timeout (55P03,
            // after 30 s) or another SQLState could only be the kill leaking to a client.
            assertThat(bank.retriedByOrigin.keySet())
                    .as("transfers failed as conflicts with completion %s", completion)
                    .isSubsetOf(BankWorkload.CONTROLLER_DEADLOCK);
            assertThat(bank.committed.get()).isGreaterThan(100);
            DatabaseBackend dead =
                    raidb.controller().virtualDatabase("shop").backends().get(2);
            assertThat(dead.name()).isEqualTo(victim.name());
            assertThat(dead.isEnabled()).isFalse();
            // Issue 12 item 7: a killed server broke connections; that is a failure, never a divergence.
            assertThat(dead.disableCause().kind())
                    .as("why %s was disabled: %s", dead.name(), dead.disabledReason())
                    .isEqualTo(DisableCause.Kind.FAILURE);
            assertThat(dead.disabledReason()).doesNotContain("diverged");
            List<EmbeddedPostgresServer> survivors = List.of(pg.server(0), pg.server(1));
            for (EmbeddedPostgresServer s : survivors) {
                assertThat(BankWorkload.total(s))
                        .as("total on %s", s.name())
                        .isEqualTo(BankWorkload.ACCOUNTS * BankWorkload.INITIAL_BALANCE);
            }
            Map<String, Map<String, String>> sums = ControllerFixture.checksums(survivors);
            assertThat(sums.get("pg1")).isEqualTo(sums.get("pg2"));
            System.out.printf(
                    "bank with kill, completion %s: %d transfers committed, %d retried; %s disabled: %s%n",
                    completion, bank.committed.get(), bank.retried.get(), dead.name(), dead.disabledReason());
        }
    }
}
