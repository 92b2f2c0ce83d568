package org.raidb.recovery;

import java.util.List;

/**
 * One unit of replay: an auto-commit write (one statement, {@code transactionId} 0) or a committed
 * transaction (its effective writes in log order, without BEGIN, savepoints or COMMIT: the
 * controller wraps them in its own transaction). {@code orderPosition} is the position of the
 * auto-commit write or of the COMMIT; items come in that order.
 */
public record ReplayItem(long orderPosition, long transactionId, String login, List<LogEntry> statements) {

    public boolean isTransaction() {
        return transactionId != 0;
    }
}
