package org.raidb.balancer;

/**
 * What routing needs to know about a backend. The controller's backends implement it; unit tests use
 * fakes. Partial replication is assumed from the start: a backend holds a set of tables.
 */
public interface BackendView {
  String name();

  boolean isEnabled();

  /** Whether this backend holds the table (names are compared lower-case, unqualified). */
  boolean holdsTable(String table);

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
