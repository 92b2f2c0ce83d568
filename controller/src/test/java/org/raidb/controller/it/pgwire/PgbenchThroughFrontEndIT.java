package org.raidb.controller.it.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.test.PostgresClusterExtension;

/**
 * pgbench (libpq) through the PostgreSQL front end over three backends: {@code pgbench -i} (DDL, a COPY of
 * 100,000 accounts in a transaction with a TRUNCATE, VACUUM, primary keys), then eight clients running the
 * TPC-B-like script for 20 seconds. No transaction fails, and the backends end identical with the
 * invariant of the script (the branches', tellers' and history's sums of deltas agree).
 */
class PgbenchThroughFrontEndIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    @Test
    void pgbenchInitialisesAndRunsEightClientsWithoutAFailedTransaction() throws Exception {
        // pgbench ships with the PostgreSQL server package (postgresql-15), which .ci/run makes sure of.
        Path pgbench = PostgresClientPrograms.find("pgbench");
        assumeTrue(pgbench != null, "pgbench is not installed (Debian package postgresql-15, as .ci/run installs)");
        try (ControllerFixture raidb =
                ControllerFixture.start(pg.controllerConfig("shop").controllerAttribute("pgPort", 0), "shop")) {
            int port = raidb.controller().pgPort();
            String init = run(pgbench, port, "-i", "-s", "1");
            assertThat(init).contains("done in");
            ReplicaChecks.assertRowsOnEach(pg.cluster().servers(), "SELECT count(*) FROM pgbench_accounts", "100000|");

            String bench = run(pgbench, port, "-c", "8", "-j", "2", "-T", "20", "-n");
            System.out.println(bench);
            assertThat(bench)
                    .contains("number of clients: 8")
                    .contains("number of failed transactions: 0 (0.000%)")
                    .containsPattern("number of transactions actually processed: [1-9]");
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertIdentical(pg.cluster().servers());
        // Every transaction adds one delta to one account, teller and branch and writes one history row.
        ReplicaChecks.assertRowsOnEach(
                pg.cluster().servers(),
                "SELECT (SELECT sum(bbalance) FROM pgbench_branches) = (SELECT coalesce(sum(delta), 0) FROM"
                        + " pgbench_history) AND (SELECT sum(tbalance) FROM pgbench_tellers) = (SELECT"
                        + " sum(abalance) FROM pgbench_accounts)",
                "t|");
    }

    /** Runs pgbench against the front end; its output, once it exited with 0. */
    private static String run(Path pgbench, int port, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                pgbench.toString(), "-h", "127.0.0.1", "-p", String.valueOf(port), "-U", ControllerFixture.USER));
        command.addAll(List.of(args));
        command.add("shop");
        return PostgresClientPrograms.run(command, 120);
    }
}
