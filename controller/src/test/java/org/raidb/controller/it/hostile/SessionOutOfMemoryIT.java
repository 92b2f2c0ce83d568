package org.raidb.controller.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ForkedController;
import org.raidb.test.PostgresClusterExtension;

/**
 * An Error in one session (here OutOfMemoryError, in a controller with a small heap that does not exit on
 * it) ends that session alone: its transaction is rolled back and its conflict classes freed, the other
 * sessions and the controller go on. Before, the Error killed the session thread past every handler.
 */
class SessionOutOfMemoryIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    @Test
    void aSessionThatRunsOutOfMemoryEndsAloneWithItsTransactionRolledBack() throws Exception {
        try (ForkedController controller = ForkedController.start(pg.controllerConfig("shop"), "shop", "96m", false);
                Connection other = controller.connect();
                Statement os = other.createStatement()) {
            os.execute("CREATE TABLE ledger (id int)");
            try (Connection greedy = controller.connect();
                    Statement gs = greedy.createStatement()) {
                greedy.setAutoCommit(false);
                gs.executeUpdate(
                        "INSERT INTO ledger VALUES (1)"); // holds the table's write lock until its transaction ends
                // Under maxFrameBytes, so it is sent; buffering it takes more than the whole 96 MB heap.
                String huge = "SELECT '" + "x".repeat(60_000_000) + "'";
                assertThatThrownBy(() -> gs.executeQuery(huge))
                        .isInstanceOf(SQLException.class)
                        .satisfies(e ->
                                assertThat(((SQLException) e).getSQLState()).isIn("53200", "08006"));
            }
            // Would wait for the lock (and fail with 55P03) if the greedy session's transaction were still open.
            assertThat(os.executeUpdate("INSERT INTO ledger VALUES (2)")).isEqualTo(1);
            try (ResultSet rs = os.executeQuery("SELECT array_agg(id ORDER BY id)::text FROM ledger")) {
                rs.next();
                assertThat(rs.getString(1))
                        .as("rows left: the greedy session's insert is rolled back")
                        .isEqualTo("{2}");
            }
            assertThat(controller.isAlive()).isTrue();
            assertThat(controller.log()).contains("ended by java.lang.OutOfMemoryError");
            try (Connection fresh = controller.connect()) {
                assertThat(fresh.isValid(5)).isTrue();
            }
        }
    }
}
