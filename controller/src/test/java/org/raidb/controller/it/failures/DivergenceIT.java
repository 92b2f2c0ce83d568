package org.raidb.controller.it.failures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.test.PostgresClusterExtension;

/** A backend that answers a write differently from the others is disabled, never left divergent. */
class DivergenceIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static ControllerFixture start(String completion) throws Exception {
        return ControllerFixture.start(
                pg.controllerConfig("shop")
                        .replication("<raidb1 readPolicy=\"roundRobin\" completion=\"" + completion + "\"/>"),
                "shop");
    }

    /**
     * With completion all the client is answered after the verdict; with majority as soon as two
     * backends agree, and the minority is disabled once it has answered too.
     */
    private static void awaitDisabled(DatabaseBackend b) {
        await().atMost(30, TimeUnit.SECONDS).until(() -> !b.isEnabled());
    }

    @ParameterizedTest(name = "completion {0}")
    @ValueSource(strings = {"all", "majority"})
    void aDifferentUpdateCountDisablesTheMinorityAndNamesTheStatement(String completion) throws Exception {
        pg.cluster().recreateDatabases();
        try (ControllerFixture raidb = start(completion);
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE items (id int PRIMARY KEY, qty int NOT NULL)");
            st.executeUpdate("INSERT INTO items SELECT g, 10 FROM generate_series(1, 20) g");
            // Behind the controller's back: pg2 loses a row. With completion majority the client may be answered
            // before pg2 has the rows: the row is deleted once it is there, not before (that would be no loss).
            try (Connection direct = pg.server(1).connect();
                    Statement ds = direct.createStatement()) {
                await().atMost(30, TimeUnit.SECONDS)
                        .until(() -> ds.executeUpdate("DELETE FROM items WHERE id = 5") == 1);
            }
            assertThat(st.executeUpdate("UPDATE items SET qty = qty - 1 WHERE id = 5"))
                    .as("the majority's count")
                    .isEqualTo(1);

            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            DatabaseBackend pg2 = vdb.backends().get(1);
            awaitDisabled(pg2);
            assertThat(pg2.disabledReason())
                    .contains("diverged on [UPDATE items SET qty = qty - 1 WHERE id = 5]")
                    .contains("update count 0")
                    .contains("update count 1");
            assertThat(vdb.backends().get(0).isEnabled()).isTrue();
            assertThat(vdb.backends().get(2).isEnabled()).isTrue();
            // Reads now come only from the two that agree.
            for (int i = 0; i < 6; i++) {
                try (ResultSet rs = st.executeQuery("SELECT qty FROM items WHERE id = 5")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(9);
                }
            }
        }
    }

    @ParameterizedTest(name = "completion {0}")
    @ValueSource(strings = {"all", "majority"})
    void aStatementFailingOnOneBackendOnlyDisablesThatBackend(String completion) throws Exception {
        pg.cluster().recreateDatabases();
        try (ControllerFixture raidb = start(completion);
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE logs (id int PRIMARY KEY, line text)");
            try (Connection direct = pg.server(2).connect();
                    Statement ds = direct.createStatement()) {
                // With completion majority pg3 may not have the table yet when the client is answered.
                await().atMost(30, TimeUnit.SECONDS).ignoreExceptions().until(() -> {
                    ds.execute("ALTER TABLE logs ADD CONSTRAINT short_lines CHECK (length(line) < 5)");
                    return true;
                });
            }
            assertThat(st.executeUpdate("INSERT INTO logs VALUES (1, 'a long line')"))
                    .isEqualTo(1);
            DatabaseBackend pg3 =
                    raidb.controller().virtualDatabase("shop").backends().get(2);
            awaitDisabled(pg3);
            assertThat(pg3.disabledReason()).contains("INSERT INTO logs").contains("23514");
        }
    }

    @ParameterizedTest(name = "completion {0}")
    @ValueSource(strings = {"all", "majority"})
    void anErrorEveryBackendReturnsIsTheClientsAndDisablesNobody(String completion) throws Exception {
        pg.cluster().recreateDatabases();
        try (ControllerFixture raidb = start(completion);
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE uniq (id int PRIMARY KEY)");
            st.executeUpdate("INSERT INTO uniq VALUES (1)");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> st.executeUpdate("INSERT INTO uniq VALUES (1)"))
                    .satisfies(e -> assertThat(((java.sql.SQLException) e).getSQLState())
                            .isEqualTo("23505"));
            assertThat(raidb.controller().virtualDatabase("shop").backends())
                    .allSatisfy(b -> assertThat(b.isEnabled()).isTrue());
        }
    }
}
