package org.raidb.controller.request;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.raidb.controller.transaction.Transaction;
import org.raidb.driver.protocol.SqlStates;

/** The answers of one write, as the session thread waits for them. */
final class WriteOutcome {
    final CompletionTracker tracker;
    final CompletableFuture<OutcomeResolver.Resolution> resolved = new CompletableFuture<>();
    List<CompletableFuture<BackendOutcome>> futures;

    WriteOutcome(CompletionTracker tracker) {
        this.tracker = tracker;
    }

    StatementResult await(Transaction tx) throws SQLException {
        try {
            BackendOutcome early = tracker.quorum().join();
            if (early != null) {
                return early.result();
            }
            OutcomeResolver.Resolution res = resolved.join();
            if (res.clientError() != null) {
                if (tx != null) {
                    tx.abort(res.clientError());
                }
                throw res.clientError();
            }
            return res.winner().result();
        } catch (CompletionException e) {
            throw new SQLException(
                    "internal error while waiting for the backends: " + e.getCause(),
                    SqlStates.INTERNAL_ERROR,
                    e.getCause());
        }
    }
}
