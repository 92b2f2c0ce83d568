package org.raidb.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.raidb.driver.protocol.Protocol;

/**
 * A request larger than the controller accepts is refused by the driver before it is sent (54000), and
 * the connection goes on: sent, the controller would have closed the connection on it mid-write.
 */
class RequestSizeLimitTest {
    private static final int CONTROLLER_LIMIT = 4096;

    private FakeController fake;
    private Connection conn;

    @BeforeEach
    void connect() throws Exception {
        fake = new FakeController();
        fake.serverInfo = Map.of(ServerInfo.MAX_FRAME_BYTES, String.valueOf(CONTROLLER_LIMIT));
        fake.handler = (r, p) -> {
            if (r.type() == Protocol.PING) {
                p.ok();
            } else {
                p.updateCount(1);
            }
        };
        conn = DriverManager.getConnection(fake.url("shop"), "bob", "pw");
    }

    @AfterEach
    void close() throws Exception {
        conn.close();
        fake.close();
    }

    private static String state(Throwable e) {
        return ((SQLException) e).getSQLState();
    }

    @Test
    void aStatementOverTheAnnouncedLimitIsRefusedUnsentAndTheConnectionGoesOn() throws Exception {
        String large = "UPDATE t SET v = '" + "x".repeat(2 * CONTROLLER_LIMIT) + "'";
        try (Statement st = conn.createStatement()) {
            assertThatThrownBy(() -> st.executeUpdate(large))
                    .satisfies(e -> assertThat(state(e)).isEqualTo("54000"))
                    .hasMessageContaining(CONTROLLER_LIMIT + " bytes per frame")
                    .hasMessageContaining("nothing was sent and the connection is still usable");
            assertThat(fake.received).as("frames the controller received").isEmpty();
            assertThat(st.executeUpdate("UPDATE t SET v = 'small'")).isEqualTo(1);
        }
        assertThat(fake.received).containsExactly('E');
        assertThat(conn.isValid(5)).isTrue();
    }

    @Test
    void largeParametersAndBatchesAreRefusedTheSameWay() throws Exception {
        try (PreparedStatement ps = conn.prepareStatement("UPDATE t SET v = ?")) {
            ps.setBytes(1, new byte[CONTROLLER_LIMIT]);
            assertThatThrownBy(ps::executeUpdate)
                    .satisfies(e -> assertThat(state(e)).isEqualTo("54000"));
            ps.setBytes(1, new byte[10]);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        try (Statement st = conn.createStatement()) {
            for (int i = 0; i < 100; i++) {
                st.addBatch("INSERT INTO t VALUES (" + i + ", '" + "y".repeat(50) + "')");
            }
            assertThatThrownBy(st::executeBatch)
                    .isInstanceOf(BatchUpdateException.class)
                    .satisfies(e -> assertThat(state(e)).isEqualTo("54000"))
                    .satisfies(e -> assertThat(((BatchUpdateException) e).getLargeUpdateCounts())
                            .isEmpty());
        }
        assertThat(fake.received).containsExactly('E');
    }

    @Test
    void aControllerThatAnnouncesNoLimitGetsTheProtocolDefault() {
        ServerInfo silent = new ServerInfo(1, 1, 1, "PostgreSQL", "15", 15, 0, "\"", Map.of());
        ServerInfo garbled =
                new ServerInfo(1, 1, 1, "PostgreSQL", "15", 15, 0, "\"", Map.of(ServerInfo.MAX_FRAME_BYTES, "x"));
        assertThat(silent.maxRequestFrameBytes()).isEqualTo(Protocol.DEFAULT_MAX_FRAME_BYTES);
        assertThat(garbled.maxRequestFrameBytes()).isEqualTo(Protocol.DEFAULT_MAX_FRAME_BYTES);
    }
}
