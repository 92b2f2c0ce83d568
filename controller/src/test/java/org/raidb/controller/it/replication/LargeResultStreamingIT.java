package org.raidb.controller.it.replication;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ForkedController;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * A SELECT of two million rows through a controller whose heap is capped at 256 MiB: only possible if
 * rows stream from the backend cursor to the driver a batch at a time.
 */
class LargeResultStreamingIT {
    private static final int ROWS = 2_000_000;

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    @Test
    void twoMillionRowsStreamThroughAControllerWith256MegabytesOfHeap() throws Exception {
        // The rows are loaded on the backends directly: this test is about reading, not about a 2M-row write.
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            try (Connection c = s.connect();
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE big AS SELECT g AS id, md5(g::text) AS payload, g * 1.5 AS amount "
                        + "FROM generate_series(1, " + ROWS + ") g");
            }
        }
        ForkedController controller = ForkedController.start(pg.controllerConfig("shop"), "shop", "256m");
        try {
            long rows = 0;
            long idSum = 0;
            try (Connection c = controller.connect();
                    Statement st = c.createStatement()) {
                // No setFetchSize: the default path (the controller's 1,000-row batches) is the one to prove.
                assertThat(st.getFetchSize()).isZero();
                try (ResultSet rs = st.executeQuery("SELECT id, payload, amount FROM big")) {
                    while (rs.next()) {
                        rows++;
                        idSum += rs.getLong(1);
                        if (rs.getString(2).length() != 32) {
                            throw new AssertionError("bad payload at row " + rows);
                        }
                    }
                }
            }
            assertThat(rows).isEqualTo(ROWS);
            assertThat(idSum).isEqualTo((long) ROWS * (ROWS + 1) / 2);
            assertThat(controller.isAlive())
                    .as("controller still running after the scan (no OutOfMemoryError)")
                    .isTrue();
        } finally {
            controller.close();
        }
        assertThat(controller.log()).doesNotContain("OutOfMemoryError");
    }
}
