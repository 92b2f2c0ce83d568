package org.raidb.controller.recovery;

import java.sql.SQLException;
import java.util.List;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.recovery.Outcome;
import org.raidb.recovery.PendingAppend;
import org.raidb.recovery.RecoveryLogException;

/**
 * What the log holds of one client request (a statement, a batch, a commit): the positions of its
 * entries and, when it is an item a backend applies as a whole, that item's position. The write
 * path reports each backend's answer and the final outcome here, and waits for durability before
 * answering the client: acknowledged means logged.
 */
public final class LoggedRequest {
    /** For a virtual database without a recovery log. */
    public static final LoggedRequest NONE = new LoggedRequest(null, -1, List.of(), null);

    private final WriteLog owner;
    private final long item;
    private final List<Long> positions;
    private final PendingAppend last;

    LoggedRequest(WriteLog owner, long item, List<Long> positions, PendingAppend last) {
        this.owner = owner;
        this.item = item;
        this.positions = positions;
        this.last = last;
    }

    /** One backend answered: an item it applied or missed moves its edge. */
    public void ranOn(DatabaseBackend backend, boolean succeeded) {
        ranOn(backend, succeeded, false);
    }

    /**
     * One backend answered, or its connection broke while it ran: the item moves its edge, or is in doubt on it.
     *
     * @param maybeApplied it did not succeed because the backend's connection broke while it ran: the
     *     server may have applied it and lost only the answer
     */
    public void ranOn(DatabaseBackend backend, boolean succeeded, boolean maybeApplied) {
        if (item >= 0) {
            owner.ranOn(backend, item, succeeded, maybeApplied);
        }
    }

    /**
     * The backend missed the item, but the tables it writes were disabled there: replay leaves such
     * writes out, so the item is no gap in what the backend holds.
     */
    public void notNeededOn(DatabaseBackend backend) {
        if (item >= 0) {
            owner.notNeededOn(backend, item);
        }
    }

    /** Every backend answered: records whether the request took effect (null) or failed everywhere. */
    public void resolved(SQLException clientError) {
        if (owner != null) {
            owner.recordOutcome(
                    positions, clientError == null ? Outcome.SUCCESS : Outcome.failed(stateOf(clientError)));
            if (clientError != null && item >= 0) {
                owner.failedEverywhere(item);
            }
        }
    }

    private static String stateOf(SQLException e) {
        String state = e.getSQLState();
        return state != null && state.length() == 5 ? state : SqlStates.INTERNAL_ERROR;
    }

    /** Returns once every entry of the request is in the store. */
    public void awaitDurable() throws SQLException {
        if (last != null) {
            try {
                last.await();
            } catch (RecoveryLogException e) {
                throw new SQLException(
                        // The log's message says why and what to do (RecoveryLogException of a store failure).
                        "the write was applied but could not be recorded in the recovery log: " + e.getMessage(),
                        SqlStates.IO_ERROR,
                        e);
            }
        }
    }

    public long itemPosition() {
        return item;
    }
}
