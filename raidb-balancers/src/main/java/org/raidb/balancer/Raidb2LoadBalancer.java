package org.raidb.balancer;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * RAIDb-2, partial replication (RAIDb paper, sections 3.4 and 6.3): any table on any set of
 * backends. A statement runs only where every table it uses is held: a read on one such backend
 * chosen by the read policy, a write on every enabled backend holding a table it writes, each of
 * which must then also hold the tables the write reads. Nothing is joined across backends.
 *
 * <p>A table disabled on one backend (a write to it failed there) is simply not held by that backend
 * any more ({@link BackendView#holdsTable} answers false), while the backend keeps serving its other
 * tables.
 */
public final class Raidb2LoadBalancer implements LoadBalancer {
    private final ReadPolicy readPolicy;
    private final CompletionPolicy completion;
    private final CreateTablePolicy createTable;

    public Raidb2LoadBalancer(ReadPolicy readPolicy, CompletionPolicy completion, CreateTablePolicy createTable) {
        this.readPolicy = readPolicy;
        this.completion = completion;
        this.createTable = createTable;
    }

    /**
     * Inside a transaction that has written, a backend the transaction runs on is preferred; when none
     * of them holds the tables read, any holder will do: every enabled holder of a table the
     * transaction wrote is in the transaction, so the other holders cannot miss its writes.
     */
    @Override
    public <B extends BackendView> B readBackend(Request request, List<B> backends) throws NoBackendAvailableException {
        List<B> holders = ReadCandidates.holders(request, backends);
        List<B> inTransaction = ReadCandidates.inTransaction(request, holders);
        List<B> candidates = inTransaction.isEmpty() ? holders : inTransaction;
        return candidates.size() == 1 ? candidates.get(0) : readPolicy.choose(candidates, request);
    }

    @Override
    public <B extends BackendView> List<B> writeBackends(Request request, List<B> backends)
            throws NoBackendAvailableException {
        if (request.touchesEverything()) {
            List<B> enabled = TableHolders.enabled(backends);
            if (enabled.isEmpty()) {
                throw NoBackendAvailableException.noBackendEnabled();
            }
            return enabled;
        }
        if (request.createsTable()) {
            return tableCreators(request, backends);
        }
        if (request.tablesWritten().isEmpty()) {
            // SET, or SELECT … FOR UPDATE taking row locks: wherever its tables are, in the write order.
            List<B> holders = TableHolders.enabledHoldingAll(request.tablesRead(), backends);
            if (holders.isEmpty()) {
                throw TableHolders.whyNoneHoldsAll(request.tablesRead(), backends);
            }
            return holders;
        }
        return writers(request, backends);
    }

    private static <B extends BackendView> List<B> writers(Request request, List<B> backends)
            throws NoBackendAvailableException {
        List<B> targets = TableHolders.enabledHoldingAny(request.tablesWritten(), backends);
        if (targets.isEmpty()) {
            throw TableHolders.whyNoneHoldsAll(request.tablesWritten(), backends);
        }
        Set<String> used = new HashSet<>(request.tablesWritten());
        used.addAll(request.tablesRead());
        for (B target : targets) {
            Set<String> missing = new TreeSet<>();
            for (String t : used) {
                if (!target.holdsTable(t)) {
                    missing.add(t);
                }
            }
            if (!missing.isEmpty()) {
                NoBackendAvailableException why = TableHolders.whyNoneHoldsAll(used, backends);
                if (why instanceof TableNotHeldException) {
                    throw why; // a table held nowhere is the simpler fix, and the client's mistake more often than not
                }
                throw TablesNotColocatedException.writeTargetLacks(
                        target.name(), missing, request.tablesWritten(), TableHolders.enabledHolders(used, backends));
            }
        }
        return targets;
    }

    /**
     * A CREATE of a name some backend already holds goes to those holders, which all answer "already
     * exists" (or do nothing, with IF NOT EXISTS): placing it elsewhere would create an empty twin.
     * Otherwise the create-table policy chooses among the backends holding the source tables.
     */
    private <B extends BackendView> List<B> tableCreators(Request request, List<B> backends)
            throws NoBackendAvailableException {
        List<B> existing = TableHolders.enabledHoldingAny(Set.of(request.createdTable()), backends);
        if (!existing.isEmpty()) {
            return existing;
        }
        if (TableHolders.enabledHoldingAll(request.tablesRead(), backends).isEmpty()) {
            throw TableHolders.whyNoneHoldsAll(request.tablesRead(), backends);
        }
        return createTable.place(request.createdTable(), request.tablesRead(), backends);
    }

    @Override
    public CompletionPolicy completion() {
        return completion;
    }

    @Override
    public boolean partial() {
        return true;
    }

    /**
     * Tables are replicated: a backend whose commit fails while others' succeed loses the tables the
     * transaction wrote there, and their other holders carry on.
     */
    @Override
    public boolean commitsInTwoPhases() {
        return false;
    }

    @Override
    public CreateTablePolicy createTablePolicy() {
        return createTable;
    }

    @Override
    public List<PlacementProblem> placementProblems(Map<String, Set<String>> tablesByBackend, Set<String> tables) {
        return PlacementValidator.validate(RaidbLevel.RAIDB_2, tablesByBackend, tables, createTable);
    }

    public ReadPolicy readPolicy() {
        return readPolicy;
    }
}
