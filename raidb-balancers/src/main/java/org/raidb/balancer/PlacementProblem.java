package org.raidb.balancer;

import java.util.List;

/**
 * Something wrong with where the tables of a virtual database are, found by
 * {@link PlacementValidator}.
 *
 * @param table the table concerned, or null for a problem with a create-table rule
 * @param backends the backends concerned
 * @param message what is wrong and what to change
 */
public record PlacementProblem(Severity severity, String table, List<String> backends, String message) {
    public enum Severity {
        /** The virtual database must not start: statements would be refused or replicas diverge. */
        ERROR,
        /** It works, with less fault tolerance or error checking than the level promises. */
        WARNING
    }

    public PlacementProblem {
        backends = List.copyOf(backends);
    }
}
