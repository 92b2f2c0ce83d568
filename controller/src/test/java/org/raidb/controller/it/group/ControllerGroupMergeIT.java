package org.raidb.controller.it.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.group.ActiveReplication;
import org.raidb.controller.it.support.AddressOrder;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ForkedController;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;

/**
 * Issue 16: a member killed while the group went on, started again where it cannot find the others,
 * waits alone as a stale member; the others' MERGE3 finds it and JGroups merges the two parts, making
 * the member whose address sorts first among the parts' coordinators the merged view's coordinator. The
 * test gives the stale member an address that sorts first ({@link AddressOrder}), then one that sorts
 * last: either way the established members keep their backends enabled, the stale member catches up
 * from them, and every backend ends identical.
 */
class ControllerGroupMergeIT {
    /** Starts of the stale member before one is merged in rather than joined (discovery can find the others). */
    private static final int STARTS = 5;

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private int rows;

    @Test
    void aStaleMemberMergingBackCatchesUpAndTheEstablishedMembersKeepTheirBackendsWhoeverIsCoordinator()
            throws Exception {
        int[] ports = {ControllerGroupIT.freePort(), ControllerGroupIT.freePort(), ControllerGroupIT.freePort()};
        String all = "127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1] + ",127.0.0.1:" + ports[2];
        try (ControllerFixture a = ControllerFixture.start(member(0, ports[0], all, 2_000, null), "shop");
                ControllerFixture b = ControllerFixture.start(member(1, ports[1], all, 2_000, null), "shop")) {
            ActiveReplication group = a.controller().group("shop");
            ForkedController stale = ForkedController.start(member(2, ports[2], all, 2_000, null), "shop", "256m");
            try {
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> group.viewMembers().size() == 3);
                try (Connection c = a.connect();
                        Statement st = c.createStatement()) {
                    st.execute("CREATE TABLE t (id int PRIMARY KEY, v text)");
                    st.executeUpdate("INSERT INTO t SELECT g, 'before' FROM generate_series(1, 100) g");
                }
                rows = 100;
                for (boolean staleFirst : new boolean[] {true, false}) {
                    // From now on, started again, it looks only for itself: it cannot find the others and waits
                    // alone (whenAlone "auto": it served beside them), until their MERGE3 finds it.
                    member(2, ports[2], "127.0.0.1:" + ports[2], 500, AddressOrder.stack(staleFirst))
                            .dataDir(stale.dataDir())
                            .writeTo(stale.dataDir().resolveSibling("raidb.xml"));
                    String log = "";
                    List<String> established = List.of();
                    for (int start = 1; start <= STARTS && !log.contains("merged in view"); start++) {
                        stale.kill();
                        await().atMost(Duration.ofSeconds(30))
                                .until(() -> group.viewMembers().size() == 2);
                        established = group.viewMembers();
                        writeThrough(b, 50); // the group goes on without it
                        stale = stale.restart(); // returns once it serves clients: it has caught up
                        log = stale.log();
                    }
                    assertThat(log).as("the stale member's log: it merged in").contains("merged in view");
                    await().atMost(Duration.ofSeconds(30))
                            .until(() -> group.viewMembers().size() == 3);
                    String coordinator = group.viewMembers().get(0);
                    assertThat(!established.contains(coordinator))
                            .as("the stale member is the merged view's coordinator (view %s)", group.viewMembers())
                            .isEqualTo(staleFirst);

                    a.assertEveryBackendEnabled();
                    b.assertEveryBackendEnabled();
                    assertThat(log).contains("this member: CATCHES_UP").contains("caught up from");
                    try (Connection c = stale.connect();
                            Statement st = c.createStatement()) {
                        assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM t"))
                                .isEqualTo(rows);
                        assertThat(st.executeUpdate("UPDATE t SET v = 'through the stale member' WHERE id = " + rows))
                                .isEqualTo(1);
                    }
                    writeThrough(a, 10);
                    assertIdentical();
                    a.assertEveryBackendEnabled();
                    b.assertEveryBackendEnabled();
                }
            } finally {
                stale.close();
            }
        }
    }

    private void writeThrough(ControllerFixture controller, int more) throws SQLException {
        try (Connection c = controller.connect();
                Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO t SELECT g, 'written' FROM generate_series(" + (rows + 1) + ", "
                    + (rows + more) + ") g");
            rows += more;
        }
    }

    private static ControllerConfigXml member(
            int backend, int port, String members, int joinTimeoutMillis, java.nio.file.Path stack) {
        return pg.controllerConfig("shop")
                .backends(List.of(pg.server(backend)))
                .extraXml("<controllerGroup name=\"merge-group\" bindPort=\"" + port + "\" members=\"" + members
                        + "\" joinTimeout=\"" + joinTimeoutMillis + "\""
                        + (stack == null ? "" : " stack=\"" + stack + "\"")
                        + "/>");
    }

    private static void assertIdentical() throws SQLException {
        List<EmbeddedPostgresServer> backends = List.of(pg.server(0), pg.server(1), pg.server(2));
        Map<String, Map<String, String>> sums = ControllerFixture.checksums(backends);
        assertThat(sums.values().stream().distinct())
                .as("per-table checksums of the three backends: %s", sums)
                .hasSize(1);
    }
}
