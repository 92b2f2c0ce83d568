package org.raidb.controller.it.determinism;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.MariaDbBackends;
import org.raidb.controller.it.support.ReplicaChecks;

/**
 * Two databases of the local MariaDB as the backends of one virtual database: DEFAULT
 * CURRENT_TIMESTAMP(6), DEFAULT uuid() and ON UPDATE CURRENT_TIMESTAMP(6) leave the same rows in
 * both. Microsecond precision, so that two backends running the same statement can never agree by
 * chance.
 */
class VolatileDefaultsMariaDbIT {
    private static final List<String> DATABASES = List.of("raidb_volatile_one", "raidb_volatile_two");

    @BeforeEach
    void databases() throws SQLException {
        MariaDbBackends.recreate(DATABASES);
    }

    @AfterEach
    void dropDatabases() throws SQLException {
        MariaDbBackends.drop(DATABASES);
    }

    private static ControllerFixture controller() throws Exception {
        return MariaDbBackends.controller(DATABASES);
    }

    private static List<String> sameInBothDatabases(String query) throws SQLException {
        return MariaDbBackends.sameInEvery(DATABASES, query);
    }

    @Test
    void defaultCurrentTimestampAndUuidAreTheSameInBothDatabases() throws Exception {
        try (ControllerFixture raidb = controller();
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE events (id INT PRIMARY KEY, at DATETIME(6) DEFAULT CURRENT_TIMESTAMP(6),"
                    + " tok CHAR(36) DEFAULT uuid(), note VARCHAR(20))");
            st.executeUpdate("INSERT INTO events (id) VALUES (1), (2)");
            st.executeUpdate("INSERT INTO events SET id = 3");
            st.executeUpdate("INSERT INTO events VALUES (4, DEFAULT, DEFAULT, 'd')");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO events (id) VALUES (?)")) {
                for (int i = 5; i <= 7; i++) {
                    ps.setInt(1, i);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            assertThat(ReplicaChecks.count(c, "SELECT count(DISTINCT tok) FROM events"))
                    .as("every row its own uuid()")
                    .isEqualTo(7);
        }
        sameInBothDatabases("SELECT id, at, tok, note FROM events ORDER BY id");
        assertThat(sameInBothDatabases(
                        "SELECT COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()"
                                + " AND TABLE_NAME = 'events' AND COLUMN_NAME = 'tok'"))
                .as("the default is still a call")
                .containsExactly("uuid()|");
    }

    @Test
    void onUpdateCurrentTimestampIsTheSameInBothDatabases() throws Exception {
        try (ControllerFixture raidb = controller();
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE docs (id INT PRIMARY KEY, body VARCHAR(20),"
                    + " changed TIMESTAMP(6) NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP(6))");
            st.executeUpdate("INSERT INTO docs (id, body) VALUES (1, 'a'), (2, 'b'), (3, 'c')");
            st.executeUpdate("UPDATE docs SET body = 'x' WHERE id = 1");
            st.executeUpdate("INSERT INTO docs (id, body) VALUES (2, 'y') ON DUPLICATE KEY UPDATE body = 'y'");
            assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM docs WHERE changed IS NOT NULL"))
                    .isEqualTo(2);
        }
        sameInBothDatabases("SELECT id, body, changed FROM docs ORDER BY id");
    }

    @Test
    void addColumnDefaultCurrentTimestampGivesTheRowsAlreadyThereOneValue() throws Exception {
        try (ControllerFixture raidb = controller();
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE items (id INT PRIMARY KEY)");
            st.executeUpdate("INSERT INTO items VALUES (1), (2), (3)");
            st.execute("ALTER TABLE items ADD COLUMN added DATETIME(6) DEFAULT CURRENT_TIMESTAMP(6)");
            st.executeUpdate("INSERT INTO items (id) VALUES (4)");
        }
        sameInBothDatabases("SELECT id, added FROM items ORDER BY id");
        assertThat(sameInBothDatabases(
                        "SELECT COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()"
                                + " AND TABLE_NAME = 'items' AND COLUMN_NAME = 'added'"))
                .containsExactly("current_timestamp(6)|");
    }
}
