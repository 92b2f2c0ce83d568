package org.raidb.controller.it.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.raidb.controller.it.replication.Raidb0PartitioningIT.count;
import static org.raidb.controller.it.replication.Raidb0PartitioningIT.tablesOn;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;

/**
 * RAIDb-2 when a backend fails a write its peers applied: only the tables written are disabled there
 * (the backend serves its others), across a restart too; and a backend brought back by replay
 * applies only what touched its own tables. Placement: pg1 holds a, b, c; pg2 a, b; pg3 c.
 */
class Raidb2PartialFailureIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private Path dir;

    @BeforeEach
    void freshDatabases() throws Exception {
        pg.cluster().recreateDatabases();
        dir = Files.createTempDirectory("raidb2-partial");
    }

    private ControllerFixture start() throws Exception {
        ControllerConfigXml config = pg.controllerConfig("shop")
                .replication("<raidb2/>")
                .tables("pg1", List.of("a", "b", "c"))
                .tables("pg2", List.of("a", "b"))
                .tables("pg3", List.of("c"));
        ControllerFixture raidb = ControllerFixture.start(config, "shop", dir);
        return raidb;
    }

    private static void createTables(ControllerFixture raidb) throws SQLException {
        execute(
                raidb,
                "CREATE TABLE a (id int PRIMARY KEY, v int)",
                "CREATE TABLE b (id int PRIMARY KEY, v int)",
                "CREATE TABLE c (id int PRIMARY KEY, v int)",
                "INSERT INTO a VALUES (1, 1), (2, 2)",
                "INSERT INTO b VALUES (1, 1)",
                "INSERT INTO c VALUES (1, 1)");
    }

    @Test
    void aWriteFailingOnOneHolderDisablesThatTableThereOnly() throws Exception {
        try (ControllerFixture raidb = start()) {
            createTables(raidb);
            onServer(
                    pg.server(0),
                    "ALTER TABLE a ADD CONSTRAINT small CHECK (v < 100) NOT VALID"); // pg1's copy now differs

            execute(raidb, "UPDATE a SET v = 500 WHERE id = 1"); // pg2 applies it, pg1 refuses it

            DatabaseBackend pg1 = raidb.controller().virtualDatabase("shop").backend("pg1");
            assertThat(pg1.isEnabled()).as("the backend stays").isTrue();
            assertThat(pg1.tables().disabled()).containsExactly("a");
            assertThat(pg1.tables().served()).containsExactly("b", "c");
            for (int i = 0; i < 4; i++) {
                assertThat(valueOf(raidb, "a", 1))
                        .as("every read of a goes to pg2")
                        .isEqualTo(500);
            }
            execute(raidb, "INSERT INTO c VALUES (2, 2)", "UPDATE b SET v = 7 WHERE id = 1");
            assertThat(count(pg.server(0), "c"))
                    .as("pg1 still receives writes to c")
                    .isEqualTo(2);
            assertThat(count(pg.server(0), "b WHERE v = 7")).isEqualTo(1);
            assertThat(count(pg.server(0), "a WHERE v = 500")).isZero();

            // Recovery is whole-backend: a dump of pg1 would carry the stale copy.
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            assertThatThrownBy(() -> vdb.dumps().backup(pg1, null))
                    .isInstanceOfSatisfying(
                            SQLException.class, e -> assertThat(e.getMessage()).contains("holds stale copies of a"));
        }
        try (ControllerFixture restarted = start()) {
            DatabaseBackend pg1 = restarted.controller().virtualDatabase("shop").backend("pg1");
            assertThat(pg1.isTableDisabled("a"))
                    .as("remembered across a restart")
                    .isTrue();
            assertThat(valueOf(restarted, "a", 1)).isEqualTo(500);
        }
    }

    @Test
    void aTransactionFailingOnOneHolderDisablesEveryTableItWroteThere() throws Exception {
        try (ControllerFixture raidb = start()) {
            createTables(raidb);
            onServer(pg.server(0), "ALTER TABLE b ADD CONSTRAINT small CHECK (v < 100) NOT VALID");
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                c.setAutoCommit(false);
                st.execute("INSERT INTO c VALUES (3, 3)"); // pg1 and pg3
                st.execute("INSERT INTO b VALUES (3, 300)"); // pg1 refuses it, pg2 applies it
                st.execute("UPDATE a SET v = 3 WHERE id = 2"); // pg1 and pg2: pg1's part of the transaction is gone
                c.commit();
            }
            DatabaseBackend pg1 = raidb.controller().virtualDatabase("shop").backend("pg1");
            assertThat(pg1.isEnabled()).isTrue();
            assertThat(pg1.tables().disabled()).containsExactly("b", "c");
            assertThat(pg1.tables().served()).containsExactly("a");
            assertThat(count(pg.server(0), "c WHERE id = 3"))
                    .as("rolled back on pg1")
                    .isZero();
            assertThat(count(pg.server(2), "c WHERE id = 3")).isEqualTo(1);
            assertThat(count(pg.server(1), "b WHERE id = 3")).isEqualTo(1);
            assertThat(count(pg.server(0), "a WHERE id = 2 AND v = 3"))
                    .as("written after its tables were disabled")
                    .isOne();
            assertThat(count(pg.server(1), "a WHERE id = 2 AND v = 3")).isOne();
        }
    }

    @Test
    void replayAppliesOnlyWhatTouchedTheBackendsTables() throws Exception {
        try (ControllerFixture raidb = start()) {
            createTables(raidb);
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            DatabaseBackend pg2 = vdb.backend("pg2");
            assertThat(vdb.disableBackend(pg2, "test: taken out").join()).isNotNull();

            execute(
                    raidb,
                    "UPDATE a SET v = v + 10",
                    "INSERT INTO b VALUES (2, 2)",
                    "INSERT INTO c VALUES (2, 2)",
                    "CREATE TABLE d (id int)",
                    "INSERT INTO d VALUES (1)"); // d goes to the enabled backends: pg1 and pg3
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                c.setAutoCommit(false);
                st.execute("UPDATE c SET v = 9");
                st.execute("DELETE FROM b WHERE id = 1");
                c.commit();
            }
            assertThat(tablesOn(pg.server(1)))
                    .as("pg2 lacks c and d: replaying their writes would fail")
                    .containsExactly("a", "b");

            vdb.recovery().enable(pg2).run(Progress.NONE);

            assertThat(pg2.isEnabled()).isTrue();
            assertThat(tablesOn(pg.server(1))).containsExactly("a", "b");
            assertThat(pg2.tables().served()).containsExactly("a", "b");
            Map<String, Map<String, String>> sums =
                    ControllerFixture.checksums(pg.cluster().servers());
            assertThat(sums.get("pg2").get("a")).isEqualTo(sums.get("pg1").get("a"));
            assertThat(sums.get("pg2").get("b")).isEqualTo(sums.get("pg1").get("b"));
            assertThat(sums.get("pg3").get("c")).isEqualTo(sums.get("pg1").get("c"));
            assertThat(sums.get("pg3").get("d")).isEqualTo(sums.get("pg1").get("d"));
            execute(raidb, "INSERT INTO a VALUES (3, 3)"); // the array goes on with pg2 in it
            assertThat(count(pg.server(1), "a")).isEqualTo(3);
        }
    }

    private static int valueOf(ControllerFixture raidb, String table, int id) throws SQLException {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT v FROM " + table + " WHERE id = " + id)) {
            assertThat(rs.next()).isTrue();
            return rs.getInt(1);
        }
    }

    private static void execute(ControllerFixture raidb, String... statements) throws SQLException {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        }
    }

    private static void onServer(EmbeddedPostgresServer s, String sql) throws SQLException {
        try (Connection c = s.connect();
                Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
