package org.raidb.controller.it.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.group.ActiveReplication;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ForkedController;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;

/**
 * Issue 16: a member killed while the group went on, started again where it cannot find the others,
 * waits alone as a stale member; the others' MERGE3 finds it and JGroups merges the two parts, making
 * the member with the lowest address the merged view's coordinator, which may be the stale one. The
 * established members keep their backends enabled whoever that is, and the stale member catches up
 * from them. The coordinator is JGroups' random pick, so the test kills and restarts the stale member
 * until it has been the merge's coordinator once (every round checks the outcome, whichever it was).
 */
class ControllerGroupMergeIT {
    /** Rounds before giving up on JGroups making the stale member coordinator (a coin toss each). */
    private static final int ROUNDS = 10;

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    @Test
    void aStaleMemberMergingAsCoordinatorCatchesUpAndTheEstablishedMembersKeepTheirBackends() throws Exception {
        int[] ports = {ControllerGroupIT.freePort(), ControllerGroupIT.freePort(), ControllerGroupIT.freePort()};
        String all = "127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1] + ",127.0.0.1:" + ports[2];
        try (ControllerFixture a = ControllerFixture.start(member(0, ports[0], all, 2_000), "shop");
                ControllerFixture b = ControllerFixture.start(member(1, ports[1], all, 2_000), "shop")) {
            ActiveReplication group = a.controller().group("shop");
            ForkedController stale = ForkedController.start(member(2, ports[2], all, 2_000), "shop", "256m");
            try {
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> group.viewMembers().size() == 3);
                try (Connection c = a.connect();
                        Statement st = c.createStatement()) {
                    st.execute("CREATE TABLE t (id int PRIMARY KEY, v text)");
                    st.executeUpdate("INSERT INTO t SELECT g, 'before' FROM generate_series(1, 100) g");
                }
                // From now on, started again, it looks only for itself: it cannot find the others and waits
                // alone (whenAlone "auto": it served beside them), until their MERGE3 finds it.
                member(2, ports[2], "127.0.0.1:" + ports[2], 500)
                        .dataDir(stale.dataDir())
                        .writeTo(stale.dataDir().resolveSibling("raidb.xml"));
                List<String> rounds = new ArrayList<>();
                boolean staleWasCoordinator = false;
                int rows = 100;
                for (int round = 1; round <= ROUNDS && !staleWasCoordinator; round++) {
                    stale.kill();
                    await().atMost(Duration.ofSeconds(30))
                            .until(() -> group.viewMembers().size() == 2);
                    List<String> established = group.viewMembers();
                    try (Connection c = b.connect();
                            Statement st = c.createStatement()) {
                        st.executeUpdate("INSERT INTO t SELECT g, 'while it was down' FROM generate_series("
                                + (rows + 1) + ", " + (rows + 50) + ") g");
                        rows += 50;
                    }
                    stale = stale.restart(); // returns once it serves clients: it has caught up
                    await().atMost(Duration.ofSeconds(30))
                            .until(() -> group.viewMembers().size() == 3);
                    String coordinator = group.viewMembers().get(0);
                    staleWasCoordinator = !established.contains(coordinator);
                    String log = stale.log();
                    boolean merged = log.contains("merged in view");
                    rounds.add("round " + round + ": " + (merged ? "merged" : "joined") + ", coordinator "
                            + (staleWasCoordinator ? "the stale member" : "an established member"));

                    a.assertEveryBackendEnabled();
                    b.assertEveryBackendEnabled();
                    assertThat(log).contains("caught up from");
                    if (merged) {
                        assertThat(log).contains("this member: CATCHES_UP");
                    }
                    try (Connection c = stale.connect();
                            Statement st = c.createStatement()) {
                        assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM t"))
                                .isEqualTo(rows);
                        assertThat(st.executeUpdate("UPDATE t SET v = 'through the stale member' WHERE id = " + rows))
                                .isEqualTo(1);
                    }
                    assertIdentical();
                    staleWasCoordinator &= merged;
                }
                System.out.println("stale member merging back: " + rounds);
                assertThat(staleWasCoordinator)
                        .as("the stale member merged back as coordinator in one of %s", rounds)
                        .isTrue();
            } finally {
                stale.close();
            }
        }
    }

    private static ControllerConfigXml member(int backend, int port, String members, int joinTimeoutMillis) {
        return pg.controllerConfig("shop")
                .backends(List.of(pg.server(backend)))
                .extraXml("<controllerGroup name=\"merge-group\" bindPort=\"" + port + "\" members=\"" + members
                        + "\" joinTimeout=\"" + joinTimeoutMillis + "\"/>");
    }

    private static void assertIdentical() throws SQLException {
        List<EmbeddedPostgresServer> backends = List.of(pg.server(0), pg.server(1), pg.server(2));
        Map<String, Map<String, String>> sums = ControllerFixture.checksums(backends);
        assertThat(sums.values().stream().distinct())
                .as("per-table checksums of the three backends: %s", sums)
                .hasSize(1);
    }
}
