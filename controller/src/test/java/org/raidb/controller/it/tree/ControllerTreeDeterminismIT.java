package org.raidb.controller.it.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * Determinism through child controllers (issue 18 item 5): a RAIDb-1 parent over two child controllers
 * (mirrored, then partitioned) reads the catalogue of what is behind them, so that a write leaving a
 * volatile default (now(), clock_timestamp(), gen_random_uuid()) or a serial key to the backend stores
 * the same values on every leaf of both children, and a volatile trigger is refused by the parent's own
 * policy.
 */
class ControllerTreeDeterminismIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(4).database("shop");

    private static final String EVENTS = "CREATE TABLE events (id serial PRIMARY KEY, note text NOT NULL,"
            + " at timestamptz DEFAULT now(), seen timestamptz DEFAULT clock_timestamp(),"
            + " tok uuid DEFAULT gen_random_uuid())";
    private static final String ROWS = "SELECT id, note, at, seen, tok FROM events ORDER BY id";

    @Test
    void volatileDefaultsAndSerialKeysAreTheSameOnEveryLeafOfTwoMirroredChildren() throws Exception {
        pg.cluster().recreateDatabases();
        try (ControllerFixture c1 = child(0, 1, "<raidb1/>");
                ControllerFixture c2 = child(2, 3, "<raidb1/>");
                ControllerFixture parent = ControllerFixture.startFromXml(parentXml("", c1.url(), c2.url()), "shop")) {
            try (Connection c = parent.connect();
                    Statement st = c.createStatement()) {
                st.execute(EVENTS);
            }
            insertEveryWay(parent);

            List<String> leaf0 = ReplicaChecks.rowsOn(pg.server(0), ROWS);
            assertThat(leaf0).as("rows on the first leaf").hasSize(10);
            assertThat(leaf0).as("every volatile default filled").noneMatch(row -> row.contains("|null"));
            ReplicaChecks.assertRowsOnEach(allLeaves(), ROWS, leaf0.toArray(String[]::new));
            ReplicaChecks.assertIdentical(allLeaves());
            parent.assertEveryBackendEnabled();
        }
    }

    @Test
    void volatileDefaultsAreTheSameOnEveryHolderUnderTwoPartitionedChildren() throws Exception {
        pg.cluster().recreateDatabases();
        // Each child keeps events on its first leaf and notes on its second: whichever leaf answers the
        // parent's catalogue query, one table's defaults must come from the other.
        try (ControllerFixture c1 = child(0, 1, partitioned(0, 1));
                ControllerFixture c2 = child(2, 3, partitioned(2, 3));
                ControllerFixture parent = ControllerFixture.startFromXml(parentXml("", c1.url(), c2.url()), "shop")) {
            try (Connection c = parent.connect();
                    Statement st = c.createStatement()) {
                st.execute(EVENTS);
                st.execute("CREATE TABLE notes (id int PRIMARY KEY, at timestamptz DEFAULT clock_timestamp(),"
                        + " tok uuid DEFAULT gen_random_uuid())");
                st.executeUpdate("INSERT INTO notes (id) VALUES (1), (2)");
            }
            insertEveryWay(parent);

            List<String> events = ReplicaChecks.rowsOn(pg.server(0), ROWS);
            assertThat(events).hasSize(10).noneMatch(row -> row.contains("|null"));
            ReplicaChecks.assertRowsOnEach(List.of(pg.server(2)), ROWS, events.toArray(String[]::new));
            String notesRows = "SELECT id, at, tok FROM notes ORDER BY id";
            List<String> notes = ReplicaChecks.rowsOn(pg.server(1), notesRows);
            assertThat(notes).hasSize(2).noneMatch(row -> row.contains("|null"));
            ReplicaChecks.assertRowsOnEach(List.of(pg.server(3)), notesRows, notes.toArray(String[]::new));
            parent.assertEveryBackendEnabled();
        }
    }

    @Test
    void aVolatileTriggerCreatedThroughTheParentIsRefusedByTheParentsPolicy() throws Exception {
        pg.cluster().recreateDatabases();
        // The children warn (the default); only the parent refuses.
        try (ControllerFixture c1 = child(0, 1, "<raidb1/>");
                ControllerFixture c2 = child(2, 3, "<raidb1/>");
                ControllerFixture parent = ControllerFixture.startFromXml(
                        parentXml("<determinism onVolatileTrigger=\"refuse\"/>", c1.url(), c2.url()), "shop");
                Connection c = parent.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE docs (id int PRIMARY KEY, touched timestamptz)");
            st.execute("CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                    + " NEW.touched := clock_timestamp(); RETURN NEW; END $$");
            st.execute("CREATE TRIGGER docs_touch BEFORE INSERT ON docs FOR EACH ROW EXECUTE FUNCTION touch()");
            assertThatThrownBy(() -> st.executeUpdate("INSERT INTO docs (id) VALUES (1)"))
                    .hasMessageContaining("docs_touch")
                    .hasMessageContaining("clock_timestamp()")
                    .hasMessageContaining("onVolatileTrigger")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
            // The session goes on; without the trigger the write passes and is the same everywhere.
            st.execute("DROP TRIGGER docs_touch ON docs");
            st.executeUpdate("INSERT INTO docs (id, touched) VALUES (1, now())");
            ReplicaChecks.assertRowsOnEach(allLeaves(), "SELECT count(*) FROM docs", "1|");
            ReplicaChecks.assertIdentical(allLeaves());
        }
    }

    /** Ten rows of events, each leaving its volatile columns and its key to the defaults. */
    private static void insertEveryWay(ControllerFixture parent) throws SQLException {
        try (Connection c = parent.connect();
                Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO events (note) VALUES ('auto-commit')");
            st.executeUpdate("INSERT INTO events (note) VALUES ('multi 1'), ('multi 2'), ('multi 3')");
            st.executeUpdate("INSERT INTO events (note, at, tok) VALUES ('written defaults', DEFAULT, DEFAULT)");
            c.setAutoCommit(false);
            st.executeUpdate("INSERT INTO events (note) VALUES ('transaction 1')");
            st.executeUpdate("INSERT INTO events (note) VALUES ('transaction 2')");
            c.commit();
            c.setAutoCommit(true);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO events (note) VALUES (?)")) {
                for (int i = 1; i <= 3; i++) {
                    ps.setString(1, "batch " + i);
                    ps.addBatch();
                }
                assertThat(ps.executeBatch()).hasSize(3);
            }
        }
    }

    private static ControllerFixture child(int leaf1, int leaf2, String replication) throws Exception {
        return ControllerTrees.child(pg, leaf1, leaf2, replication);
    }

    /** RAIDb-0 over two leaves: events created on the first, notes on the second. */
    private static String partitioned(int leaf1, int leaf2) {
        return ControllerTrees.partitioned(pg, leaf1, "events", leaf2, "notes");
    }

    private static List<EmbeddedPostgresServer> allLeaves() {
        return pg.cluster().servers();
    }

    /** A RAIDb-1 controller serving "shop" over the child controllers, {@code determinism} before the replication. */
    private static String parentXml(String determinism, String... childUrls) {
        return ControllerTrees.parentXml(0, "shop", determinism + "\n    <raidb1/>", childUrls);
    }
}
