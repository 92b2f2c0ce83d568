package org.raidb.balancer;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * RAIDb-0, full partitioning (RAIDb paper, sections 3.1 and 6.1): each table on exactly one backend.
 * A statement runs on the one backend holding every table it uses; one using tables of different
 * backends is refused ({@link TablesNotColocatedException}), since nothing is joined across
 * backends. Statements whose tables are unknown go to every enabled backend.
 *
 * <p>With one copy per table this is RAIDb-2's routing, so it delegates to it; what it adds is the
 * one-copy rule for new tables and a completion that waits for every backend: with no copies, each
 * backend's answer is the only one for its tables.
 */
public final class Raidb0LoadBalancer implements LoadBalancer {
    private final Raidb2LoadBalancer routing;

    /** @param createTable every rule must place one copy (roundRobin or random with nodes 1, or all on one backend) */
    public Raidb0LoadBalancer(CreateTablePolicy createTable) {
        for (CreateTableRule rule : createTable.rules()) {
            if (!rule.placesOneCopy()) {
                throw new IllegalArgumentException(
                        "RAIDb-0 keeps each table on exactly one backend, but the " + rule
                                + " may place more copies: use roundRobin or random with nodes 1, or all with a single backend");
            }
        }
        // The read policy never has a choice to make: one backend holds each table.
        this.routing = new Raidb2LoadBalancer(new RoundRobinReadPolicy(), CompletionPolicy.ALL, createTable);
    }

    /** RAIDb-0's default for new tables: one backend, the next in turn. */
    public static CreateTablePolicy defaultCreateTablePolicy() {
        return new CreateTablePolicy(List.of(), defaultCreateTableRule());
    }

    static CreateTableRule defaultCreateTableRule() {
        return CreateTableRule.roundRobin(1);
    }

    @Override
    public <B extends BackendView> B readBackend(Request request, List<B> backends) throws NoBackendAvailableException {
        return routing.readBackend(request, backends);
    }

    @Override
    public <B extends BackendView> List<B> writeBackends(Request request, List<B> backends)
            throws NoBackendAvailableException {
        return routing.writeBackends(request, backends);
    }

    @Override
    public CompletionPolicy completion() {
        return CompletionPolicy.ALL;
    }

    @Override
    public boolean partial() {
        return true;
    }

    /** One copy of each table: nothing can stand in for a backend whose commit fails after another's succeeded. */
    @Override
    public boolean commitsInTwoPhases() {
        return true;
    }

    @Override
    public CreateTablePolicy createTablePolicy() {
        return routing.createTablePolicy();
    }

    @Override
    public List<PlacementProblem> placementProblems(Map<String, Set<String>> tablesByBackend, Set<String> tables) {
        return PlacementValidator.validate(RaidbLevel.RAIDB_0, tablesByBackend, tables, routing.createTablePolicy());
    }
}
