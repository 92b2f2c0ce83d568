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
        refuseControllers(lanes);
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

    /**
     * A child controller (a {@code jdbc:raidb:} backend) has no prepared transactions: it cannot promise
     * a commit it has not made, nor finish one after its client is gone. A transaction writing on several
     * children is rolled back everywhere before anything is prepared, and the client told what to change.
     */
    private static void refuseControllers(List<BackendLane> lanes) throws SQLException {
        List<String> controllers = lanes.stream()
                .map(BackendLane::backend)
                .filter(DatabaseBackend::isController)
                .map(DatabaseBackend::name)
                .toList();
        if (controllers.isEmpty()) {
            return;
        }
        for (BackendLane lane : lanes) {
            try {
                lane.connection().rollback();
            } catch (SQLException e) {
                // nothing was prepared: a lane that cannot roll back leaves nothing behind once its connection ends
            }
        }
        throw new SQLException(
                "the transaction was rolled back on every backend: it wrote on "
                        + lanes.size()
                        + " backends, which would need a two-phase commit, and "
                        + String.join(", ", controllers)
                        + (controllers.size() == 1 ? " is a controller" : " are controllers")
                        + " (jdbc:raidb:), which cannot take part in one. Write the tables of one transaction on one"
                        + " child controller: place tables written together on the same child (docs/admin.md,"
                        + " \"Trees of controllers\"), or commit each child's writes in a transaction of its own",
                SqlStates.FEATURE_NOT_SUPPORTED);
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
