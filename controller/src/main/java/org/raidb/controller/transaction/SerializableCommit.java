package org.raidb.controller.transaction;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.determinism.SqlDialect;

/**
 * Whether a SERIALIZABLE transaction that wrote on several backends commits in two phases.
 * PostgreSQL checks serializability at commit too, and each server judges from what ran on it: one
 * backend may refuse the COMMIT (40001) while the others apply it, and a committed transaction cannot
 * be taken back there. {@code PREPARE TRANSACTION} runs that check, and PostgreSQL never picks a
 * prepared transaction as a victim afterwards: a refusal by any backend at prepare rolls the
 * transaction back on all of them ({@link TwoPhaseCommit}), and the commit that follows cannot fail
 * for serialization.
 *
 * <p>A backend that cannot prepare ({@code max_prepared_transactions = 0}, not PostgreSQL, or another
 * controller) commits in
 * one phase, the client's answer waiting for every backend: one that refuses what the others committed
 * has diverged and is disabled.
 */
final class SerializableCommit {
    private final TransactionPath path;
    /** Per backend: whether its server accepts PREPARE TRANSACTION (a setting that takes a restart to change). */
    private final Map<DatabaseBackend, Boolean> prepares = new ConcurrentHashMap<>();

    SerializableCommit(TransactionPath path) {
        this.path = path;
    }

    boolean inTwoPhases(Transaction tx, List<BackendLane> lanes) throws SQLException {
        if (tx.isolation() != Connection.TRANSACTION_SERIALIZABLE
                || tx.writtenBackends().size() < 2
                || path.dialect() != SqlDialect.POSTGRESQL) {
            return false;
        }
        for (BackendLane lane : lanes) {
            if (!prepares(lane)) {
                return false;
            }
        }
        return true;
    }

    private boolean prepares(BackendLane lane) {
        if (lane.backend().isController()) {
            return false; // a child controller takes no PREPARE TRANSACTION (TwoPhaseCommit): one phase, as above
        }
        Boolean known = prepares.get(lane.backend());
        if (known != null) {
            return known;
        }
        lane.idle().join(); // the connection is the transaction's: asked once its statements have run
        try (Statement st = lane.connection().createStatement();
                ResultSet rs = st.executeQuery("SHOW max_prepared_transactions")) {
            boolean allowed = rs.next() && Integer.parseInt(rs.getString(1).trim()) > 0;
            prepares.put(lane.backend(), allowed);
            return allowed;
        } catch (SQLException | NumberFormatException e) {
            return false; // not remembered: asked again at the next commit
        }
    }
}
