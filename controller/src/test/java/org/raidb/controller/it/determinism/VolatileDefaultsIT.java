package org.raidb.controller.it.determinism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.defaults.VolatileCatalog;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.test.PostgresClusterExtension;
import org.slf4j.LoggerFactory;

/**
 * Writes that rely on volatile column defaults (now(), gen_random_uuid()) leave the same rows on
 * every backend: the controller writes the defaults in and replaces their calls with literals it
 * computes once. Every check reads each backend directly with pgjdbc.
 */
class VolatileDefaultsIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static final String EVENTS = "CREATE TABLE events (id int PRIMARY KEY, at timestamptz DEFAULT now(),"
            + " tok uuid DEFAULT gen_random_uuid(), note text)";

    private final ListAppender<ILoggingEvent> catalogLog = new ListAppender<>();

    @BeforeEach
    void freshDatabasesAndLog() {
        pg.cluster().recreateDatabases();
        catalogLog.start();
        ((Logger) LoggerFactory.getLogger(VolatileCatalog.class)).addAppender(catalogLog);
    }

    @AfterEach
    void detachLog() {
        ((Logger) LoggerFactory.getLogger(VolatileCatalog.class)).detachAppender(catalogLog);
    }

    private static List<ReplicaChecks.Backend> backends() {
        return pg.cluster().servers().stream()
                .map(s -> (ReplicaChecks.Backend) s::connect)
                .toList();
    }

    private static List<String> sameOnEveryBackend(String query) throws SQLException {
        return ReplicaChecks.assertSameOnEvery(backends(), query);
    }

    @Test
    void insertsRelyingOnVolatileDefaultsStoreTheSameValuesEverywhere() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute(EVENTS);
            st.execute(
                    "CREATE TABLE tickets (id serial PRIMARY KEY, at timestamptz DEFAULT now(), tok uuid DEFAULT gen_random_uuid())");
            st.executeUpdate("INSERT INTO events (id) VALUES (1)");
            st.executeUpdate("INSERT INTO events (id, note) VALUES (2, 'b'), (3, 'c'), (4, 'd')");
            st.executeUpdate("INSERT INTO events VALUES (5, DEFAULT, DEFAULT, 'e')");
            st.executeUpdate("INSERT INTO tickets DEFAULT VALUES");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO events (id, note) VALUES (?, ?)")) {
                for (int i = 10; i < 15; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "batch " + i);
                    ps.addBatch();
                }
                assertThat(ps.executeBatch()).containsExactly(1, 1, 1, 1, 1);
            }
            st.executeUpdate(
                    "INSERT INTO events (id, note) VALUES (1, 'again') ON CONFLICT (id) DO UPDATE SET note = EXCLUDED.note,"
                            + " at = EXCLUDED.at, tok = EXCLUDED.tok");
            st.executeUpdate("INSERT INTO events (id) VALUES (2), (20) ON CONFLICT DO NOTHING");
            c.setAutoCommit(false);
            st.executeUpdate("INSERT INTO events (id) VALUES (30)");
            st.executeUpdate("INSERT INTO events (id) VALUES (31)");
            c.commit();
            c.setAutoCommit(true);

            assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM events")).isEqualTo(13);
            assertThat(ReplicaChecks.count(c, "SELECT count(DISTINCT tok) FROM events"))
                    .as("every row its own UUID")
                    .isEqualTo(13);
            assertThat(ReplicaChecks.count(c, "SELECT count(DISTINCT at) FROM events WHERE id IN (2, 3, 4)"))
                    .as("one now() per statement")
                    .isEqualTo(1);
            assertThat(ReplicaChecks.count(c, "SELECT count(DISTINCT at) FROM events WHERE id IN (30, 31)"))
                    .as("now() is the transaction's start")
                    .isEqualTo(1);
            assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM events WHERE id = 1 AND note = 'again'"))
                    .isEqualTo(1);
        }
        sameOnEveryBackend("SELECT id, at, tok, note FROM events ORDER BY id");
        sameOnEveryBackend("SELECT id, at, tok FROM tickets ORDER BY id");
    }

    @Test
    void aTextOfSeveralStatementsRelyingOnAVolatileDefaultIsRefusedAndChangesNothing() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute(EVENTS);
            st.execute("CREATE TABLE plain (id int PRIMARY KEY, at timestamptz)");
            assertThatThrownBy(
                            () -> st.execute("INSERT INTO plain VALUES (1, now()); INSERT INTO events (id) VALUES (1)"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("0A000");
                        assertThat(e.getMessage()).contains("events").contains("one at a time");
                    });
            st.execute("INSERT INTO plain VALUES (2, now()); INSERT INTO plain VALUES (3, now())");
            assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM events")).isZero();
        }
        assertThat(sameOnEveryBackend("SELECT id, at FROM plain ORDER BY id")).hasSize(2);
    }

    @Test
    void returningGivesTheValuesTheBackendsStored() throws Exception {
        List<String> returned = new ArrayList<>();
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute(EVENTS);
            try (ResultSet rs =
                    st.executeQuery("INSERT INTO events (id) VALUES (1), (2) RETURNING id, at, tok, note")) {
                while (rs.next()) {
                    returned.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3) + "|" + rs.getString(4)
                            + "|");
                }
            }
        }
        assertThat(sameOnEveryBackend("SELECT id, at, tok, note FROM events ORDER BY id"))
                .isEqualTo(returned);
    }

    @Test
    void addColumnWithNowDefaultGivesTheRowsAlreadyThereOneValueAndKeepsTheDefault() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE items (id int PRIMARY KEY)");
            st.executeUpdate("INSERT INTO items SELECT generate_series(1, 50)");
            st.execute("ALTER TABLE items ADD COLUMN added timestamptz NOT NULL DEFAULT now()");
            st.executeUpdate("INSERT INTO items (id) VALUES (51)");
            assertThat(ReplicaChecks.count(c, "SELECT count(DISTINCT added) FROM items WHERE id <= 50"))
                    .isEqualTo(1);
            assertThat(ReplicaChecks.count(
                            c, "SELECT count(*) FROM items WHERE added < (SELECT added FROM items WHERE id = 51)"))
                    .isEqualTo(50);
        }
        sameOnEveryBackend("SELECT id, added FROM items ORDER BY id");
        assertThat(sameOnEveryBackend("SELECT column_default FROM information_schema.columns WHERE table_name = 'items'"
                        + " AND column_name = 'added'"))
                .containsExactly("now()|");
    }

    @Test
    void addColumnWithAPerRowDefaultIsRefusedAndChangesNothing() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE items (id int PRIMARY KEY)");
            st.executeUpdate("INSERT INTO items VALUES (1), (2)");
            assertThatThrownBy(() -> st.execute("ALTER TABLE items ADD COLUMN tok uuid DEFAULT gen_random_uuid()"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("SET DEFAULT gen_random_uuid()")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
            st.executeUpdate("INSERT INTO items VALUES (3)"); // the session goes on
        }
        assertThat(sameOnEveryBackend("SELECT count(*) FROM information_schema.columns WHERE table_name = 'items'"))
                .containsExactly("1|");
    }

    @Test
    void insertSelectGetsNowButIsRefusedForAPerRowDefault() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute(EVENTS);
            st.execute("CREATE TABLE stamps (id int PRIMARY KEY, at timestamptz DEFAULT now())");
            st.executeUpdate("INSERT INTO stamps (id) SELECT generate_series(1, 20)");
            assertThatThrownBy(() -> st.executeUpdate("INSERT INTO events (id) SELECT id FROM stamps"))
                    .hasMessageContaining("gen_random_uuid()")
                    .hasMessageContaining("VALUES")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
            assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM events")).isZero();
        }
        sameOnEveryBackend("SELECT id, at FROM stamps ORDER BY id");
    }

    /** Flyway's own history table (its PostgreSQL DDL and insert), written in the migration's transaction. */
    @Test
    void flywaySchemaHistoryInstalledOnIsTheSameEverywhere() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute(
                    "CREATE TABLE \"public\".\"flyway_schema_history\" (\"installed_rank\" INT NOT NULL, \"version\" VARCHAR(50),"
                            + " \"description\" VARCHAR(200) NOT NULL, \"type\" VARCHAR(20) NOT NULL, \"script\" VARCHAR(1000) NOT NULL,"
                            + " \"checksum\" INT, \"installed_by\" VARCHAR(100) NOT NULL, \"installed_on\" TIMESTAMP NOT NULL DEFAULT now(),"
                            + " \"execution_time\" INT NOT NULL, \"success\" BOOLEAN NOT NULL)");
            st.execute("ALTER TABLE \"public\".\"flyway_schema_history\" ADD CONSTRAINT \"flyway_schema_history_pk\""
                    + " PRIMARY KEY (\"installed_rank\")");
            c.setAutoCommit(false);
            // V1 creates a table with a volatile default and fills it in the same transaction, before its history row.
            st.execute("CREATE TABLE person (id int PRIMARY KEY, created timestamptz DEFAULT clock_timestamp())");
            st.executeUpdate("INSERT INTO person (id) VALUES (1), (2)");
            try (PreparedStatement history = c.prepareStatement("INSERT INTO \"public\".\"flyway_schema_history\""
                    + " (\"installed_rank\", \"version\", \"description\", \"type\", \"script\", \"checksum\", \"installed_by\","
                    + " \"execution_time\", \"success\") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                history.setInt(1, 1);
                history.setString(2, "1");
                history.setString(3, "create person");
                history.setString(4, "SQL");
                history.setString(5, "V1__create_person.sql");
                history.setInt(6, 12345);
                history.setString(7, "app");
                history.setInt(8, 7);
                history.setBoolean(9, true);
                history.executeUpdate();
            }
            c.commit();
        }
        sameOnEveryBackend("SELECT installed_rank, installed_on FROM flyway_schema_history");
        sameOnEveryBackend("SELECT id, created FROM person ORDER BY id");
    }

    @Test
    void defaultsChangedInRolledBackCommittedAndBatchedDdlAreFollowed() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection c = raidb.connect();
                Statement st = c.createStatement();
                Connection other = raidb.connect();
                Statement elsewhere = other.createStatement()) {
            st.execute("CREATE TABLE notes (id int PRIMARY KEY, body text)");
            c.setAutoCommit(false);
            st.execute("ALTER TABLE notes ADD COLUMN dropped timestamptz DEFAULT now()");
            c.rollback();
            st.executeUpdate("INSERT INTO notes (id) VALUES (0)"); // without the column the rollback took away
            st.execute("ALTER TABLE notes ADD COLUMN kept timestamptz");
            st.execute("ALTER TABLE notes ALTER COLUMN kept SET DEFAULT clock_timestamp()");
            st.executeUpdate("INSERT INTO notes (id) VALUES (1)"); // this transaction's own view
            c.commit();
            c.setAutoCommit(true);
            elsewhere.executeUpdate("INSERT INTO notes (id) VALUES (2)"); // committed: every session's
            st.addBatch("ALTER TABLE notes ALTER COLUMN body SET DEFAULT gen_random_uuid()::text");
            st.executeBatch();
            elsewhere.executeUpdate("INSERT INTO notes (id) VALUES (3)");
            assertThat(ReplicaChecks.count(other, "SELECT count(*) FROM notes WHERE body IS NOT NULL"))
                    .isEqualTo(1);
        }
        sameOnEveryBackend("SELECT id, body, kept FROM notes ORDER BY id");
    }

    @Test
    void aTriggerCallingNowIsWarnedAboutOnceNamingIt() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE docs (id int PRIMARY KEY, touched timestamptz)");
            st.execute(
                    "CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.touched := now(); RETURN NEW; END $$");
            st.execute(
                    "CREATE TRIGGER docs_touch BEFORE INSERT OR UPDATE ON docs FOR EACH ROW EXECUTE FUNCTION touch()");
            st.execute("CREATE INDEX docs_touched ON docs (touched)"); // more DDL on the table: no second warning
            st.executeUpdate("INSERT INTO docs (id) VALUES (1)"); // warned, not refused
        }
        assertThat(warningsNaming("docs_touch"))
                .hasSize(1)
                .first()
                .asString()
                .contains("table docs")
                .contains("touch")
                .contains("now()");
        catalogLog.list.clear();
        try (ControllerFixture restarted = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            assertThat(warningsNaming("docs_touch")).as("warned at start-up").hasSize(1);
        }
    }

    @Test
    void withRefuseWritesToATableWithAVolatileTriggerFailUntilItIsDropped() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(
                        pg.controllerConfig("shop").extraXml("<determinism onVolatileTrigger=\"refuse\"/>"), "shop");
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE docs (id int PRIMARY KEY, touched timestamptz)");
            st.execute(
                    "CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.touched := clock_timestamp();"
                            + " RETURN NEW; END $$");
            st.execute("CREATE TRIGGER docs_touch BEFORE INSERT ON docs FOR EACH ROW EXECUTE FUNCTION touch()");
            assertThatThrownBy(() -> st.executeUpdate("INSERT INTO docs (id) VALUES (1)"))
                    .hasMessageContaining("docs_touch")
                    .hasMessageContaining("clock_timestamp()")
                    .hasMessageContaining("onVolatileTrigger")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
            st.execute("DROP TRIGGER docs_touch ON docs");
            st.executeUpdate("INSERT INTO docs (id, touched) VALUES (1, now())");
        }
        sameOnEveryBackend("SELECT id, touched FROM docs");
    }

    @Test
    void aBackendEnabledByReplayStoresTheSameValuesAsTheOthers() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute(EVENTS);
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            DatabaseBackend pg3 = vdb.backend("pg3");
            vdb.disableBackend(pg3, "taken out by the test").join();
            st.executeUpdate("INSERT INTO events (id) VALUES (1), (2)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO events (id) VALUES (?)")) {
                for (int i = 3; i <= 5; i++) {
                    ps.setInt(1, i);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            st.execute("ALTER TABLE events ADD COLUMN seen date DEFAULT current_date");
            vdb.recovery().enable(pg3).run(Progress.NONE);
            assertThat(pg3.isEnabled()).isTrue();
        }
        sameOnEveryBackend("SELECT id, at, tok, seen FROM events ORDER BY id");
    }

    private List<String> warningsNaming(String trigger) {
        return catalogLog.list.stream()
                .filter(e -> e.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.contains(trigger))
                .toList();
    }
}
