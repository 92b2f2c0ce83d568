package org.raidb.balancer;

import java.util.List;

/**
 * Where an error-checked read goes.
 *
 * @param askFirst the backends to send the read to now (at least a majority of the electorate)
 * @param electorate every backend whose answer counts: the others are asked when the first answers
 *     do not agree (see {@link VoteOutcome.AskOthers})
 */
public record CheckedRead<B extends BackendView>(List<B> askFirst, List<B> electorate) {
    /** A vote over this read's electorate. */
    public <K> ReadVote<B, K> startVote() {
        return new ReadVote<>(electorate);
    }
}
