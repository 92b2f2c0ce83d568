package org.raidb.balancer;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A statement needs tables together that no single backend holds together. The controller runs no
 * distributed joins (nor writes that read from another backend), so it refuses the statement
 * (SQLState 0A000, feature not supported). The message names each table with the enabled backends
 * holding it, so that the placement can be fixed.
 */
public class TablesNotColocatedException extends NoBackendAvailableException {
    private final Map<String, List<String>> holders;
    private final String lackingBackend;
    private final Set<String> missingTables;

    private TablesNotColocatedException(
            String message, Map<String, List<String>> holders, String lackingBackend, Set<String> missingTables) {
        super(message);
        this.holders = holders;
        this.lackingBackend = lackingBackend;
        this.missingTables = missingTables;
    }

    /** No enabled backend holds all of the tables. {@code holders}: each table's enabled holders. */
    public static TablesNotColocatedException noCommonBackend(Map<String, List<String>> holders) {
        return new TablesNotColocatedException(
                "no enabled backend holds all of the tables " + String.join(", ", holders.keySet())
                        + " that this statement uses together (" + describe(holders)
                        + "); distributed joins are not supported: place these "
                        + "tables on a common backend",
                holders,
                null,
                Set.of());
    }

    /**
     * A write must run on every backend holding the tables it writes, but one of them lacks a table the
     * statement also uses (an INSERT … SELECT reading a table placed elsewhere).
     */
    public static TablesNotColocatedException writeTargetLacks(
            String backend, Set<String> missing, Set<String> written, Map<String, List<String>> holders) {
        String missingList = String.join(", ", missing);
        return new TablesNotColocatedException(
                "the write to " + String.join(", ", written)
                        + " must run on every backend holding it, but backend " + backend + " does not hold "
                        + missingList
                        + ", which the statement also uses (" + describe(holders) + "): place " + missingList + " on "
                        + backend
                        + " as well, or the written table only where " + missingList + " is",
                holders,
                backend,
                Set.copyOf(missing));
    }

    /** Each table the statement uses, with the names of the enabled backends holding it. */
    public Map<String, List<String>> holders() {
        return holders;
    }

    /** For a refused write: the backend that would have to run it but lacks {@link #missingTables()}. */
    public Optional<String> lackingBackend() {
        return Optional.ofNullable(lackingBackend);
    }

    public Set<String> missingTables() {
        return missingTables;
    }

    private static String describe(Map<String, List<String>> holders) {
        return holders.entrySet().stream()
                .map(e -> e.getKey() + " on "
                        + (e.getValue().isEmpty() ? "no enabled backend" : String.join(", ", e.getValue())))
                .collect(Collectors.joining("; "));
    }
}
