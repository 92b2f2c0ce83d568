package org.raidb.tools.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import org.raidb.recovery.RecoveryLog;

/**
 * Issue 15's batch load: INSERTs sent with JDBC {@code executeBatch}, 1,000 to a batch, through a logged controller
 * into a table created for it, and what the recovery log's store grew by against what the log recorded meanwhile.
 */
final class BatchLoad {
    static final String TABLE = "bench_batch_load";
    static final int BATCH = 1_000;

    private BatchLoad() {}

    /** What the load wrote, how long it took, and the log's growth over it. */
    record Result(int rows, double seconds, LogSize growth) {
        String describe() {
            return String.format(
                    Locale.ROOT,
                    "Batch load: %,d INSERTs in batches of %,d (`executeBatch`) in %.1f s (%,.0f rows/s); the log"
                            + " grew by %s (target at most %.0f×).",
                    rows,
                    BATCH,
                    seconds,
                    rows / seconds,
                    growth.describe(),
                    LogSize.TARGET_RATIO);
        }
    }

    /**
     * Creates {@link #TABLE} through {@code clients} and inserts {@code rows} rows into it; {@code log} is the
     * controller's recovery log, read before the first and after the last batch.
     */
    static Result run(ClosedLoopRun.ConnectionSource clients, RecoveryLog log, int rows) throws SQLException {
        try (Connection c = clients.open()) {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE " + TABLE + " (id int primary key, account int not null, amount bigint not"
                        + " null, note varchar(100) not null)");
            }
            LogSize before = LogSize.of(log);
            long begin = System.nanoTime();
            try (PreparedStatement insert =
                    c.prepareStatement("INSERT INTO " + TABLE + " (id, account, amount, note) VALUES (?, ?, ?, ?)")) {
                for (int id = 1; id <= rows; id++) {
                    insert.setInt(1, id);
                    insert.setInt(2, id % 10_000);
                    insert.setLong(3, id * 100L);
                    insert.setString(4, "transfer " + id);
                    insert.addBatch();
                    if (id % BATCH == 0 || id == rows) {
                        insert.executeBatch();
                    }
                }
            }
            double seconds = (System.nanoTime() - begin) / 1e9;
            return new Result(rows, seconds, LogSize.of(log).since(before));
        }
    }
}
