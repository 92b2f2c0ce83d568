package org.raidb.controller.recovery;

import java.sql.SQLException;

/**
 * A recovery operation that has been checked and has claimed its backends, ready to run. Checking
 * first lets the admin API refuse a bad request at once (unknown dump, backend busy) and run the
 * long part in the background; running it releases the claim, whatever the outcome.
 */
@FunctionalInterface
public interface RecoveryTask<T> {
    T run(Progress progress) throws SQLException;
}
