package org.raidb.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.raidb.driver.protocol.Protocol;

/**
 * Two million rows of about 100 bytes stream through a heap far smaller than the result (surefire
 * runs with -Xmx128m; the rows would take several hundred MB if the driver kept them).
 */
class StreamingMemoryTest {
    private static final int ROWS = 2_000_000;
    private static final int BATCH = 1000;
    private static final String PAYLOAD = "x".repeat(100);

    private static List<Object[]> rows(int from) {
        List<Object[]> rows = new ArrayList<>(BATCH);
        for (int i = from; i < from + BATCH; i++) {
            rows.add(new Object[] {i, PAYLOAD});
        }
        return rows;
    }

    @Test
    void twoMillionRowsStreamInASmallHeap() throws Exception {
        assertThat(Runtime.getRuntime().maxMemory())
                .as("the test needs a small heap to mean anything")
                .isLessThan(256L << 20);
        try (FakeController fake = new FakeController()) {
            int[] next = {0};
            fake.handler = (r, p) -> {
                if (r.type() == Protocol.EXECUTE) {
                    p.rows(3, List.of(FakeController.intColumn("n"), FakeController.textColumn("pad")), rows(0), false);
                    next[0] = BATCH;
                } else {
                    int from = next[0];
                    next[0] += BATCH;
                    p.batch(rows(from), next[0] >= ROWS);
                }
            };
            try (Connection conn = DriverManager.getConnection(fake.url("big"));
                    Statement st = conn.createStatement();
                    ResultSet rs = st.executeQuery("select n, pad from huge")) {
                long count = 0;
                long sum = 0;
                while (rs.next()) {
                    sum += rs.getInt(1);
                    count += rs.getString(2).length() == 100 ? 1 : 0;
                }
                assertThat(count).isEqualTo(ROWS);
                assertThat(sum).isEqualTo((long) ROWS * (ROWS - 1) / 2);
            }
        }
    }
}
