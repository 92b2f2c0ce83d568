package org.raidb.controller.transaction;

import java.sql.SQLException;
import java.sql.Statement;
import org.raidb.driver.protocol.SqlStates;

/**
 * SAVEPOINT, ROLLBACK TO SAVEPOINT and RELEASE SAVEPOINT. A savepoint must exist on every backend
 * the transaction may later write to, so the transaction joins every enabled backend first.
 */
public final class Savepoints {
    private final TransactionPath path;
    private final TransactionEnd ends;

    public Savepoints(TransactionPath path, TransactionEnd ends) {
        this.path = path;
        this.ends = ends;
    }

    /**
     * Runs the command on every backend of the session's transaction.
     *
     * @param command SAVEPOINT, ROLLBACK TO SAVEPOINT or RELEASE SAVEPOINT
     */
    public void run(SessionState s, String command, String name) throws SQLException {
        Transaction tx = s.transaction();
        if (tx == null) {
            throw new SQLException(
                    "savepoints exist only inside a transaction: turn auto-commit off or send BEGIN first",
                    SqlStates.INVALID_TRANSACTION_STATE);
        }
        if (name == null || !name.matches("[A-Za-z_][A-Za-z0-9_$]*")) {
            throw new SQLException(
                    "invalid savepoint name '" + name + "': use letters, digits and underscores",
                    SqlStates.INVALID_SAVEPOINT);
        }
        boolean rollingBack = command.startsWith("ROLLBACK");
        if (!rollingBack) {
            ends.refuseIfAborted(s);
        }
        String sql = command + " " + name;
        LoggedCommand logged = path.logSavepoint(tx, s, command, name);
        logged.run(
                sql,
                c -> {
                    try (Statement st = c.createStatement()) {
                        st.execute(sql);
                    }
                },
                tx,
                () -> {},
                true);
        if (rollingBack) {
            tx.clearAbort();
        }
    }
}
