package org.raidb.controller.group;

import java.sql.SQLException;
import org.raidb.controller.request.ExecuteRequest;
import org.raidb.controller.transaction.SessionState;
import org.raidb.driver.protocol.BatchFrame;

/**
 * This controller's own request path, as a protocol: what it runs, it runs on this controller's
 * backends only. A group protocol also asks it for the form of a request every controller must run
 * (now(), random() and the volatile defaults replaced by literals computed once, here).
 */
public interface LocalRequests extends ReplicationProtocol {
    /** The request as every controller must run it. */
    ExecuteRequest deterministic(SessionState s, ExecuteRequest r) throws SQLException;

    /** The batch as every controller must run it. */
    BatchFrame deterministic(SessionState s, BatchFrame batch) throws SQLException;

    /** Whether the request only reads (runs on one controller's backends, outside the write order). */
    boolean reads(ExecuteRequest r) throws SQLException;
}
