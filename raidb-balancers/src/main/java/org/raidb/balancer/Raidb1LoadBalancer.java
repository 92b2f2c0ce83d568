package org.raidb.balancer;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * RAIDb-1, full mirroring: every backend is meant to hold every table, so a read goes to any enabled
 * backend (chosen by the read policy) and a write to all of them. Table holdings are still checked,
 * so that a backend that lacks a table (for example one created while it was disabled) is never
 * asked for it.
 */
public final class Raidb1LoadBalancer implements LoadBalancer {
    private static final CreateTablePolicy EVERYWHERE = CreateTablePolicy.everywhere();

    private final ReadPolicy readPolicy;
    private final CompletionPolicy completion;

    public Raidb1LoadBalancer(ReadPolicy readPolicy, CompletionPolicy completion) {
        this.readPolicy = readPolicy;
        this.completion = completion;
    }

    @Override
    public <B extends BackendView> B readBackend(Request request, List<B> backends) throws NoBackendAvailableException {
        List<B> candidates = ReadCandidates.holders(request, backends);
        if (request.transactionHasWritten() && !request.transactionBackends().isEmpty()) {
            // Every backend was written to by the transaction; one that was not joined later and lacks its writes.
            candidates = ReadCandidates.inTransaction(request, candidates);
            if (candidates.isEmpty()) {
                throw new NoBackendAvailableException("none of the backends this transaction has written to ("
                        + String.join(", ", request.transactionBackends()) + ") is enabled and holds "
                        + String.join(", ", request.tablesRead())
                        + ": roll the transaction back and retry it");
            }
        }
        return candidates.size() == 1 ? candidates.get(0) : readPolicy.choose(candidates, request);
    }

    @Override
    public <B extends BackendView> List<B> writeBackends(Request request, List<B> backends)
            throws NoBackendAvailableException {
        List<B> targets = request.touchesEverything() || request.tablesWritten().isEmpty()
                ? TableHolders.enabled(backends)
                : TableHolders.enabledHoldingAny(request.tablesWritten(), backends);
        if (targets.isEmpty()) {
            throw TableHolders.whyNoneHoldsAll(request.tablesWritten(), backends);
        }
        return targets;
    }

    @Override
    public CompletionPolicy completion() {
        return completion;
    }

    @Override
    public boolean partial() {
        return false;
    }

    /** Every backend holds every table: a backend whose commit fails is disabled and the others carry on. */
    @Override
    public boolean commitsInTwoPhases() {
        return false;
    }

    @Override
    public CreateTablePolicy createTablePolicy() {
        return EVERYWHERE;
    }

    @Override
    public List<PlacementProblem> placementProblems(Map<String, Set<String>> tablesByBackend, Set<String> tables) {
        return PlacementValidator.validate(RaidbLevel.RAIDB_1, tablesByBackend, tables, EVERYWHERE);
    }

    public ReadPolicy readPolicy() {
        return readPolicy;
    }
}
