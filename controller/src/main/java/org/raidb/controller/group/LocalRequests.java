package org.raidb.controller.group;

import java.sql.SQLException;
import org.raidb.controller.request.ExecuteRequest;
import org.raidb.controller.request.StatementResult;
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

    /**
     * Another member's client request, delivered, will run here: a failed-over client that sends it again
     * to this controller waits for its outcome instead of running it twice.
     */
    void expectOutcome(String clientSessionId, long requestId);

    /**
     * That request ran here on {@code shadow}: its outcome is remembered as the client's own controller
     * would remember it (a write or transaction end, once no transaction is open), and waiters are released.
     *
     * @param result null when it failed with {@code failure}
     */
    void ranFor(
            SessionState shadow, String clientSessionId, long requestId, StatementResult result, SQLException failure);
}
