package org.raidb.balancer;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The routing SPI: given the backends of a virtual database, where does a request go. A RAIDb level
 * is one implementation; it decides and never touches a backend itself.
 *
 * <p>The controller asks the balancer, never which level it has: what the level means for reads,
 * commits, placement and failures is answered here, so that a new level is a new implementation
 * (built by {@link LoadBalancers}) with no change to the controller.
 */
public interface LoadBalancer {
    /** The one backend a read goes to; under error checking, a read that is not voted on (metadata). */
    <B extends BackendView> B readBackend(Request request, List<B> backends) throws NoBackendAvailableException;

    /** Every backend a write, DDL or call goes to, in the virtual database's backend order. */
    <B extends BackendView> List<B> writeBackends(Request request, List<B> backends) throws NoBackendAvailableException;

    /** When a write's client gets its answer. */
    CompletionPolicy completion();

    /**
     * How client reads are voted on, or empty when a read goes to one backend ({@link #readBackend}).
     * Implementations return the same instance each time: it is asked on every read.
     */
    default Optional<ReadVoting> readVote() {
        return Optional.empty();
    }

    /**
     * Whether backends hold different sets of tables (RAIDb-0, RAIDb-2): their tables are configured or
     * read from their schemas, and a backend that diverges on a write loses only the tables written
     * there, not its place in the array. False when every backend holds every table.
     */
    boolean partial();

    /**
     * Whether a transaction that wrote on several backends commits in two phases. A level that keeps
     * one copy of each table answers yes: no other copy can stand in for a backend whose commit fails
     * after another's succeeded.
     */
    boolean commitsInTwoPhases();

    /** Where a CREATE TABLE puts a new table ({@link #writeBackends} follows it). */
    CreateTablePolicy createTablePolicy();

    /**
     * What is wrong with a placement of tables on backends for this level, errors and warnings, so that
     * it is reported before the virtual database serves; see {@link PlacementValidator}.
     *
     * @param tablesByBackend each backend's tables, in the virtual database's backend order
     * @param tables the tables the virtual database must serve; tables named only by backends are
     *     checked too
     */
    List<PlacementProblem> placementProblems(Map<String, Set<String>> tablesByBackend, Set<String> tables);
}
