package org.raidb.controller.it.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;

/**
 * The shipped multicast stack (udp.xml: members find each other without a member list) with
 * completion "local": a client is answered once its own controller's backends applied a write, and
 * the other member catches up in the same order.
 */
class ControllerGroupUdpIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    private static ControllerConfigXml member(EmbeddedPostgresServer backend) {
        return pg.controllerConfig("shop")
                .backends(List.of(backend))
                .extraXml(
                        "<controllerGroup name=\"udp-group\" stack=\"udp.xml\" bindPort=\"0\" completion=\"local\"/>");
    }

    @Test
    void membersFindEachOtherByMulticastAndApplyTheSameWrites() throws Exception {
        try (ControllerFixture a = ControllerFixture.start(member(pg.server(0)), "shop");
                ControllerFixture b = ControllerFixture.start(member(pg.server(1)), "shop")) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> a.controller().group("shop").viewMembers().size() == 2);
            try (Connection ca = a.connect();
                    Connection cb = b.connect();
                    Statement sa = ca.createStatement();
                    Statement sb = cb.createStatement()) {
                sa.execute("CREATE TABLE notes (id int PRIMARY KEY, body text)");
                for (int i = 1; i <= 100; i++) {
                    Statement via = i % 2 == 0 ? sa : sb;
                    assertThat(via.executeUpdate("INSERT INTO notes VALUES (" + i + ", 'n" + i + "')"))
                            .isEqualTo(1);
                }
                assertThat(sb.executeUpdate("UPDATE notes SET body = body || '!' WHERE id <= 50"))
                        .isEqualTo(50);
            }
            // With completion local the other member may still be applying: wait for it, then compare.
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> ReplicaChecks.assertRowsOnEach(
                            List.of(pg.server(0), pg.server(1)),
                            "SELECT count(*), count(*) FILTER (WHERE body LIKE '%!') FROM notes",
                            "100|50|"));
            assertThat(a.controller().group("shop").status().completion()).isEqualTo("local");
        }
    }
}
