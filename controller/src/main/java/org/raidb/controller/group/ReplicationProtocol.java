package org.raidb.controller.group;

import java.sql.SQLException;
import org.raidb.controller.request.ExecuteRequest;
import org.raidb.controller.request.StatementResult;
import org.raidb.controller.transaction.SessionState;
import org.raidb.driver.protocol.BatchFrame;

/**
 * What a client's session asks of its virtual database, as the replication protocol between the
 * request path and the controller group sees it. {@link LocalRequests} is this controller's request
 * path alone; {@link ActiveReplication} (the RAIDb paper's: statements delivered in total order,
 * executed by every controller) sits in front of it, the way a JGroups protocol sits on the one below.
 * Other protocols (certification, preventive replication) take its place behind this interface;
 * nothing in the request path or the scheduler knows which one runs.
 */
public interface ReplicationProtocol extends AutoCloseable {
    StatementResult execute(SessionState s, ExecuteRequest r) throws SQLException;

    /** A JDBC batch as the client sent it (checked: every text is one the controller may run). */
    StatementResult batch(SessionState s, BatchFrame batch) throws SQLException;

    void commit(SessionState s) throws SQLException;

    void rollback(SessionState s) throws SQLException;

    /** SAVEPOINT, ROLLBACK TO SAVEPOINT or RELEASE SAVEPOINT {@code name}. */
    void savepoint(SessionState s, String command, String name) throws SQLException;

    /** The client's session has ended: its transaction is rolled back. */
    void sessionEnded(SessionState s) throws SQLException;

    /** The group as this controller sees it; null when the virtual database has no group. */
    default GroupStatus status() {
        return null;
    }

    @Override
    default void close() {}
}
