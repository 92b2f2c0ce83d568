package org.raidb.controller.session;

import java.sql.SQLException;
import org.raidb.controller.group.ReplicationProtocol;
import org.raidb.controller.transaction.SessionState;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.ProtocolException;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.driver.protocol.TransactionFrame;

/** The TRANSACTION frame ({@link TransactionFrame}): the JDBC Connection's transaction API, applied to the session. */
final class TransactionFrames {
    private final ReplicationProtocol requests;
    private final SessionState state;

    TransactionFrames(ReplicationProtocol requests, SessionState state) {
        this.requests = requests;
        this.state = state;
    }

    void handle(TransactionFrame t) throws ProtocolException, SQLException {
        switch (t.op()) {
            case Protocol.TX_SET_AUTOCOMMIT -> {
                boolean on = t.on();
                if (on && !state.autoCommit()) {
                    requests.commit(state); // JDBC: switching auto-commit on commits the current transaction
                }
                state.autoCommit(on);
            }
            case Protocol.TX_COMMIT -> requests.commit(state);
            case Protocol.TX_ROLLBACK -> requests.rollback(state);
            case Protocol.TX_SET_SAVEPOINT -> requests.savepoint(state, "SAVEPOINT", t.savepoint());
            case Protocol.TX_ROLLBACK_TO_SAVEPOINT -> requests.savepoint(state, "ROLLBACK TO SAVEPOINT", t.savepoint());
            case Protocol.TX_RELEASE_SAVEPOINT -> requests.savepoint(state, "RELEASE SAVEPOINT", t.savepoint());
            case Protocol.TX_SET_ISOLATION -> {
                int level = t.isolation();
                if (level != java.sql.Connection.TRANSACTION_READ_UNCOMMITTED
                        && level != java.sql.Connection.TRANSACTION_READ_COMMITTED
                        && level != java.sql.Connection.TRANSACTION_REPEATABLE_READ
                        && level != java.sql.Connection.TRANSACTION_SERIALIZABLE) {
                    throw new SQLException(
                            "invalid transaction isolation level " + level, SqlStates.INVALID_PARAMETER_VALUE);
                }
                refuseInsideTransaction("change the isolation level");
                state.isolation(level);
            }
            case Protocol.TX_SET_READ_ONLY -> {
                boolean ro = t.on();
                refuseInsideTransaction("change read-only mode");
                state.readOnly(ro);
            }
            // TransactionFrame.read refuses it first
            default -> throw new ProtocolException("unknown transaction operation " + t.op());
        }
    }

    private void refuseInsideTransaction(String what) throws SQLException {
        if (state.currentTransaction() != null && !state.currentTransaction().isEmpty()) {
            throw new SQLException(
                    "cannot " + what + " in the middle of a transaction: commit or roll back first",
                    SqlStates.ACTIVE_TRANSACTION);
        }
    }
}
