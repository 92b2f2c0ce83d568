package org.raidb.controller.transaction;

import java.sql.Connection;
import java.sql.SQLException;

/** A transaction's command (COMMIT, ROLLBACK, a savepoint) that the recovery log holds, ready to run on its lanes. */
public interface LoggedCommand {
    /** Returns once the log holds the command durably: from then on a restart finishes what it decided. */
    void awaitDurable() throws SQLException;

    /**
     * Runs {@code work} on each lane the command was logged for, and returns when the completion
     * policy is met (every lane with {@code waitForAll}) and the log is durable.
     *
     * @param tx the transaction whose failure the outcome records, or null when nothing is left to record
     * @param whenAllDone runs once every backend answered
     */
    void run(String statement, LaneWork work, Transaction tx, Runnable whenAllDone, boolean waitForAll)
            throws SQLException;

    /** What the command does on one lane's connection. */
    @FunctionalInterface
    interface LaneWork {
        void run(Connection c) throws SQLException;
    }
}
