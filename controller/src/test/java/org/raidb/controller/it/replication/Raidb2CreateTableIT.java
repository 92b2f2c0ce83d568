package org.raidb.controller.it.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.raidb.controller.it.replication.Raidb0PartitioningIT.tablesOn;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * RAIDb-2 over three PostgreSQL servers whose tables are read from their schemas (all empty at
 * start): new tables are placed by the configured create-table rules, checked on the servers
 * directly; tables made from others (AS SELECT, foreign keys) go only where their sources are.
 */
class Raidb2CreateTableIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    static ControllerFixture raidb;

    @BeforeAll
    static void startController() throws Exception {
        raidb = ControllerFixture.start(pg.controllerConfig("shop").replication("""
        <raidb2 readPolicy="roundRobin" completion="all">
          <createTable policy="roundRobin" nodes="2" tables="rr_*"/>
          <createTable policy="random" nodes="1" tables="one_*"/>
          <createTable policy="all" tables="pinned_*"><backend name="pg1"/><backend name="pg3"/></createTable>
          <createTable policy="all"/>
        </raidb2>"""), "shop");
    }

    @AfterAll
    static void stopController() {
        if (raidb != null) {
            raidb.close();
        }
    }

    @Test
    void theDefaultRulePlacesATableOnEveryBackend() throws Exception {
        execute("CREATE TABLE everywhere (id int PRIMARY KEY)", "INSERT INTO everywhere VALUES (1)");
        assertThat(holders("everywhere")).containsExactly("pg1", "pg2", "pg3");
    }

    @Test
    void roundRobinWithTwoNodesTakesTheNextBackendsInTurn() throws Exception {
        execute("CREATE TABLE rr_a (id int)", "CREATE TABLE rr_b (id int)", "CREATE TABLE rr_c (id int)");
        // Three tables in a row start the turn at three successive backends: each pair once (the turn's
        // starting point depends on the rr_ tables other tests created).
        assertThat(List.of(holders("rr_a"), holders("rr_b"), holders("rr_c")))
                .containsExactlyInAnyOrder(Set.of("pg1", "pg2"), Set.of("pg2", "pg3"), Set.of("pg1", "pg3"));
    }

    @Test
    void randomWithOneNodePlacesOneCopy() throws Exception {
        execute("CREATE TABLE one_x (id int)", "INSERT INTO one_x VALUES (7)");
        assertThat(holders("one_x")).hasSize(1);
        try (Connection c = raidb.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id FROM one_x")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(7);
        }
    }

    @Test
    void aRuleWithABackendListUsesOnlyThoseBackends() throws Exception {
        execute("CREATE TABLE pinned_p (id int PRIMARY KEY)", "INSERT INTO pinned_p VALUES (1), (2)");
        assertThat(holders("pinned_p")).containsExactly("pg1", "pg3");

        // Made from pinned_p: only its holders qualify, whatever the rule would choose among all three.
        execute(
                "CREATE TABLE rr_copy AS SELECT * FROM pinned_p",
                "CREATE TABLE child (id int, p int REFERENCES pinned_p)");
        assertThat(holders("rr_copy")).containsExactly("pg1", "pg3");
        assertThat(holders("child")).containsExactly("pg1", "pg3");
    }

    @Test
    void tooFewQualifyingBackendsIs53000() throws Exception {
        execute("CREATE TABLE one_source (id int)");
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            assertThatThrownBy(() -> st.execute("CREATE TABLE rr_from_one AS SELECT * FROM one_source"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("53000");
                        assertThat(e.getMessage())
                                .contains("cannot create table rr_from_one", "needs 2 backends but 1");
                    });
        }
        assertThat(holders("rr_from_one")).isEmpty();
    }

    @Test
    void aTableNoEnabledBackendHoldsIs42P01AndTheSessionGoesOn() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            assertThatThrownBy(() -> st.executeQuery("SELECT * FROM nowhere JOIN everywhere_else ON true"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("42P01");
                        assertThat(e.getMessage()).containsAnyOf("table nowhere", "table everywhere_else");
                    });
            c.setAutoCommit(false);
            assertThatThrownBy(() -> st.executeUpdate("DELETE FROM nowhere"))
                    .isInstanceOfSatisfying(
                            SQLException.class, e -> assertThat(e.getMessage()).contains("table nowhere"));
            c.rollback();
            c.setAutoCommit(true);
            try (ResultSet rs = st.executeQuery("SELECT 1")) {
                assertThat(rs.next()).isTrue();
            }
        }
    }

    @Test
    void renameAndDropKeepWhatEachBackendHoldsCurrent() throws Exception {
        execute("CREATE TABLE rr_old (id int)", "ALTER TABLE rr_old RENAME TO rr_new", "INSERT INTO rr_new VALUES (1)");
        Set<String> holders = holders("rr_new");
        assertThat(holders).hasSize(2);
        execute("DROP TABLE rr_new");
        assertThat(holders("rr_new")).isEmpty();
        assertThat(raidb.controller().virtualDatabase("shop").backends())
                .noneMatch(b -> b.tables().served().contains("rr_new")
                        || b.tables().served().contains("rr_old"));
    }

    @Test
    void aSerialColumnsSequenceIsListedWhereItsTableIsAndGoesWithIt() throws Exception {
        execute("CREATE TABLE rr_serial (id serial PRIMARY KEY, note text)");
        Set<String> holders = holders("rr_serial");
        assertThat(holders).hasSize(2);
        for (var b : raidb.controller().virtualDatabase("shop").backends()) {
            // Listed as a schema read at start or enable would list it, on the backends holding the table only.
            assertThat(b.tables().served().contains("rr_serial_id_seq"))
                    .as("backend %s lists the sequence", b.name())
                    .isEqualTo(holders.contains(b.name()));
        }
        execute("INSERT INTO rr_serial (note) VALUES ('a')", "DROP TABLE rr_serial");
        assertThat(raidb.controller().virtualDatabase("shop").backends())
                .noneMatch(b -> b.tables().served().contains("rr_serial")
                        || b.tables().served().contains("rr_serial_id_seq"));
    }

    private static void execute(String... statements) throws SQLException {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        }
    }

    /** The servers holding the table, checked on each directly. */
    private static Set<String> holders(String table) {
        Set<String> out = new TreeSet<>();
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            if (tablesOn(s).contains(table)) {
                out.add(s.name());
            }
        }
        return out;
    }
}
