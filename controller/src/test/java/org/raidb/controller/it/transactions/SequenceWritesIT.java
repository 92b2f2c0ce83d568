package org.raidb.controller.it.transactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * Issue 12 item 2: a sequence is a conflict class of its own, and session settings take none. A
 * transaction that called nextval, or created a sequence, no longer holds up every other writer
 * until it ends (Flyway runs two connections in one thread, so there it deadlocked), and sequence
 * values stay identical on every backend. Each test runs the other connection's statements on the
 * test's own thread, as Flyway does: before the fix they waited the 30 s lock timeout and failed
 * with 55P03. The preemptive timeouts only keep a scheduler that makes them wait from hanging the
 * build; they are far above any statement's duration.
 */
class SequenceWritesIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static final Duration HANG_GUARD = Duration.ofMinutes(2);

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SELECT nextval('item_numbers')", "CREATE SEQUENCE fresh_numbers"})
    void aSequenceInAnOpenTransactionLeavesWritesOfOtherTablesAlone(String sequenceStatement) throws Exception {
        pg.cluster().recreateDatabases();
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                st.execute("CREATE SEQUENCE item_numbers");
                st.execute("CREATE TABLE other_table (id int PRIMARY KEY, v text)");
            }
            try (Connection b = raidb.connect();
                    Connection c = raidb.connect();
                    Statement sb = b.createStatement();
                    Statement sc = c.createStatement()) {
                b.setAutoCommit(false);
                sb.execute(sequenceStatement);
                assertTimeoutPreemptively(HANG_GUARD, () -> {
                    sc.execute("SET search_path TO public");
                    assertThat(sc.executeUpdate("INSERT INTO other_table VALUES (1, 'c')"))
                            .isEqualTo(1);
                });
                // C's row is on every backend while B's transaction is still open there.
                ReplicaChecks.assertRowsOnEach(pg.cluster().servers(), "SELECT id, v FROM other_table", "1|c|");
                for (EmbeddedPostgresServer s : pg.cluster().servers()) {
                    assertThat(openTransactions(s))
                            .as("transactions open on %s", s.name())
                            .isEqualTo(1);
                }
                b.commit();
            }
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertIdentical(pg.cluster().servers());
        ReplicaChecks.assertRowsOnEach(
                pg.cluster().servers(),
                "SELECT last_value, is_called FROM item_numbers",
                sequenceStatement.startsWith("SELECT") ? "1|t|" : "1|f|");
    }

    @Test
    void aTransactionDrawingFromASequenceHoldsUpOnlyThatSequencesOtherUsers() throws Exception {
        pg.cluster().recreateDatabases();
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE items (id serial PRIMARY KEY, name text)");
                st.execute("CREATE TABLE notes (id int PRIMARY KEY, text text)");
                st.execute("CREATE SEQUENCE hibernate_sequence");
            }
            try (Connection c = raidb.connect();
                    Statement sc = c.createStatement();
                    Connection b = raidb.connect();
                    Statement sb = b.createStatement()) {
                b.setAutoCommit(false);
                c.setAutoCommit(false);
                // Hibernate's SEQUENCE generator, then an insert relying on a serial column's default.
                assertThat(nextval(sb)).isEqualTo(1);
                assertThat(sb.executeUpdate("INSERT INTO items (name) VALUES ('b')"))
                        .isEqualTo(1);
                // Writers of other tables and sequences go on while B is open.
                assertTimeoutPreemptively(HANG_GUARD, () -> {
                    assertThat(sc.executeUpdate("INSERT INTO notes VALUES (1, 'c')"))
                            .isEqualTo(1);
                    c.commit();
                });
                // The sequence's next user waits for B's end: the recovery log replays transactions in commit
                // order, so a sequence's values must be drawn in that order too.
                CompletableFuture<Long> next = CompletableFuture.supplyAsync(() -> {
                    try {
                        long v = nextval(sc);
                        sc.executeUpdate("INSERT INTO items (name) VALUES ('c')");
                        c.commit();
                        return v;
                    } catch (SQLException e) {
                        throw new CompletionException(e);
                    }
                });
                await().atMost(1, TimeUnit.MINUTES)
                        .until(() -> raidb.controller()
                                        .virtualDatabase("shop")
                                        .scheduler()
                                        .waitingWrites()
                                == 1);
                b.commit();
                assertThat(next.get(2, TimeUnit.MINUTES)).isEqualTo(2);
            }
            raidb.assertEveryBackendEnabled();
        }
        // The serial column's sequence handed out the same values in the same order on every backend.
        ReplicaChecks.assertRowsOnEach(
                pg.cluster().servers(), "SELECT id, name FROM items ORDER BY id", "1|b|", "2|c|");
        ReplicaChecks.assertRowsOnEach(pg.cluster().servers(), "SELECT last_value FROM hibernate_sequence", "2|");
        ReplicaChecks.assertIdentical(pg.cluster().servers());
    }

    @Test
    void concurrentInsertsRelyingOnASerialColumnGetTheSameKeysEverywhere() throws Exception {
        pg.cluster().recreateDatabases();
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE events (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, source int)");
                st.execute("CREATE TABLE tickets (id serial PRIMARY KEY, source int)");
            }
            ConcurrentClients.run(6, source -> {
                try (Connection c = raidb.connect();
                        Statement st = c.createStatement()) {
                    for (int i = 0; i < 30; i++) {
                        c.setAutoCommit(i % 2 == 0);
                        st.executeUpdate("INSERT INTO events (source) VALUES (" + source + ")");
                        st.executeUpdate("INSERT INTO tickets (source) VALUES (" + source + ")");
                        if (!c.getAutoCommit()) {
                            c.commit();
                        }
                    }
                }
            });
            raidb.assertEveryBackendEnabled();
        }
        // Which writer got which key depends on the order each backend ran the inserts in: the same everywhere.
        ReplicaChecks.assertIdentical(pg.cluster().servers());
        ReplicaChecks.assertRowsOnEach(pg.cluster().servers(), "SELECT count(*), max(id) FROM events", "180|180|");
    }

    private static long nextval(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT nextval('hibernate_sequence')")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Client sessions other than the asking one that are inside a transaction on the server. */
    private static int openTransactions(EmbeddedPostgresServer s) throws SQLException {
        try (Connection c = s.connect();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                                + " AND state LIKE 'idle in transaction%' AND pid <> pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
