package org.raidb.balancer;

import java.util.List;

/**
 * What a {@link ReadVote} has decided so far.
 *
 * @param <B> the backend type
 * @param <K> the answers' fingerprint type
 */
public sealed interface VoteOutcome<B extends BackendView, K> {
    /**
     * A majority of the electorate gave the same answer: it goes to the client.
     *
     * @param outvoted backends that answered something else: they diverge and must be disabled
     */
    record Majority<B extends BackendView, K>(K fingerprint, List<B> agreeing, List<B> outvoted)
            implements VoteOutcome<B, K> {}

    /** No majority yet, but one is still possible: send the read to these backends too, then count again. */
    record AskOthers<B extends BackendView, K>(List<B> backends) implements VoteOutcome<B, K> {}

    /**
     * No answer can reach a majority any more: the client gets an error (the message says how the
     * answers split) and nothing is disabled, since no side can be shown wrong.
     */
    record NoMajority<B extends BackendView, K>(String message) implements VoteOutcome<B, K> {}
}
