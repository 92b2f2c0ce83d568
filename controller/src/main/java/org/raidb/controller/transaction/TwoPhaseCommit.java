package org.raidb.controller.transaction;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.driver.protocol.SqlStates;

/**
 * Two-phase commit of a RAIDb-0 transaction that wrote on several backends (each holds other
 * tables, so no backend's answer can stand in for another's), and of a SERIALIZABLE one that wrote
 * on several backends ({@link SerializableCommit}). Phase one prepares the transaction on
 * every backend ({@code PREPARE TRANSACTION}); the decision is the transaction's COMMIT in the
 * recovery log, made durable before phase two ({@code COMMIT PREPARED}). A controller restarted
 * between the phases finishes or rolls back what is prepared from that log
 * (recovery.PreparedTransactions). PostgreSQL backends need {@code max_prepared_transactions > 0}.
 */
final class TwoPhaseCommit {
    /** Global transaction ids start with this, then the virtual database and the transaction id. */
    static final String GID_PREFIX = "raidb_";

    private TwoPhaseCommit() {}

    static String gid(String virtualDatabase, long transactionId) {
        return GID_PREFIX + virtualDatabase + "_" + transactionId;
    }

    /**
     * Prepares the transaction on every lane. If a backend refuses, what was prepared is rolled back,
     * the others are rolled back, and the refusal is thrown: the transaction is undone everywhere.
     */
    static void prepare(List<BackendLane> lanes, String gid, Executor executor) throws SQLException {
        Map<DatabaseBackend, SQLException> refused = new ConcurrentHashMap<>();
        List<CompletableFuture<?>> running = new ArrayList<>(lanes.size());
        for (BackendLane lane : lanes) {
            running.add(lane.submit(
                    () -> {
                        try {
                            execute(lane.connection(), "PREPARE TRANSACTION '" + gid + "'");
                        } catch (SQLException e) {
                            refused.put(lane.backend(), e);
                        }
                        return null;
                    },
                    executor,
                    false));
        }
        CompletableFuture.allOf(running.toArray(new CompletableFuture[0])).join();
        if (refused.isEmpty()) {
            return;
        }
        for (BackendLane lane : lanes) {
            try {
                if (refused.containsKey(lane.backend())) {
                    lane.connection().rollback();
                } else {
                    finish(lane.connection(), false, gid);
                }
            } catch (SQLException e) {
                // Left prepared: the restart check rolls it back (the log has no COMMIT for it).
            }
        }
        Map.Entry<DatabaseBackend, SQLException> first =
                refused.entrySet().iterator().next();
        throw new SQLException(
                "the transaction was rolled back on every backend: backend "
                        + first.getKey().name()
                        + " could not prepare it for two-phase commit ("
                        + first.getValue().getMessage() + ")"
                        + (SqlStates.isTransactionRollback(first.getValue().getSQLState())
                                ? "; run the transaction again"
                                : ""),
                first.getValue().getSQLState(),
                first.getValue());
    }

    /** Phase two on one connection: COMMIT PREPARED (or ROLLBACK PREPARED), outside any transaction. */
    static void finish(Connection c, boolean commit, String gid) throws SQLException {
        c.setAutoCommit(true);
        execute(c, (commit ? "COMMIT" : "ROLLBACK") + " PREPARED '" + gid + "'");
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
