package org.raidb.controller.it.transactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.raidb.controller.it.transactions.SchedulerSteps.async;
import static org.raidb.controller.it.transactions.SchedulerSteps.awaitWaiting;
import static org.raidb.controller.it.transactions.SchedulerSteps.execute;
import static org.raidb.controller.it.transactions.SchedulerSteps.scheduler;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * The write patterns of a shop's purchase (TPC-W's Buy Confirm): order lines inserted, each checking
 * its item's key, then the items' stock updated; the cart's lines deleted by the cart's id, the first
 * column of their primary key. PostgreSQL runs two purchases of the same items side by side (a key
 * check and an update of other columns do not wait for each other); the controller must too, or it
 * makes them wait in cycles and aborts one as a deadlock victim that no backend would have chosen.
 * Three backends, RAIDb-1, the product's defaults.
 */
class PurchaseConflictsIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static final Duration HANG_GUARD = Duration.ofMinutes(2);

    @BeforeEach
    void freshDatabases() {
        pg.cluster().recreateDatabases();
    }

    @Test
    void twoPurchasesOfTheSameItemsRunSideBySideAndBothCommit() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            execute(
                    raidb,
                    "CREATE TABLE item (id int PRIMARY KEY, stock int NOT NULL)",
                    "CREATE TABLE order_line (id int PRIMARY KEY, item_id int NOT NULL REFERENCES item)",
                    "INSERT INTO item VALUES (1, 100), (2, 100)");
            try (Connection a = raidb.connect();
                    Statement sa = a.createStatement();
                    Connection b = raidb.connect();
                    Statement sb = b.createStatement()) {
                a.setAutoCommit(false);
                b.setAutoCommit(false);
                // Each buys both items, its lines in its cart's order, then the stock in key order.
                sa.executeUpdate("INSERT INTO order_line VALUES (10, 2)");
                sb.executeUpdate("INSERT INTO order_line VALUES (20, 1)");
                assertTimeoutPreemptively(HANG_GUARD, () -> {
                    sa.executeUpdate("INSERT INTO order_line VALUES (11, 1)");
                    sb.executeUpdate("INSERT INTO order_line VALUES (21, 2)");
                    // A's stock update of item 1 meets no claim but B's check of item 1's key.
                    assertThat(sa.executeUpdate("UPDATE item SET stock = stock - 1 WHERE id = 1"))
                            .isEqualTo(1);
                });
                assertThat(scheduler(raidb).waitingWrites()).isZero();
                for (EmbeddedPostgresServer s : servers()) {
                    // Both transactions are open on every backend, each holding its lines' locks.
                    assertThat(ReplicaChecks.count(
                                    s.connect(),
                                    "SELECT count(DISTINCT l.pid) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation"
                                            + " WHERE c.relname = 'order_line' AND l.mode = 'RowExclusiveLock' AND l.granted"
                                            + " AND l.pid <> pg_backend_pid()"))
                            .as("open writers of order_line on %s", s.name())
                            .isEqualTo(2);
                }
                // B's update of item 1 waits for A's (one row's other columns): A commits, then B goes on.
                CompletableFuture<Integer> bStock =
                        async(() -> sb.executeUpdate("UPDATE item SET stock = stock - 1 WHERE id = 1"));
                awaitWaiting(raidb, 1);
                assertThat(sa.executeUpdate("UPDATE item SET stock = stock - 1 WHERE id = 2"))
                        .isEqualTo(1);
                a.commit();
                assertThat(bStock.get(2, TimeUnit.MINUTES)).isEqualTo(1);
                assertThat(sb.executeUpdate("UPDATE item SET stock = stock - 1 WHERE id = 2"))
                        .isEqualTo(1);
                b.commit();
            }
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertRowsOnEach(servers(), "SELECT id, stock FROM item ORDER BY id", "1|98|", "2|98|");
        ReplicaChecks.assertRowsOnEach(servers(), "SELECT count(*) FROM order_line", "4|");
        ReplicaChecks.assertIdentical(servers());
    }

    @Test
    void emptyingOneCartWaitsOnlyForWritesOfThatCartsLines() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            execute(
                    raidb,
                    "CREATE TABLE cart_line (cart_id int, item_id int, qty int, PRIMARY KEY (cart_id, item_id))",
                    "INSERT INTO cart_line VALUES (1, 1, 1), (1, 2, 1), (2, 1, 1)");
            try (Connection a = raidb.connect();
                    Statement sa = a.createStatement();
                    Connection b = raidb.connect();
                    Statement sb = b.createStatement()) {
                a.setAutoCommit(false);
                assertThat(sa.executeUpdate("DELETE FROM cart_line WHERE cart_id = 1"))
                        .isEqualTo(2);
                // Another cart's lines: no wait.
                assertTimeoutPreemptively(HANG_GUARD, () -> {
                    assertThat(sb.executeUpdate("UPDATE cart_line SET qty = 5 WHERE cart_id = 2 AND item_id = 1"))
                            .isEqualTo(1);
                    assertThat(sb.executeUpdate("INSERT INTO cart_line VALUES (2, 3, 1)"))
                            .isEqualTo(1);
                });
                assertThat(scheduler(raidb).waitingWrites()).isZero();
                // A line of the cart being emptied: it waits, then runs after the delete everywhere.
                CompletableFuture<Integer> sameCart =
                        async(() -> sb.executeUpdate("INSERT INTO cart_line VALUES (1, 2, 7)"));
                awaitWaiting(raidb, 1);
                a.commit();
                assertThat(sameCart.get(2, TimeUnit.MINUTES)).isEqualTo(1);
            }
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertRowsOnEach(
                servers(),
                "SELECT cart_id, item_id, qty FROM cart_line ORDER BY cart_id, item_id",
                "1|2|7|",
                "2|1|5|",
                "2|3|1|");
        ReplicaChecks.assertIdentical(servers());
    }

    private static List<EmbeddedPostgresServer> servers() {
        return pg.cluster().servers();
    }
}
