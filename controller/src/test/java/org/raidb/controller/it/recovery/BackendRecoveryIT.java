package org.raidb.controller.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * A backend killed while 16 clients write is disabled at an exact checkpoint, and after its server
 * restarts it is enabled by replaying the recovery log while the clients keep writing.
 */
class BackendRecoveryIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    @BeforeEach
    void freshDatabases() {
        pg.cluster().ensureAllRunning();
        pg.cluster().recreateDatabases();
    }

    @Test
    void aKilledBackendIsEnabledAgainByReplayWhileClientsKeepWriting() throws Exception {
        EmbeddedPostgresServer victim = pg.server(2);
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            AcknowledgedWrites.createSchema(raidb.url());
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            DatabaseBackend pg3 = vdb.backend(victim.name());
            AcknowledgedWrites writes = AcknowledgedWrites.start(raidb.url(), 16, AcknowledgedWrites.PACE);
            try (writes) {
                writes.awaitMore(300);
                victim.kill();
                await().atMost(Duration.ofSeconds(60)).until(() -> !pg3.isEnabled() && pg3.lastCheckpoint() != null);
                writes.awaitMore(500); // what pg3 misses
                victim.start();

                String joinedAt = vdb.recovery().enable(pg3).run(Progress.NONE);

                assertThat(joinedAt).contains(victim.name() + "-enabled");
                assertThat(pg3.isEnabled()).isTrue();
                writes.awaitMore(300); // writes after the join reach it directly
                writes.stop();
                assertThat(writes.errors).as("errors clients saw").isEmpty();
            }
            assertIdenticalAndComplete(writes, pg.cluster().servers());
        }
    }

    static void assertIdenticalAndComplete(AcknowledgedWrites writes, List<EmbeddedPostgresServer> all)
            throws Exception {
        Map<String, Map<String, String>> sums = ControllerFixture.checksums(all);
        assertThat(sums.values())
                .as("per-table checksums of %s", sums.keySet())
                .allMatch(s -> s.equals(sums.get("pg1")));
        for (EmbeddedPostgresServer s : all) {
            try (Connection c = s.connect()) {
                assertThat(AcknowledgedWrites.present(c, writes.acknowledged))
                        .as("acknowledged writes on %s", s.name())
                        .isEqualTo(writes.acknowledged.size());
                assertThat(AcknowledgedWrites.present(c, writes.rolledBack))
                        .as("rolled-back writes on %s", s.name())
                        .isZero();
            }
        }
    }
}
