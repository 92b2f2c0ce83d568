package org.raidb.balancer;

import java.util.List;

/**
 * How a level votes on reads (RAIDb-1ec and -2ec, RAIDb paper sections 3.3 and 3.5): a read is sent
 * to several backends and the answer of a majority of its electorate wins ({@link CheckedRead},
 * {@link ReadVote}). A balancer that votes offers it through {@link LoadBalancer#readVote}.
 */
public interface ReadVoting {
    /** The backends a read is sent to first, before being raised to a majority of the electorate. */
    int nodes();

    /** The backends an error-checked read goes to, and the electorate its answers are counted against. */
    <B extends BackendView> CheckedRead<B> checkedRead(Request request, List<B> backends)
            throws NoBackendAvailableException;
}
