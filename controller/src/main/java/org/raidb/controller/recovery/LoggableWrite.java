package org.raidb.controller.recovery;

import java.util.List;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.transaction.Transaction;

/** What the log needs to know of a write to append it (the request path's {@code Write}). */
public interface LoggableWrite {
    /** The client's transaction, or null for an auto-commit write (or batch). */
    Transaction transaction();

    /** The virtual user the entries are logged under. */
    String login();

    /** The statements as every backend runs them; empty for a write that is not replayed from the log (SET). */
    List<LoggedStatement> logEntries();

    boolean isDdl();

    /** The tables replay filters the entries by; empty when the write went to every backend. */
    List<String> loggedTables();

    /** The backends it is sent to: the item is registered with each. */
    List<DatabaseBackend> targets();

    /** The id an auto-commit batch is logged as a transaction of its own under. */
    long owner();
}
