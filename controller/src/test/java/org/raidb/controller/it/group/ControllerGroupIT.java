package org.raidb.controller.it.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.group.ActiveReplication;
import org.raidb.controller.group.GroupStatus;
import org.raidb.controller.it.support.BankWorkload;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;

/**
 * Two controllers serving one virtual database as a group, each with two PostgreSQL backends of its
 * own: writes through either reach all four backends in one order.
 */
class ControllerGroupIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(5).database("shop");

    private ControllerFixture a;
    private ControllerFixture b;

    @BeforeEach
    void startGroup() throws Exception {
        pg.cluster().recreateDatabases();
        a = ControllerFixture.start(member(List.of(pg.server(0), pg.server(1)), null, "all"), "shop");
        b = ControllerFixture.start(
                member(
                        List.of(pg.server(2), pg.server(3)),
                        a.controller().group("shop").groupPort(),
                        "all"),
                "shop");
    }

    @AfterEach
    void stopGroup() {
        if (b != null) {
            b.close();
        }
        if (a != null) {
            a.close();
        }
    }

    /** A member of group "shop-group" whose transport picks a port; it contacts {@code firstMember} at start. */
    static ControllerConfigXml member(List<EmbeddedPostgresServer> backends, Integer firstMember, String completion) {
        return member(pg, backends, firstMember, completion);
    }

    static ControllerConfigXml member(
            PostgresClusterExtension pg,
            List<EmbeddedPostgresServer> backends,
            Integer firstMember,
            String completion) {
        return pg.controllerConfig("shop")
                .backends(backends)
                .extraXml("<controllerGroup name=\"shop-group\" bindPort=\"0\" completion=\"" + completion + "\""
                        + (firstMember == null ? "" : " members=\"127.0.0.1:" + firstMember + "\"") + "/>");
    }

    private List<EmbeddedPostgresServer> all() {
        return List.of(pg.server(0), pg.server(1), pg.server(2), pg.server(3));
    }

    @Test
    void ddlAndWritesThroughOneAreSeenThroughTheOther() throws Exception {
        try (Connection ca = a.connect();
                Connection cb = b.connect();
                Statement sa = ca.createStatement();
                Statement sb = cb.createStatement()) {
            sa.execute("CREATE TABLE items (id int PRIMARY KEY, name text, at timestamp DEFAULT now())");
            assertThat(sb.executeUpdate("INSERT INTO items (id, name) VALUES (1, 'one'), (2, 'two')"))
                    .isEqualTo(2);
            assertThat(ReplicaChecks.count(ca, "SELECT count(*) FROM items")).isEqualTo(2);
            // A unique violation is every backend's answer: the client's error, and the session goes on.
            assertThatThrownBy(() -> sa.executeUpdate("INSERT INTO items (id, name) VALUES (1, 'again')"))
                    .isInstanceOfSatisfying(
                            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("23505"));
            cb.setAutoCommit(false);
            sb.executeUpdate("UPDATE items SET name = 'uno' WHERE id = 1");
            sb.execute("SAVEPOINT s1");
            sb.executeUpdate("DELETE FROM items WHERE id = 2");
            sb.execute("ROLLBACK TO SAVEPOINT s1");
            cb.commit();
            cb.setAutoCommit(true);
        }
        assertIdentical();
        ReplicaChecks.assertRowsOnEach(all(), "SELECT id, name FROM items ORDER BY id", "1|uno|", "2|two|");
        a.assertEveryBackendEnabled();
        b.assertEveryBackendEnabled();
    }

    @Test
    void concurrentWritesFromBothSidesLeaveIdenticalBackends() throws Exception {
        try (Connection c = a.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE counters (id int PRIMARY KEY, n bigint NOT NULL)");
            st.execute("INSERT INTO counters SELECT g, 0 FROM generate_series(1, 20) g");
            st.execute("CREATE TABLE events (id serial PRIMARY KEY, counter int, origin text)");
        }
        int threads = 8;
        int writesPerThread = 1250; // 10,000 in all, on 20 rows: most conflict with another thread's
        AtomicLong updates = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            ControllerFixture via = t % 2 == 0 ? a : b;
            long seed = t;
            done.add(pool.submit(() -> {
                Random random = new Random(seed);
                try (Connection c = via.connect();
                        PreparedStatement up = c.prepareStatement("UPDATE counters SET n = n + 1 WHERE id = ?");
                        PreparedStatement ins =
                                c.prepareStatement("INSERT INTO events (counter, origin) VALUES (?, ?)")) {
                    for (int i = 0; i < writesPerThread; i++) {
                        int id = 1 + random.nextInt(20);
                        if (i % 5 == 4) {
                            ins.setInt(1, id);
                            ins.setString(2, via == a ? "a" : "b");
                            assertThat(ins.executeUpdate()).isEqualTo(1);
                        } else {
                            up.setInt(1, id);
                            assertThat(up.executeUpdate()).isEqualTo(1);
                            updates.incrementAndGet();
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(240, TimeUnit.SECONDS);
        }
        pool.shutdown();
        ReplicaChecks.assertRowsOnEach(all(), "SELECT sum(n) FROM counters", updates.get() + "|");
        ReplicaChecks.assertRowsOnEach(all(), "SELECT count(*) FROM events", threads * writesPerThread / 5 + "|");
        assertIdentical();
        a.assertEveryBackendEnabled();
        b.assertEveryBackendEnabled();
    }

    @Test
    void bankTransfersThroughBothControllersKeepTheSumAndIdenticalBackends() throws Exception {
        BankWorkload.createAccounts(a.url());
        BankWorkload viaA = new BankWorkload();
        BankWorkload viaB = new BankWorkload();
        ExecutorService two = Executors.newFixedThreadPool(2);
        Future<?> fa = two.submit(() -> {
            viaA.run(a.url(), 4, 20_000, 600, null);
            return null;
        });
        Future<?> fb = two.submit(() -> {
            viaB.run(b.url(), 4, 20_000, 600, null);
            return null;
        });
        fa.get(300, TimeUnit.SECONDS);
        fb.get(300, TimeUnit.SECONDS);
        two.shutdown();
        assertThat(viaA.errorSamples).as("errors through a").isEmpty();
        assertThat(viaB.errorSamples).as("errors through b").isEmpty();
        // Transfers that deadlock in the group's order are rolled back on every member (40P01), as a backend would.
        assertThat(viaA.retriedByState.keySet()).isSubsetOf("40001", "40P01");
        assertThat(viaB.retriedByState.keySet()).isSubsetOf("40001", "40P01");
        assertThat(viaA.committed.get() + viaB.committed.get()).isGreaterThan(100);
        for (EmbeddedPostgresServer s : all()) {
            assertThat(BankWorkload.total(s)).isEqualTo(BankWorkload.ACCOUNTS * BankWorkload.INITIAL_BALANCE);
        }
        assertIdentical();
    }

    @Test
    void showControllersListsBothMembersWithTheirBackends() {
        GroupStatus status = a.controller().group("shop").status();
        assertThat(status.group()).isEqualTo("shop-group");
        assertThat(status.members()).hasSize(2);
        assertThat(status.members()).allSatisfy(m -> {
            assertThat(m.answered()).isTrue();
            assertThat(m.backends()).hasSize(2);
        });
        assertThat(status.members()).filteredOn(GroupStatus.Member::self).hasSize(1);
    }

    @Test
    void aMemberWithAnotherLevelIsRefusedNamingTheDifference() {
        ControllerConfigXml raidb0 = member(
                        List.of(pg.server(3)), a.controller().group("shop").groupPort(), "all")
                .replication("<raidb0/>");
        assertThatThrownBy(() -> ControllerFixture.start(raidb0, "shop"))
                .hasMessageContaining("level=raidb0")
                .hasMessageContaining("level=raidb1");
    }

    /**
     * A brand-new controller (an empty database) joins after the group has written, while a transaction
     * is open: it catches up from a member. The writes wait at its barrier only until the open
     * transaction ends; afterwards all five backends are identical and it serves clients like the others.
     */
    @Test
    void aControllerJoiningAfterTheGroupHasWrittenCatchesUpFromAMember() throws Exception {
        try (Connection ca = a.connect();
                Statement sa = ca.createStatement();
                Connection open = b.connect();
                Statement so = open.createStatement()) {
            sa.execute("CREATE TABLE t (id int PRIMARY KEY, v text)");
            sa.execute("CREATE SEQUENCE ids");
            sa.executeUpdate("INSERT INTO t SELECT g, 'v' || g FROM generate_series(1, 1000) g");
            open.setAutoCommit(false);
            so.executeUpdate("INSERT INTO t VALUES (5001, 'open at the barrier')");

            ActiveReplication group = a.controller().group("shop");
            CompletableFuture<ControllerFixture> late = CompletableFuture.supplyAsync(
                    () -> startQuietly(member(List.of(pg.server(4)), group.groupPort(), "all")));
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> !group.catchingUp().isEmpty());
            // A new transaction waits at the barrier until the one open there ends.
            CompletableFuture<Integer> held = CompletableFuture.supplyAsync(() -> {
                try (Connection c = a.connect();
                        Statement st = c.createStatement()) {
                    return st.executeUpdate("INSERT INTO t VALUES (5002, 'held at the barrier')");
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> !held.isDone());
            so.executeUpdate("UPDATE t SET v = 'changed by the open transaction' WHERE id = 1");
            open.commit();
            assertThat(held.get(60, TimeUnit.SECONDS)).isEqualTo(1);

            try (ControllerFixture c = late.get(120, TimeUnit.SECONDS);
                    Connection cc = c.connect();
                    Statement sc = cc.createStatement()) {
                assertThat(sc.executeUpdate("INSERT INTO t VALUES (nextval('ids') + 6000, 'through the newcomer')"))
                        .isEqualTo(1);
                sa.executeUpdate("UPDATE t SET v = 'after' WHERE id = 2");
                assertThat(ReplicaChecks.count(cc, "SELECT count(*) FROM t")).isEqualTo(1003);
                Map<String, Map<String, String>> sums = ControllerFixture.checksums(
                        List.of(pg.server(0), pg.server(1), pg.server(2), pg.server(3), pg.server(4)));
                assertThat(sums.values().stream().distinct())
                        .as("per-table checksums of the five backends: %s", sums)
                        .hasSize(1);
                c.assertEveryBackendEnabled();
                assertThat(group.catchingUp()).isEmpty();
                assertThat(group.status().members()).hasSize(3);
            }
        }
    }

    @Test
    void aControllerThatMustNotServeAloneWaitsForAMember() throws Exception {
        int port = freePort();
        ControllerConfigXml waiting = pg.controllerConfig("shop")
                .backends(List.of(pg.server(3)))
                .extraXml("<controllerGroup name=\"wait-group\" bindPort=\"" + port + "\" whenAlone=\"wait\""
                        + " joinTimeout=\"500\"/>");
        CompletableFuture<ControllerFixture> started = CompletableFuture.supplyAsync(() -> startQuietly(waiting));
        // It does not serve while alone: its start has not returned once it has looked for members several times.
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> !started.isDone());
        ControllerConfigXml other = pg.controllerConfig("shop")
                .backends(List.of(pg.server(2)))
                .extraXml("<controllerGroup name=\"wait-group\" bindPort=\"0\" members=\"127.0.0.1:" + port + "\"/>");
        try (ControllerFixture second = ControllerFixture.start(other, "shop");
                ControllerFixture first = started.get(60, TimeUnit.SECONDS)) {
            assertThat(first.controller().group("shop").viewMembers()).hasSize(2);
            assertThat(second.controller().group("shop").viewMembers()).hasSize(2);
        }
    }

    @Test
    void aMemberStoppedWhileTheGroupWentOnWaitsForTheOneThatStoppedLastAndCatchesUpFromIt() throws Exception {
        b.close();
        a.close();
        b = null;
        a = null;
        int portA = freePort();
        int portB = freePort();
        Path dirA = Files.createTempDirectory("member-a");
        Path dirB = Files.createTempDirectory("member-b");
        // The default whenAlone ("auto") and a short joinTimeout: the first start of each is alone at times.
        ControllerConfigXml memberA = pg.controllerConfig("shop")
                .backends(List.of(pg.server(0)))
                .extraXml("<controllerGroup name=\"history-group\" bindPort=\"" + portA + "\" members=\"127.0.0.1:"
                        + portB + "\" joinTimeout=\"500\"/>");
        ControllerConfigXml memberB = pg.controllerConfig("shop")
                .backends(List.of(pg.server(1)))
                .extraXml("<controllerGroup name=\"history-group\" bindPort=\"" + portB + "\" members=\"127.0.0.1:"
                        + portA + "\" joinTimeout=\"500\"/>");
        ControllerFixture first = ControllerFixture.start(memberA, "shop", dirA);
        ControllerFixture second = ControllerFixture.start(memberB, "shop", dirB);
        try (Connection c = first.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id int PRIMARY KEY, v text)");
            st.executeUpdate("INSERT INTO t SELECT g, 'before' FROM generate_series(1, 100) g");
            assertThat(countOn(pg.server(1), "SELECT count(*) FROM t")).isEqualTo(100);
            second.close(); // B stops while A goes on
            st.executeUpdate("INSERT INTO t SELECT g, 'while B was stopped' FROM generate_series(101, 150) g");
        }
        first.close(); // A stops last: nobody wrote after it
        assertThat(dirB.resolve("data/group/shop.member")).exists();
        assertThat(dirA.resolve("data/group/shop.member")).doesNotExist();

        // B, started again alone, does not serve its stale backend: it waits for a member.
        CompletableFuture<ControllerFixture> bAgain = CompletableFuture.supplyAsync(() -> {
            try {
                return ControllerFixture.start(memberB, "shop", dirB);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> !bAgain.isDone());
        // A, the last to stop, starts at once (alone or beside B); B catches up from it, not the other way.
        try (ControllerFixture aAgain = ControllerFixture.start(memberA, "shop", dirA);
                ControllerFixture bServing = bAgain.get(120, TimeUnit.SECONDS);
                Connection cb = bServing.connect();
                Statement sb = cb.createStatement()) {
            assertThat(bServing.controller().group("shop").viewMembers()).hasSize(2);
            assertThat(ReplicaChecks.count(cb, "SELECT count(*) FROM t")).isEqualTo(150);
            assertThat(sb.executeUpdate("UPDATE t SET v = 'through B' WHERE id = 150"))
                    .isEqualTo(1);
            Map<String, Map<String, String>> sums = ControllerFixture.checksums(List.of(pg.server(0), pg.server(1)));
            assertThat(sums.values().stream().distinct())
                    .as("per-table checksums of both backends: %s", sums)
                    .hasSize(1);
            assertThat(countOn(pg.server(0), "SELECT count(*) FROM t WHERE v = 'through B'"))
                    .isEqualTo(1);
            aAgain.assertEveryBackendEnabled();
        }
    }

    private static int countOn(EmbeddedPostgresServer server, String query) throws SQLException {
        try (Connection c = server.connect()) {
            return ReplicaChecks.count(c, query);
        }
    }

    private static ControllerFixture startQuietly(ControllerConfigXml config) {
        try {
            return ControllerFixture.start(config, "shop");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A port the system has free now, for a member the others must be told of before it starts. */
    /** A port outside the ephemeral range: the controller is restarted on it after a kill. */
    static int freePort() {
        return org.raidb.embedded.FreePort.pick();
    }

    @Test
    void aStackFileThatDoesNotParseIsNamedWithItsLine() throws Exception {
        Path stack = Files.createTempFile("broken-stack", ".xml");
        Files.writeString(stack, "<config xmlns=\"urn:org:jgroups\">\n  <TCP bind_port=\"0\">\n</config>\n");
        ControllerConfigXml broken = pg.controllerConfig("shop")
                .backends(List.of(pg.server(3)))
                .extraXml("<controllerGroup name=\"other\" bindPort=\"0\" stack=\"" + stack + "\"/>");
        assertThatThrownBy(() -> ControllerFixture.start(broken, "shop"))
                .hasMessageContaining(stack + ":3:")
                .hasMessageContaining("does not parse");
    }

    private void assertIdentical() throws SQLException {
        Map<String, Map<String, String>> sums = ControllerFixture.checksums(all());
        assertThat(sums.values().stream().distinct())
                .as("per-table checksums of the four backends: %s", sums)
                .hasSize(1);
    }
}
