package org.raidb.controller.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
 * Issue 11: a text holding several statements was routed by its first statement, so {@code SELECT 1;
 * DROP TABLE victim} dropped the table on one backend only. Every statement of it counts now.
 */
class MultiStatementIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    static ControllerFixture raidb;

    @BeforeAll
    static void startController() throws Exception {
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

    /** What pgjdbc hands out for the text on one server, run in a transaction that is rolled back. */
    private static List<String> resultsOfPgjdbc(String sql) throws SQLException {
        try (Connection c = pg.server(0).connect();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            try {
                return results(st, sql);
            } finally {
                c.rollback();
            }
        }
    }

    /** The text's results through the controller, which must be those pgjdbc gives for it. */
    private static List<String> answeredAsPostgresqlAnswers(String sql) throws SQLException {
        List<String> expected = resultsOfPgjdbc(sql);
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            List<String> actual = results(st, sql);
            assertThat(actual).as("results of %s", sql).isEqualTo(expected);
            return actual;
        }
    }

    private static void createOnEveryBackend(String ddl) throws SQLException {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute(ddl);
        }
    }

    @Test
    void selectThenDropTableDropsItOnEveryBackend() throws Exception {
        createOnEveryBackend("CREATE TABLE victim (id int)");
        assertThat(answeredAsPostgresqlAnswers("SELECT 1; DROP TABLE victim")).containsExactly("rows [1|]", "count 0");
        for (EmbeddedPostgresServer s : servers()) {
            assertThat(PostgresClusterExtension.publicTables(s))
                    .as("tables of %s", s.name())
                    .doesNotContain("victim");
        }
    }

    @Test
    void selectThenInsertInsertsOnEveryBackendAndAnswersAsPostgresqlDoes() throws Exception {
        createOnEveryBackend("CREATE TABLE bs (id int PRIMARY KEY, v text)");
        assertThat(answeredAsPostgresqlAnswers(
                        "SELECT 1; INSERT INTO bs VALUES (-1,'x'); SELECT v FROM bs WHERE id = -1"))
                .containsExactly("rows [1|]", "count 1", "rows [x|]");
        assertRowsOnEach(servers(), "SELECT id, v FROM bs", "-1|x|");
        assertIdentical(servers());
    }

    @Test
    void semicolonsInLiteralsCommentsAndDollarQuotesHideNoStatement() throws Exception {
        createOnEveryBackend("CREATE TABLE quoted (id int, v text)");
        // JSqlParser reads these literals; a tagged $t$…$t$ or E'\'…' it does not, which makes a conservative write.
        String oneRead = "SELECT 'a;b', $$;$$, \"c;d\" /* ; */ -- ;\n FROM quoted AS \"c;d\"";
        String hiddenWrite =
                "SELECT 'a;b', $t$ ; $t$, E'\\';' /* ; */ -- ;\n; INSERT INTO quoted VALUES (1, 'after the comment')";
        long before = served(raidb, "shop");
        answeredAsPostgresqlAnswers(oneRead);
        assertThat(served(raidb, "shop") - before)
                .as("one statement, a read: one backend")
                .isEqualTo(1);
        answeredAsPostgresqlAnswers(hiddenWrite);
        assertRowsOnEach(servers(), "SELECT id, v FROM quoted", "1|after the comment|");
    }

    @Test
    void nonDeterministicCallsAreReplacedInTheWritesButNotInTheDdl() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute(
                    "CREATE TABLE stamped (id int, at timestamptz DEFAULT now(), r float8); "
                            + "INSERT INTO stamped VALUES (1, now(), random()); SELECT 1; INSERT INTO stamped VALUES (2, now(), random())");
        }
        assertRowsOnEach(
                servers(),
                "SELECT pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d JOIN pg_class t"
                        + " ON t.oid = d.adrelid WHERE t.relname = 'stamped'",
                "now()|");
        List<String> rows = rowsOn(pg.server(0), "SELECT id, at, r FROM stamped ORDER BY id");
        assertThat(rows).hasSize(2);
        for (EmbeddedPostgresServer s : servers()) {
            assertThat(rowsOn(s, "SELECT id, at, r FROM stamped ORDER BY id"))
                    .as("rows on %s", s.name())
                    .isEqualTo(rows);
        }
        assertThat(rowsOn(pg.server(0), "SELECT count(DISTINCT at), count(DISTINCT r) FROM stamped"))
                .as("now() is one instant, each random() its own value")
                .containsExactly("1|2|");
    }

    @Test
    void transactionControlAndSettingsInsideAreRefusedAndNothingRuns() throws Exception {
        createOnEveryBackend("CREATE TABLE kept (id int)");
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            for (String sql : List.of(
                    "INSERT INTO kept VALUES (1); COMMIT",
                    "BEGIN; INSERT INTO kept VALUES (2)",
                    "SET search_path TO nowhere; DROP TABLE kept")) {
                assertThatThrownBy(() -> st.execute(sql))
                        .as(sql)
                        .isInstanceOf(SQLException.class)
                        .hasMessageContaining("statement of its own")
                        .satisfies(e ->
                                assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
            }
            assertThat(results(st, "SELECT count(*) FROM kept"))
                    .as("the session goes on")
                    .containsExactly("rows [0|]");
        }
        assertRowsOnEach(servers(), "SELECT count(*) FROM kept", "0|");
    }

    @Test
    void theRefuseOptionRefusesEveryTextOfSeveralStatements() throws Exception {
        createOnEveryBackend("CREATE TABLE refused (id int)");
        try (ControllerFixture refusing = ControllerFixture.start(
                        pg.controllerConfig("shop").extraXml("<determinism multiStatements=\"refuse\"/>"), "shop");
                Connection c = refusing.connect();
                Statement st = c.createStatement()) {
            assertThatThrownBy(() -> st.execute("SELECT 1; INSERT INTO refused VALUES (1)"))
                    .hasMessageContaining("multiStatements")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
            assertThat(st.executeUpdate("INSERT INTO refused VALUES (2);"))
                    .as("one statement and its semicolon")
                    .isEqualTo(1);
            assertThat(results(st, "SELECT ';' FROM refused")).containsExactly("rows [;|]");
        }
        assertRowsOnEach(servers(), "SELECT id FROM refused", "2|");
    }
}
