package org.raidb.balancer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * RAIDb-1ec and RAIDb-2ec (RAIDb paper, sections 3.3 and 3.5): a RAIDb-1 or RAIDb-2 level whose
 * reads are sent to several backends and voted on ({@link #checkedRead}, {@link ReadVote}), to catch
 * a backend returning wrong results. Writes are routed by the level unchanged: every holder runs
 * them, and their update counts are already compared.
 *
 * <p>A read is sent first to {@code nodes} of the enabled backends holding its tables, raised to a
 * majority of them when fewer, chosen by the level's read policy (the transaction's own backends
 * first, once it has written).
 */
public final class ErrorCheckingLoadBalancer implements LoadBalancer, ReadVoting {
    private final LoadBalancer level;
    private final RaidbLevel placementRules; // RAIDb-1ec's or -2ec's, for PlacementValidator
    private final ReadPolicy readPolicy;
    private final int nodes;
    private final Optional<ReadVoting> readVote = Optional.of(this); // asked on every read

    /** RAIDb-1ec. */
    public ErrorCheckingLoadBalancer(Raidb1LoadBalancer level, int nodes) {
        this(level, RaidbLevel.RAIDB_1EC, level.readPolicy(), nodes);
    }

    /** RAIDb-2ec. */
    public ErrorCheckingLoadBalancer(Raidb2LoadBalancer level, int nodes) {
        this(level, RaidbLevel.RAIDB_2EC, level.readPolicy(), nodes);
    }

    private ErrorCheckingLoadBalancer(LoadBalancer level, RaidbLevel placementRules, ReadPolicy readPolicy, int nodes) {
        if (nodes < 2) {
            throw new IllegalArgumentException(
                    "error checking sends each read to nodes backends and compares their answers: "
                            + "nodes must be at least 2, got " + nodes);
        }
        this.level = level;
        this.placementRules = placementRules;
        this.readPolicy = readPolicy;
        this.nodes = nodes;
    }

    /** Client reads are voted on, through {@link #checkedRead}. */
    @Override
    public Optional<ReadVoting> readVote() {
        return readVote;
    }

    @Override
    public <B extends BackendView> CheckedRead<B> checkedRead(Request request, List<B> backends)
            throws NoBackendAvailableException {
        List<B> electorate = ReadCandidates.holders(request, backends);
        if (electorate.size() < 2) {
            throw new NotEnoughBackendsException(
                    "error checking compares the answers of at least 2 backends, but only "
                            + electorate.get(0).name() + " is enabled and holds " + describeTables(request)
                            + ": enable another backend holding them",
                    2,
                    1);
        }
        int ask = Math.min(electorate.size(), Math.max(nodes, ReadVote.majorityOf(electorate.size())));
        List<B> preferred = ReadCandidates.inTransaction(request, electorate);
        List<B> chosen;
        if (preferred.size() >= ask) {
            chosen = readPolicy.chooseSeveral(preferred, ask, request);
        } else {
            List<B> others = new ArrayList<>(electorate);
            others.removeAll(preferred);
            chosen = new ArrayList<>(preferred);
            chosen.addAll(readPolicy.chooseSeveral(others, ask - preferred.size(), request));
        }
        return new CheckedRead<>(List.copyOf(chosen), electorate);
    }

    /**
     * One backend, unchecked, as the level would choose it: for reads the controller does not vote on
     * (metadata). Client reads must go through {@link #checkedRead}.
     */
    @Override
    public <B extends BackendView> B readBackend(Request request, List<B> backends) throws NoBackendAvailableException {
        return level.readBackend(request, backends);
    }

    @Override
    public <B extends BackendView> List<B> writeBackends(Request request, List<B> backends)
            throws NoBackendAvailableException {
        return level.writeBackends(request, backends);
    }

    @Override
    public CompletionPolicy completion() {
        return level.completion();
    }

    @Override
    public int nodes() {
        return nodes;
    }

    @Override
    public boolean partial() {
        return level.partial();
    }

    @Override
    public boolean commitsInTwoPhases() {
        return level.commitsInTwoPhases();
    }

    @Override
    public CreateTablePolicy createTablePolicy() {
        return level.createTablePolicy();
    }

    /** The wrapped level's problems, and too few copies to outvote a wrong answer. */
    @Override
    public List<PlacementProblem> placementProblems(Map<String, Set<String>> tablesByBackend, Set<String> tables) {
        return PlacementValidator.validate(placementRules, tablesByBackend, tables, level.createTablePolicy());
    }

    private static String describeTables(Request request) {
        if (request.touchesEverything()) {
            return "the tables of this statement";
        }
        return request.tablesRead().isEmpty()
                ? "what this read needs"
                : String.join(", ", request.tablesRead().stream().sorted().toList());
    }
}
