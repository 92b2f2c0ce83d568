package org.raidb.controller.it.determinism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.raidb.controller.it.support.ReplicaChecks.assertRowsOnEach;
import static org.raidb.controller.it.support.ReplicaChecks.results;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.SortedSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * Issue 11: PostgreSQL cuts identifiers to 63 bytes, so {@code CREATE TABLE} with a 70-character
 * name makes a table of the first 63. The controller knew it by all 70 while a backend that read its
 * schema knew the 63, and routing (RAIDb-2, by the tables each backend holds) found no backend for
 * the other spelling. Now every list holds the name the servers hold, and either spelling reaches it.
 */
class LongIdentifierIT {
    private static final String LONG = "orders_kept_for_the_auditors_of_the_northern_region_until_twentythirty";
    private static final String KEPT = LONG.substring(0, 63);

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    static ControllerFixture raidb;

    @BeforeAll
    static void startController() throws Exception {
        raidb = ControllerFixture.start(
                pg.controllerConfig("shop")
                        .replication(
                                "<raidb2 readPolicy=\"roundRobin\" completion=\"all\"><createTable policy=\"all\"/></raidb2>"),
                "shop");
    }

    @AfterAll
    static void stopController() {
        if (raidb != null) {
            raidb.close();
        }
    }

    private static List<String> run(String sql) throws SQLException {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            return results(st, sql);
        }
    }

    /** Each backend's list in the controller is what its server holds, and all lists are the same. */
    private static void assertListsAreTheServers() {
        List<DatabaseBackend> backends =
                raidb.controller().virtualDatabase("shop").backends();
        SortedSet<String> first = PostgresClusterExtension.publicTables(pg.server(0));
        for (DatabaseBackend b : backends) {
            EmbeddedPostgresServer server = pg.server(b.name());
            assertThat(b.tables().served())
                    .as("the controller's list for %s", b.name())
                    .isEqualTo(PostgresClusterExtension.publicTables(server))
                    .isEqualTo(first);
        }
    }

    @Test
    void aSeventyCharacterNameIsOneTableUnderEitherSpelling() throws Exception {
        assertThat(LONG).hasSize(70);
        run("CREATE TABLE " + LONG + " (id int PRIMARY KEY, via text)");
        assertListsAreTheServers();
        assertThat(PostgresClusterExtension.publicTables(pg.server(0)))
                .contains(KEPT)
                .doesNotContain(LONG);

        assertThat(run("INSERT INTO " + LONG + " VALUES (1, 'long')")).containsExactly("count 1");
        assertThat(run("INSERT INTO " + KEPT + " VALUES (2, 'kept')")).containsExactly("count 1");
        assertThat(run("SELECT via FROM " + LONG + " ORDER BY id")).containsExactly("rows [long|, kept|]");
        assertThat(run("SELECT via FROM " + KEPT + " ORDER BY id")).containsExactly("rows [long|, kept|]");
        assertRowsOnEach(pg.cluster().servers(), "SELECT id, via FROM " + KEPT + " ORDER BY id", "1|long|", "2|kept|");

        run("ALTER TABLE " + KEPT + " RENAME TO renamed_" + LONG);
        assertListsAreTheServers();
        assertThat(PostgresClusterExtension.publicTables(pg.server(0))).contains(("renamed_" + LONG).substring(0, 63));
        run("DROP TABLE renamed_" + LONG);
        assertListsAreTheServers();
        assertThat(PostgresClusterExtension.publicTables(pg.server(0))).noneMatch(t -> t.startsWith("renamed_"));
    }

    @Test
    void aQuotedMultiByteNameIsCutAtACharacterBoundary() throws Exception {
        String written = "\"" + "é".repeat(40) + "\"";
        String kept = "\"" + "é".repeat(31) + "\""; // 62 bytes: a 32nd é would make 64
        run("CREATE TABLE " + written + " (id int)");
        run("INSERT INTO " + kept + " VALUES (1)");
        assertThat(run("SELECT count(*) FROM " + written)).containsExactly("rows [1|]");
        assertListsAreTheServers();
    }
}
