package org.raidb.controller.it.determinism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.raidb.controller.it.support.ReplicaChecks.assertIdentical;
import static org.raidb.controller.it.support.ReplicaChecks.assertRowsOnEach;
import static org.raidb.controller.it.support.ReplicaChecks.results;
import static org.raidb.controller.it.support.ReplicaChecks.rowsOn;
import static org.raidb.controller.it.support.ReplicaChecks.served;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * Issue 11: {@code SELECT writing_func()}, a PL/pgSQL function doing an INSERT, ran as a read on one
 * backend. A SELECT calling a function not known to only read now runs on every backend; one calling
 * only stable, immutable or built-in read-only functions still goes to one backend.
 */
class WritingFunctionsIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    static ControllerFixture raidb;

    /** Functions made on every server before the controller starts: it learns them from the catalogue. */
    @BeforeAll
    static void functionsThenController() throws Exception {
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            try (Connection c = s.connect();
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE calls_log (id serial PRIMARY KEY, who text NOT NULL)");
                st.execute("CREATE FUNCTION writing_func() RETURNS int LANGUAGE plpgsql AS $$"
                        + " BEGIN INSERT INTO calls_log (who) VALUES ('writing_func'); RETURN 1; END $$");
                // Declared STABLE, so routed as a read; the sequence shows on which backends it ran.
                st.execute("CREATE SEQUENCE stable_calls");
                st.execute("CREATE FUNCTION stable_func() RETURNS int STABLE LANGUAGE plpgsql AS $$"
                        + " BEGIN PERFORM nextval('stable_calls'); RETURN 42; END $$");
            }
        }
        raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
    }

    @AfterAll
    static void stopController() {
        if (raidb != null) {
            raidb.close();
        }
    }

    private static List<EmbeddedPostgresServer> servers() {
        return pg.cluster().servers();
    }

    /** The results of one statement through the controller, and how many backend requests it took. */
    private record Run(List<String> results, long backends) {}

    private static Run run(String sql) throws SQLException {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            long before = served(raidb, "shop");
            List<String> results = results(st, sql);
            return new Run(results, served(raidb, "shop") - before);
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    @Test
    void aSelectOfAWritingFunctionRunsOnEveryBackend() throws Exception {
        Run run = run("SELECT writing_func()");
        assertThat(run.results()).containsExactly("rows [1|]");
        assertThat(run.backends()).isEqualTo(3);
        assertRowsOnEach(servers(), "SELECT who FROM calls_log WHERE who = 'writing_func'", "writing_func|");
        assertIdentical(servers());
    }

    @Test
    void stableAndBuiltInReadOnlyFunctionsStillGoToOneBackend() throws Exception {
        Run stable = run("SELECT stable_func()");
        assertThat(stable.results()).containsExactly("rows [42|]");
        assertThat(stable.backends()).isEqualTo(1);
        long ranOn = servers().stream()
                .filter(s -> {
                    try {
                        return rowsOn(s, "SELECT is_called FROM stable_calls").equals(List.of("t|"));
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .count();
        assertThat(ranOn).as("backends where stable_func() ran").isEqualTo(1);

        Run lower =
                run("SELECT lower('X'), count(*) FROM calls_log WHERE id > 0 GROUP BY abs(id) ORDER BY coalesce(1, 2)");
        assertThat(lower.backends()).isEqualTo(1);
    }

    @Test
    void functionDdlThroughTheControllerCountsAtOnce() throws Exception {
        execute("CREATE FUNCTION fresh_writer() RETURNS int LANGUAGE plpgsql AS $$"
                + " BEGIN INSERT INTO calls_log (who) VALUES ('fresh_writer'); RETURN 2; END $$");
        assertThat(run("SELECT fresh_writer()").backends()).isEqualTo(3);
        assertRowsOnEach(servers(), "SELECT who FROM calls_log WHERE who = 'fresh_writer'", "fresh_writer|");

        // One text, routed by what the function is at each execution.
        execute("CREATE FUNCTION turncoat() RETURNS int IMMUTABLE LANGUAGE sql AS 'SELECT 3'");
        assertThat(run("SELECT turncoat()").backends()).as("immutable").isEqualTo(1);
        execute("CREATE OR REPLACE FUNCTION turncoat() RETURNS int VOLATILE LANGUAGE plpgsql AS $$"
                + " BEGIN INSERT INTO calls_log (who) VALUES ('turncoat'); RETURN 3; END $$");
        assertThat(run("SELECT turncoat()").backends()).as("volatile now").isEqualTo(3);
        assertRowsOnEach(servers(), "SELECT who FROM calls_log WHERE who = 'turncoat'", "turncoat|");
        execute("CREATE OR REPLACE FUNCTION turncoat() RETURNS int STABLE LANGUAGE sql AS 'SELECT 3'");
        assertThat(run("SELECT turncoat()").backends()).as("stable again").isEqualTo(1);
        execute("ALTER FUNCTION turncoat() VOLATILE");
        assertThat(run("SELECT turncoat()").backends())
                .as("altered to volatile")
                .isEqualTo(3);
        assertIdentical(servers());
    }

    @Test
    void functionDdlInsideATransactionCountsBeforeAndAfterItsCommit() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("CREATE FUNCTION tx_writer() RETURNS int LANGUAGE plpgsql AS $$"
                    + " BEGIN INSERT INTO calls_log (who) VALUES ('tx_writer'); RETURN 4; END $$");
            assertThat(results(st, "SELECT tx_writer()")).containsExactly("rows [4|]");
            c.commit();
        }
        assertRowsOnEach(servers(), "SELECT who FROM calls_log WHERE who = 'tx_writer'", "tx_writer|");
        assertThat(run("SELECT tx_writer()").backends())
                .as("after the commit, from the catalogue")
                .isEqualTo(3);
        assertIdentical(servers());
    }
}
