package org.raidb.controller.it.transactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.MariaDbBackends;
import org.raidb.controller.keys.TableKeys;
import org.raidb.controller.vdb.VirtualDatabase;

/**
 * Key-level conflict classes over two databases of the local MariaDB: its catalogue
 * (information_schema) gives keys, unique indexes, foreign keys and AUTO_INCREMENT counters, and
 * writers of different rows of one table run at once while AUTO_INCREMENT keys agree.
 */
class KeyConflictsMariaDbIT {
    private static final List<String> DATABASES = List.of("raidb_keys_one", "raidb_keys_two");

    @BeforeEach
    void databases() throws SQLException {
        MariaDbBackends.recreate(DATABASES);
    }

    @AfterEach
    void dropDatabases() throws SQLException {
        MariaDbBackends.drop(DATABASES);
    }

    @Test
    void theCatalogueGivesKeysUniqueIndexesForeignKeysAndCounters() throws Exception {
        try (ControllerFixture raidb = controller();
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE Parent (id INT PRIMARY KEY, code VARCHAR(10) UNIQUE, n DECIMAL(8, 2))");
            st.execute("CREATE TABLE child (id BIGINT AUTO_INCREMENT PRIMARY KEY, parent_id INT,"
                    + " FOREIGN KEY (parent_id) REFERENCES Parent (id) ON DELETE CASCADE)");
            VirtualDatabase vdb = raidb.controller().virtualDatabase("maria");
            TableKeys parent = vdb.keys().table("parent", null);
            assertThat(parent).as("the catalogue's parent").isNotNull();
            assertThat(parent.primaryKey().columns()).containsExactly("id");
            assertThat(parent.uniqueIndexes())
                    .extracting(TableKeys.UniqueIndex::label)
                    .containsExactly("(id)", "(code)");
            assertThat(parent.column("code").type())
                    .as("strings compare by collation")
                    .isEqualTo(TableKeys.ValueType.OTHER);
            assertThat(parent.column("n").scale()).isEqualTo(2);
            assertThat(parent.referencedBy())
                    .singleElement()
                    .satisfies(fk -> assertThat(fk.onDelete()).isEqualTo(TableKeys.Action.CASCADE));
            TableKeys child = vdb.keys().table("CHILD", null);
            assertThat(child.references()).singleElement().satisfies(fk -> {
                assertThat(fk.parent()).isEqualTo("parent");
                assertThat(fk.childColumns()).containsExactly("parent_id");
            });
            assertThat(child.column("id").counter()).as("AUTO_INCREMENT").isTrue();
        }
    }

    @Test
    void writersOfDifferentRowsRunAtOnceAndAutoIncrementKeysAgree() throws Exception {
        try (ControllerFixture raidb = controller()) {
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE r (id INT PRIMARY KEY, v VARCHAR(20))");
                st.execute("CREATE TABLE log (id BIGINT AUTO_INCREMENT PRIMARY KEY, source INT)");
                st.executeUpdate("INSERT INTO r VALUES (1, 'x'), (2, 'x')");
            }
            try (Connection b = raidb.connect();
                    Statement sb = b.createStatement();
                    Connection a = raidb.connect();
                    Statement sa = a.createStatement()) {
                a.setAutoCommit(false);
                b.setAutoCommit(false);
                sa.executeUpdate("UPDATE r SET v = 'a' WHERE id = 1");
                assertTimeoutPreemptively(
                        Duration.ofMinutes(2),
                        () -> assertThat(sb.executeUpdate("UPDATE r SET v = 'b' WHERE id = 2"))
                                .isEqualTo(1));
                // The same row waits for A, in the controller.
                CompletableFuture<Integer> same = CompletableFuture.supplyAsync(() -> {
                    try {
                        return sb.executeUpdate("UPDATE r SET v = concat(v, 'b') WHERE id = 1");
                    } catch (SQLException e) {
                        throw new CompletionException(e);
                    }
                });
                await().atMost(1, TimeUnit.MINUTES)
                        .until(() -> raidb.controller()
                                        .virtualDatabase("maria")
                                        .scheduler()
                                        .waitingWrites()
                                == 1);
                a.commit();
                assertThat(same.get(2, TimeUnit.MINUTES)).isEqualTo(1);
                b.commit();
            }
            ConcurrentClients.run(4, source -> {
                try (Connection c = raidb.connect();
                        Statement st = c.createStatement()) {
                    for (int i = 0; i < 20; i++) {
                        st.executeUpdate("INSERT INTO log (source) VALUES (" + source + ")");
                    }
                }
            });
            raidb.assertEveryBackendEnabled();
        }
        assertThat(sameInBothDatabases("SELECT id, v FROM r ORDER BY id")).containsExactly("1|ab|", "2|b|");
        assertThat(sameInBothDatabases("SELECT id, source FROM log ORDER BY id"))
                .hasSize(80);
    }

    private static ControllerFixture controller() throws Exception {
        return MariaDbBackends.controller(DATABASES);
    }

    private static List<String> sameInBothDatabases(String query) throws SQLException {
        return MariaDbBackends.sameInEvery(DATABASES, query);
    }
}
