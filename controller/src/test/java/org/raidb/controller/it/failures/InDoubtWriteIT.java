package org.raidb.controller.it.failures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.AnswerLosingProxy;
import org.raidb.test.PostgresClusterExtension;

/**
 * A write whose answer is lost with the backend's connection may or may not have been applied there.
 * pg3 is reached through a proxy that cuts its connection at an exact point: after the server
 * committed (the answer is lost), or before the server saw the request. Either way pg3 is disabled
 * with the write in doubt, and enabling it replays the write with care, then compares the tables it
 * touches with the other backends before letting pg3 join.
 */
class InDoubtWriteIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private AnswerLosingProxy proxy;
    private ControllerFixture raidb;
    private VirtualDatabase vdb;
    private DatabaseBackend pg3;
    private EmbeddedPostgresServer pg3Server;

    @BeforeEach
    void start() throws Exception {
        pg.cluster().ensureAllRunning();
        pg.cluster().recreateDatabases();
        pg3Server = pg.server(2);
        proxy = new AnswerLosingProxy(pg3Server.port());
        raidb = ControllerFixture.start(
                pg.controllerConfig("shop").throughPort(pg3Server.name(), proxy.port()), "shop");
        vdb = raidb.controller().virtualDatabase("shop");
        pg3 = vdb.backend(pg3Server.name());
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE events (id BIGINT PRIMARY KEY, note VARCHAR(40))");
            st.execute("CREATE TABLE counters (id INT PRIMARY KEY, n BIGINT NOT NULL)");
            st.execute("INSERT INTO counters VALUES (1, 0), (2, 0)");
            st.execute("INSERT INTO events VALUES (1, 'before')");
        }
    }

    @AfterEach
    void stop() throws Exception {
        raidb.close();
        proxy.close();
    }

    @Test
    void aWriteThatCommittedButLostItsAnswerIsTakenAsAppliedAndPg3Joins() throws Exception {
        proxy.loseAnswerHolding("INSERT 0 1");
        writeAcknowledgedWhilePg3IsCut("INSERT INTO events VALUES (42, 'answer lost on pg3')");
        assertThat(proxy.cuts()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> rowsOnPg3("SELECT count(*) FROM events WHERE id = 42") == 1);
        writeWhilePg3IsOut();

        String joinedAt = vdb.recovery().enable(pg3).run(Progress.NONE);

        assertThat(joinedAt).contains("-enabled");
        assertThat(pg3.isEnabled()).isTrue();
        assertIdentical();
        assertThat(rowsOnPg3("SELECT count(*) FROM events WHERE id = 42")).isEqualTo(1);
    }

    @Test
    void aWriteThePg3ServerNeverSawIsAppliedByTheReplay() throws Exception {
        proxy.loseRequestHolding("never seen");
        writeAcknowledgedWhilePg3IsCut("INSERT INTO events VALUES (43, 'never seen by pg3')");
        assertThat(rowsOnPg3("SELECT count(*) FROM events WHERE id = 43")).isZero();
        writeWhilePg3IsOut();

        vdb.recovery().enable(pg3).run(Progress.NONE);

        assertThat(pg3.isEnabled()).isTrue();
        assertIdentical();
        assertThat(rowsOnPg3("SELECT count(*) FROM events WHERE id = 43")).isEqualTo(1);
    }

    @Test
    void anUpdateThatCommittedAndSucceedsAgainOnReplayKeepsPg3OutWithTheTableNamed() throws Exception {
        proxy.loseAnswerHolding("UPDATE 1");
        writeAcknowledgedWhilePg3IsCut("UPDATE counters SET n = n + 1 WHERE id = 1");
        await().atMost(Duration.ofSeconds(10)).until(() -> rowsOnPg3("SELECT n FROM counters WHERE id = 1") == 1);
        writeWhilePg3IsOut();

        assertThatThrownBy(() -> vdb.recovery().enable(pg3).run(Progress.NONE))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("table counters differs from")
                .hasMessageContaining("restore " + pg3Server.name() + " from DUMP")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("XX001"));
        assertThat(pg3.isEnabled()).isFalse();
        // The others go on serving, and the session that wrote is usable.
        try (Connection c = raidb.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT n FROM counters WHERE id = 1")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(1);
        }
    }

    /** The client hears success from pg1 and pg2; pg3's connection is cut and pg3 leaves at a checkpoint. */
    private void writeAcknowledgedWhilePg3IsCut(String write) throws SQLException {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            assertThat(st.executeUpdate(write)).isEqualTo(1);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> !pg3.isEnabled() && pg3.lastCheckpoint() != null);
    }

    /** Writes pg3 misses while it is out, replayed before the write in doubt's check. */
    private void writeWhilePg3IsOut() throws SQLException {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            for (int i = 100; i < 110; i++) {
                st.executeUpdate("INSERT INTO events VALUES (" + i + ", 'while out')");
            }
            st.executeUpdate("UPDATE counters SET n = n + 10 WHERE id = 2");
        }
    }

    private long rowsOnPg3(String countQuery) throws SQLException {
        try (Connection c = pg3Server.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(countQuery)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    private void assertIdentical() throws SQLException {
        Map<String, Map<String, String>> sums =
                ControllerFixture.checksums(pg.cluster().servers());
        assertThat(sums.values())
                .as("per-table checksums of %s", sums.keySet())
                .allMatch(s -> s.equals(sums.get("pg1")));
    }
}
