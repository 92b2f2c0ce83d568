package org.raidb.tpcw.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.verify.ReplicaVerifier;
import org.raidb.controller.verify.TableVerdict;
import org.raidb.controller.verify.VerifyReport;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;
import org.raidb.tpcw.schema.Scale;
import org.raidb.tpcw.support.TpcwTestDatabases;

/**
 * {@code verify} on the benchmarks' TPC-W database (1,000 items, 10 EBs: 216,770 rows per backend) over three
 * PostgreSQL backends: how long a verify takes (printed for docs/benchmarks.md, never asserted), and that it finds
 * a changed row of {@code item} on one backend and repairs it.
 */
class VerifyTpcwIT {
    private static final Scale BENCH = new Scale(1_000, 10);
    private static final int RUNS = 5;

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("tpcw");

    @Test
    void verifyOfTheBenchDatabaseIsTimedAndFindsAChangedItem() throws Exception {
        long t0 = System.nanoTime();
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            TpcwTestDatabases.populate(s, BENCH, TpcwTestDatabases.SEED);
        }
        System.out.printf(Locale.ROOT, "populated 3 backends in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("tpcw"), "tpcw")) {
            ReplicaVerifier verifier =
                    raidb.controller().virtualDatabase("tpcw").verifier();
            List<Long> millis = new ArrayList<>();
            VerifyReport last = null;
            for (int i = 0; i < RUNS; i++) {
                last = verifier.verify(false).run(Progress.NONE);
                assertThat(last.identical()).as(last.summary()).isTrue();
                millis.add(last.millis());
            }
            long rows = last.tables().stream()
                    .mapToLong(t -> Long.parseLong(t.checksums()
                            .get("pg1")
                            .substring(0, t.checksums().get("pg1").indexOf(':'))))
                    .sum();
            Collections.sort(millis);
            System.out.printf(
                    Locale.ROOT,
                    "verify of %d tables, %,d rows per backend, 3 backends: %d runs, %d ms fastest, %d ms median,"
                            + " %d ms slowest; writes held %d ms in the last%n",
                    last.tables().size(),
                    rows,
                    RUNS,
                    millis.get(0),
                    millis.get(RUNS / 2),
                    millis.get(RUNS - 1),
                    last.writesHeldMillis());

            try (Connection c = pg.server(2).connect();
                    Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE item SET i_cost = i_cost + 1 WHERE i_id = 500");
            }
            VerifyReport found = verifier.verify(false).run(Progress.NONE);
            TableVerdict item = found.tables().stream()
                    .filter(t -> t.table().equals("item"))
                    .findFirst()
                    .orElseThrow();
            assertThat(item.differing()).containsExactly("pg3");
            assertThat(found.tablesDiffering()).isEqualTo(1);
            VerifyReport repaired = verifier.verify(true).run(Progress.NONE);
            System.out.printf(
                    Locale.ROOT,
                    "verify that found item differing on pg3: %d ms; verify --repair copying item: %d ms%n",
                    found.millis(),
                    repaired.millis());
            assertThat(verifier.verify(false).run(Progress.NONE).identical()).isTrue();
        }
    }
}
