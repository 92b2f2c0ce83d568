package org.raidb.controller.request;

import java.sql.SQLException;
import org.raidb.controller.backend.DatabaseBackend;

/** What one backend answered to a write: a result, or an error. */
public record BackendOutcome(DatabaseBackend backend, StatementResult result, SQLException error) {
    public boolean succeeded() {
        return error == null;
    }
}
