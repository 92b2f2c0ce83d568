package org.raidb.controller.it.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.test.PostgresClusterExtension;

/**
 * A backend whose connection pool is exhausted is busy, not failed: a read that finds no free
 * connection to it within the pool's wait goes to another backend, a write waits for it up to the
 * scheduler's lock timeout and then fails with 53300 on every backend alike, and nothing is disabled. (A pool's timeout is a transient connection exception,
 * which used to count as a backend failure.)
 */
class BusyPoolIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private ControllerFixture raidb;
    /** Its open transaction holds a connection on every backend: pg3's only one. */
    private Connection writer;

    private Connection other;

    @BeforeEach
    void controllerWithPg3sOnlyConnectionHeld() throws Exception {
        pg.cluster().recreateDatabases();
        // A write waits for a busy backend's connection as long as for a conflict class: 3 s here. A read
        // waits for half of backendTimeout: 2 s here rather than the default 5 s (the read test meets it twice).
        raidb = ControllerFixture.start(
                pg.controllerConfig("shop")
                        .poolSize("pg3", 1)
                        .extraXml("<scheduler lockTimeout=\"3000\"/><health backendTimeout=\"4000\"/>"),
                "shop");
        writer = raidb.connect();
        other = raidb.connect();
        try (Statement w = writer.createStatement()) {
            w.execute("CREATE TABLE held (id int PRIMARY KEY)");
            w.execute("CREATE TABLE accounts (id int PRIMARY KEY, balance numeric(10,2) NOT NULL)");
            w.execute("INSERT INTO accounts VALUES (1, 100.00)");
            writer.setAutoCommit(false);
            w.execute("INSERT INTO held VALUES (1)");
        }
    }

    @AfterEach
    void stop() throws SQLException {
        other.close();
        writer.close();
        raidb.close();
    }

    @Test
    void aReadFindingNoFreeConnectionOnOneBackendIsAnsweredByAnotherAndDisablesNothing() throws Exception {
        try (Statement r = other.createStatement()) {
            // Round robin over three backends: among three reads one is sent to pg3 first; in auto-commit
            // mode, then in a transaction (whose first read has no connection anywhere yet).
            for (boolean autoCommit : new boolean[] {true, false}) {
                other.setAutoCommit(autoCommit);
                for (int read = 0; read < 3; read++) {
                    try (ResultSet rs = r.executeQuery("SELECT balance FROM accounts WHERE id = 1")) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getBigDecimal(1)).isEqualByComparingTo("100.00");
                    }
                }
                if (!autoCommit) {
                    other.commit();
                }
            }
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            assertThat(vdb.backends()).as("a busy pool is no backend failure").allMatch(DatabaseBackend::isEnabled);

            writer.commit();
            try (ResultSet rs = r.executeQuery("SELECT count(*) FROM held")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(1);
            }
        }
    }

    @Test
    void aWriteFindingNoFreeConnectionFailsEverywhereAndTheRecoveryLogDoesNotReplayIt() throws Exception {
        try (Statement st = other.createStatement()) {
            assertThatThrownBy(() -> st.executeUpdate("UPDATE accounts SET balance = balance + 1000 WHERE id = 1"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("53300");
                        assertThat(e.getMessage()).contains("pg3").contains("raise poolSize");
                    });
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            assertThat(vdb.backends()).allMatch(DatabaseBackend::isEnabled);
            writer.commit();
            assertThat(st.executeUpdate("UPDATE accounts SET balance = balance + 1 WHERE id = 1"))
                    .isEqualTo(1);

            // pg3 leaves at a checkpoint and comes back by replay: the refused write must not be replayed.
            DatabaseBackend pg3 = vdb.backend("pg3");
            vdb.disableBackend(pg3, "test: taken out").get(1, TimeUnit.MINUTES);
            CompletableFuture.supplyAsync(() -> {
                        try {
                            return vdb.recovery().enable(pg3).run(Progress.NONE);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    })
                    .get(2, TimeUnit.MINUTES);
            Map<String, Map<String, String>> sums =
                    ControllerFixture.checksums(pg.cluster().servers());
            assertThat(sums.values()).allSatisfy(t -> assertThat(t).isEqualTo(sums.get("pg1")));
            try (ResultSet rs = st.executeQuery("SELECT balance FROM accounts WHERE id = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getBigDecimal(1)).isEqualByComparingTo("101.00");
            }
        }
    }
}
