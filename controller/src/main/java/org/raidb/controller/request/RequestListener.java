package org.raidb.controller.request;

import org.raidb.controller.analysis.StatementKind;

/**
 * Told of every request the request path answered, on the session's thread as the request ends: it must be
 * cheap (the metrics count and time it with meters made in advance). A request the analysis refused before
 * it had a kind is not told.
 */
@FunctionalInterface
public interface RequestListener {
    RequestListener NONE = (kind, nanos, failed) -> {};

    /**
     * A request was answered, or failed.
     *
     * @param kind what the request was: a JDBC batch is a {@link StatementKind#WRITE}, a commit, rollback or
     *     savepoint (as SQL or a transaction frame) a {@link StatementKind#TRANSACTION_CONTROL}
     * @param nanos how long the request path took, from analysis to answer
     * @param failed whether the client got an error
     */
    void answered(StatementKind kind, long nanos, boolean failed);
}
