package org.raidb.controller.it.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.it.support.BankWorkload;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ForkedController;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.recovery.WriteLog;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * Trees of controllers (issue 18 item 5, the RAIDb paper's section 4.1): a parent controller whose two
 * backends are child controllers' virtual databases, each child over two embedded PostgreSQL servers.
 * RAIDb-1-0 (a mirror of two partitioned arrays) and RAIDb-0-1 (a partition of two mirrors) run the bank;
 * a killed child is disabled and replayed back; a cycle and a two-phase commit over children are refused.
 */
class ControllerTreeIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(4).database("shop");

    private static final long TOTAL = BankWorkload.ACCOUNTS * BankWorkload.INITIAL_BALANCE;
    private static final int LEDGER_ROWS = 40;

    @Test
    void aMirrorOfTwoPartitionedChildrenRunsTheBankWithIdenticalLeaves() throws Exception {
        pg.cluster().recreateDatabases();
        try (ControllerFixture c1 = child(0, 1, partitioned(0, 1));
                ControllerFixture c2 = child(2, 3, partitioned(2, 3));
                ControllerFixture parent = ControllerFixture.startFromXml(
                        ControllerTrees.parentXml(0, "shop", "<raidb1/>", c1.url(), c2.url()), "shop")) {
            BankWorkload bank = createTablesAndRunTheBank(parent, null);

            assertThat(bank.errorSamples).as("errors the clients saw").isEmpty();
            assertThat(bank.committed.get()).isGreaterThan(100);
            parent.assertEveryBackendEnabled();
            // Each child partitions: one leaf holds accounts, the other ledger.
            for (List<EmbeddedPostgresServer> leaves : List.of(leaves(0, 1), leaves(2, 3))) {
                assertThat(leaves.stream().map(PostgresClusterExtension::publicTables))
                        .as("tables on the leaves of one child")
                        .containsExactlyInAnyOrder(sorted("accounts"), sorted("ledger"));
                assertThat(BankWorkload.total(holder(leaves, "accounts"))).isEqualTo(TOTAL);
            }
            assertThat(tablesOf(leaves(0, 1))).isEqualTo(tablesOf(leaves(2, 3)));
            assertLedgerThroughParent(parent);
            // A partitioned child lists every leaf's tables, and tells a table's columns from the leaf holding it.
            for (ControllerFixture through : List.of(c1, parent)) {
                try (Connection c = through.connect()) {
                    assertThat(ReplicaChecks.rows(c.getMetaData().getTables(null, null, "%", new String[] {"TABLE"})))
                            .as("tables through %s", through.url())
                            .anyMatch(row -> row.contains("|accounts|"))
                            .anyMatch(row -> row.contains("|ledger|"));
                    assertThat(ReplicaChecks.rows(c.getMetaData().getColumns(null, null, "ledger", "%")))
                            .as("columns of ledger through %s", through.url())
                            .hasSize(2);
                }
            }
            // A client's cancel reaches the leaves through the child.
            try (Connection c = parent.connect();
                    Statement st = c.createStatement()) {
                java.util.concurrent.CompletableFuture<String> sleeping =
                        java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                            try (var rs = st.executeQuery("SELECT pg_sleep(60)")) {
                                return "finished";
                            } catch (SQLException e) {
                                return e.getSQLState();
                            }
                        });
                Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> sleepingOnLeaves() > 0);
                st.cancel();
                assertThat(sleeping.get(30, TimeUnit.SECONDS)).isEqualTo("57014");
                Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> sleepingOnLeaves() == 0);
            }
        }
    }

    @Test
    void aPartitionOfTwoMirroredChildrenRunsTheBankWithIdenticalLeaves() throws Exception {
        pg.cluster().recreateDatabases();
        try (ControllerFixture c1 = child(0, 1, "<raidb1/>");
                ControllerFixture c2 = child(2, 3, "<raidb1/>");
                ControllerFixture parent = ControllerFixture.startFromXml(
                        ControllerTrees.parentXml(0, "shop", "<raidb0/>", c1.url(), c2.url()), "shop")) {
            BankWorkload bank = createTablesAndRunTheBank(parent, null);

            assertThat(bank.errorSamples).as("errors the clients saw").isEmpty();
            assertThat(bank.committed.get()).isGreaterThan(100);
            // The parent places each table on one child; the child mirrors it on both its leaves.
            List<EmbeddedPostgresServer> accountsChild =
                    PostgresClusterExtension.publicTables(pg.server(0)).contains("accounts")
                            ? leaves(0, 1)
                            : leaves(2, 3);
            List<EmbeddedPostgresServer> ledgerChild = accountsChild.equals(leaves(0, 1)) ? leaves(2, 3) : leaves(0, 1);
            for (EmbeddedPostgresServer s : accountsChild) {
                assertThat(PostgresClusterExtension.publicTables(s)).containsExactly("accounts");
                assertThat(BankWorkload.total(s)).isEqualTo(TOTAL);
            }
            ledgerChild.forEach(
                    s -> assertThat(PostgresClusterExtension.publicTables(s)).containsExactly("ledger"));
            ReplicaChecks.assertIdentical(accountsChild);
            ReplicaChecks.assertIdentical(ledgerChild);
            assertLedgerThroughParent(parent);

            // A transaction writing on both children would need a two-phase commit, which a child cannot join.
            try (Connection c = parent.connect();
                    Statement st = c.createStatement()) {
                c.setAutoCommit(false);
                st.executeUpdate("UPDATE accounts SET balance = balance - 5 WHERE id = 1");
                st.executeUpdate("INSERT INTO ledger VALUES (1000, 5)");
                assertThatThrownBy(c::commit)
                        .isInstanceOf(SQLException.class)
                        .hasMessageContaining("two-phase commit")
                        .hasMessageContaining("(jdbc:raidb:)")
                        .hasMessageContaining("place tables written together on the same child")
                        .extracting(e -> ((SQLException) e).getSQLState())
                        .isEqualTo("0A000");
            }
            // Rolled back on both children: nothing of it anywhere.
            for (EmbeddedPostgresServer s : accountsChild) {
                assertThat(BankWorkload.total(s)).isEqualTo(TOTAL);
            }
            for (EmbeddedPostgresServer s : ledgerChild) {
                assertThat(ReplicaChecks.rowsOn(s, "SELECT count(*) FROM ledger"))
                        .containsExactly(LEDGER_ROWS + "|");
            }
            parent.assertEveryBackendEnabled();
        }
    }

    @Test
    void aKilledChildIsDisabledAndReplayedBackWhenItReturns() throws Exception {
        pg.cluster().recreateDatabases();
        ForkedController killed =
                ForkedController.start(ControllerTrees.childConfig(pg, 2, 3, partitioned(2, 3)), "shop", "256m");
        try (ControllerFixture c1 = child(0, 1, partitioned(0, 1));
                ControllerFixture parent = ControllerFixture.startFromXml(
                        ControllerTrees.parentXml(0, "shop", "<raidb1/>", c1.url(), killed.url()), "shop")) {
            WriteLog writes = parent.controller().virtualDatabase("shop").writeLog();
            BankWorkload bank = createTablesAndRunTheBank(parent, () -> {
                // Killed where no write of the parent is half done on it: a child killed between committing a
                // write on its leaves and answering has applied a write the parent counts as missed, which the
                // replay applies again (the in-doubt check then keeps it disabled: docs/admin.md, trees).
                assertThat(writes.holdWrites(60_000)).as("writes held").isTrue();
                try {
                    killed.kill();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                } finally {
                    writes.releaseWrites();
                }
            });
            assertThat(bank.errorSamples).as("errors the clients saw").isEmpty();
            assertThat(bank.committed.get()).isGreaterThan(100);
            VirtualDatabase vdb = parent.controller().virtualDatabase("shop");
            DatabaseBackend c2 = vdb.backends().get(1);
            assertThat(c2.isEnabled()).as("the killed child is disabled").isFalse();
            assertThat(c2.disabledReason()).doesNotContain("diverged");

            try (ForkedController back = killed.restartOnSamePort()) {
                String joinedAt = vdb.recovery().enable(c2).run(Progress.NONE);
                assertThat(joinedAt).isNotBlank();
                Awaitility.await().atMost(60, TimeUnit.SECONDS).until(c2::isEnabled);
                assertThat(tablesOf(leaves(2, 3))).isEqualTo(tablesOf(leaves(0, 1)));
                assertThat(BankWorkload.total(holder(leaves(2, 3), "accounts"))).isEqualTo(TOTAL);
                // Writes through the parent reach the child again.
                try (Connection c = parent.connect();
                        Statement st = c.createStatement()) {
                    st.executeUpdate("UPDATE accounts SET balance = balance + 1 WHERE id = 1");
                }
                assertThat(ReplicaChecks.rowsOn(
                                holder(leaves(2, 3), "accounts"), "SELECT balance FROM accounts WHERE id = 1"))
                        .isEqualTo(ReplicaChecks.rowsOn(
                                holder(leaves(0, 1), "accounts"), "SELECT balance FROM accounts WHERE id = 1"));
            }
        } finally {
            killed.close();
        }
    }

    @Test
    void aBackupOrRestoreThroughAChildIsRefusedAndLeavesItEnabled() throws Exception {
        pg.cluster().recreateDatabases();
        try (ControllerFixture c1 = child(0, 1, partitioned(0, 1));
                ControllerFixture c2 = child(2, 3, partitioned(2, 3));
                ControllerFixture parent = ControllerFixture.startFromXml(
                        ControllerTrees.parentXml(0, "shop", "<raidb1/>", c1.url(), c2.url()), "shop")) {
            createTables(parent);
            VirtualDatabase vdb = parent.controller().virtualDatabase("shop");
            DatabaseBackend second = vdb.backend("c2");
            for (var refused : List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
                    () -> vdb.dumps().backup(second, "through-child"),
                    () -> vdb.dumps().restore(second, "through-child"))) {
                assertThatThrownBy(refused)
                        .isInstanceOf(SQLException.class)
                        .hasMessageContaining("is another controller's virtual database")
                        .hasMessageContaining("Bring the child back with enable")
                        .extracting(e -> ((SQLException) e).getSQLState())
                        .isEqualTo("0A000");
            }
            assertThat(second.isEnabled()).as("c2 is left enabled").isTrue();
            assertLedgerThroughParent(parent);
        }
    }

    @Test
    void aCycleOfControllersIsRefusedNamingIt() throws Exception {
        pg.cluster().recreateDatabases();
        // B's port, learnt from a first start: A's backend names it before B runs again there.
        int portOfB;
        try (ControllerFixture first = child(0, 1, "<raidb1/>")) {
            portOfB = first.controller().port();
        }
        String urlOfB = "jdbc:raidb://127.0.0.1:" + portOfB + "/b";
        try (ControllerFixture a =
                        ControllerFixture.startFromXml(ControllerTrees.parentXml(0, "a", "<raidb1/>", urlOfB), "a");
                ControllerFixture b = ControllerFixture.startFromXml(
                        ControllerTrees.parentXml(portOfB, "b", "<raidb1/>", a.url()), "b")) {
            VirtualDatabase vdbOfA = a.controller().virtualDatabase("a");
            DatabaseBackend bAsBackend = vdbOfA.backends().get(0);
            assertThat(bAsBackend.isEnabled()).as("b was not up when a started").isFalse();
            // b -> a is live; enabling a -> b would close the cycle: b finds itself on a's chain and refuses.
            assertThatThrownBy(() -> vdbOfA.recovery().enable(bAsBackend).run(Progress.NONE))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("controllers form a cycle: b@")
                    .hasMessageMatching("(?s).*cycle: b@\\S+ -> a@\\S+ -> b@.*")
                    .hasMessageContaining("remove the backend that closes the cycle");
            assertThat(bAsBackend.isEnabled()).isFalse();
        }
    }

    private static ControllerFixture child(int leaf1, int leaf2, String replication) throws Exception {
        return ControllerTrees.child(pg, leaf1, leaf2, replication);
    }

    /** RAIDb-0 over two leaves: accounts created on the first, ledger on the second. */
    private static String partitioned(int leaf1, int leaf2) {
        return ControllerTrees.partitioned(pg, leaf1, "accounts", leaf2, "ledger");
    }

    private static List<EmbeddedPostgresServer> leaves(int leaf1, int leaf2) {
        return List.of(pg.server(leaf1), pg.server(leaf2));
    }

    /** accounts and ledger through the parent, then the bank (16 clients) with {@code midway} after 300 transfers. */
    private static BankWorkload createTablesAndRunTheBank(ControllerFixture parent, Runnable midway) throws Exception {
        createTables(parent);
        BankWorkload bank = new BankWorkload();
        bank.run(parent.url(), 16, 20_000, BankWorkload.ENOUGH_TRANSFERS, midway);
        return bank;
    }

    private static void createTables(ControllerFixture parent) throws SQLException {
        BankWorkload.createAccounts(parent.url());
        try (Connection c = parent.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE ledger (id int PRIMARY KEY, amount bigint NOT NULL)");
            for (int i = 1; i <= LEDGER_ROWS; i++) {
                st.executeUpdate("INSERT INTO ledger VALUES (" + i + ", " + (i * 10) + ")");
            }
        }
    }

    private static void assertLedgerThroughParent(ControllerFixture parent) throws SQLException {
        try (Connection c = parent.connect()) {
            assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM ledger")).isEqualTo(LEDGER_ROWS);
            assertThat(ReplicaChecks.count(c, "SELECT sum(balance) FROM accounts"))
                    .isEqualTo((int) TOTAL);
        }
    }

    /** Backend sessions of the four servers running a pg_sleep. */
    private static int sleepingOnLeaves() throws SQLException {
        int n = 0;
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            try (Connection c = s.connect()) {
                n += ReplicaChecks.count(
                        c,
                        "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'SELECT pg_sleep%'");
            }
        }
        return n;
    }

    /** The leaf holding {@code table}. */
    private static EmbeddedPostgresServer holder(List<EmbeddedPostgresServer> leaves, String table) {
        return leaves.stream()
                .filter(s -> PostgresClusterExtension.publicTables(s).contains(table))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no leaf of " + leaves + " holds " + table));
    }

    /** Per-table checksums of a child's leaves together: each table from the leaf that holds it. */
    private static Map<String, String> tablesOf(List<EmbeddedPostgresServer> leaves) throws SQLException {
        Map<String, String> out = new TreeMap<>();
        ControllerFixture.checksums(leaves).values().forEach(out::putAll);
        assertThat(out).as("tables of %s", leaves).containsKeys("accounts", "ledger");
        return out;
    }

    private static SortedSet<String> sorted(String table) {
        return new java.util.TreeSet<>(List.of(table));
    }
}
