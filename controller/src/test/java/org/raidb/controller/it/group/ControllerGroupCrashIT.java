package org.raidb.controller.it.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.group.ActiveReplication;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ForkedController;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * A member of a controller group killed with SIGKILL while its client holds an open transaction: the
 * survivor excludes it, rolls its client's transaction back, and its own clients go on.
 */
class ControllerGroupCrashIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    @Test
    void aKilledMembersOpenTransactionIsRolledBackOnTheSurvivor() throws Exception {
        try (ControllerFixture a = ControllerFixture.start(
                ControllerGroupIT.member(pg, List.of(pg.server(0), pg.server(1)), null, "all"), "shop")) {
            ActiveReplication group = a.controller().group("shop");
            ForkedController b = ForkedController.start(
                    ControllerGroupIT.member(pg, List.of(pg.server(2)), group.groupPort(), "all"), "shop", "256m");
            try {
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> group.viewMembers().size() == 2);
                try (Connection ca = a.connect();
                        Statement sa = ca.createStatement()) {
                    sa.execute("CREATE TABLE accounts (id int PRIMARY KEY, balance int NOT NULL)");
                    sa.execute("INSERT INTO accounts VALUES (1, 100), (2, 100)");
                }
                Connection cb = b.connect();
                cb.setAutoCommit(false);
                try (Statement sb = cb.createStatement()) {
                    assertThat(sb.executeUpdate("UPDATE accounts SET balance = 0 WHERE id = 1"))
                            .isEqualTo(1);
                }
                // A client of the survivor writes the row the doomed transaction holds: it waits for it.
                Connection ca = a.connect();
                CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(() -> {
                    try (Statement sa = ca.createStatement()) {
                        assertThat(sa.executeUpdate("UPDATE accounts SET balance = balance + 1 WHERE id = 1"))
                                .isEqualTo(1);
                        return System.nanoTime();
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                await().atMost(Duration.ofSeconds(30)).until(() -> group.waitingWrites() == 1);
                long killed = System.nanoTime();
                b.kill();
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> group.viewMembers().size() == 1);
                long excluded = System.nanoTime();
                long goesOn = waiting.get(60, TimeUnit.SECONDS);
                ca.close();
                System.out.printf(
                        "member killed: excluded from the view after %d ms, the survivor's waiting write done after"
                                + " %d ms%n",
                        TimeUnit.NANOSECONDS.toMillis(excluded - killed),
                        TimeUnit.NANOSECONDS.toMillis(goesOn - killed));
                cb.close();
            } finally {
                b.close();
            }
            List<EmbeddedPostgresServer> survivors = List.of(pg.server(0), pg.server(1));
            ReplicaChecks.assertRowsOnEach(
                    survivors, "SELECT id, balance FROM accounts ORDER BY id", "1|101|", "2|100|");
            a.assertEveryBackendEnabled();
        }
    }
}
