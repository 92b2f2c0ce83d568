package org.raidb.balancer;

/**
 * What routing needs to know about a backend. The controller's backends implement it; unit tests use
 * fakes. Partial replication is assumed from the start: a backend holds a set of tables.
 */
public interface BackendView {
    String name();

    boolean isEnabled();

    /**
     * Whether this backend holds the table and may serve it (names are compared lower-case,
     * unqualified). False for a table disabled on this backend: see {@link #isTableDisabled}.
     */
    boolean holdsTable(String table);

    /**
     * Whether this backend has a copy of the table that was disabled because a write or commit on it
     * failed here while it succeeded elsewhere (RAIDb-2 disables the table, not the backend).
     * {@link #holdsTable} answers false for such a table, so routing never uses the stale copy; this
     * method tells routing that the copy still exists, so that a refusal can say why and a new table
     * of the same name is not placed on top of it. The copy stays until the backend is restored.
     */
    default boolean isTableDisabled(String table) {
        return false;
    }

    /** Requests sent to this backend and not yet answered. */
    int pendingRequests();

    /** Relative share of reads for weighted policies; at least 1. */
    int weight();

    /** Whether the backend holds every table in the set. */
    default boolean holdsAll(Iterable<String> tables) {
        for (String t : tables) {
            if (!holdsTable(t)) {
                return false;
            }
        }
        return true;
    }
}
