package org.raidb.controller.scheduler;

/** How the write order is kept; see {@link TableLockManager} and docs/architecture.md. */
public enum SchedulerType {
  /**
   * Table locks held for one statement; a transaction's row locks are left to the backends. Writes of
   * different transactions interleave statement by statement.
   */
  QUERY("query"),
  /** Table locks taken as a transaction first writes a table and held to its end, with deadlock detection. */
  OPTIMISTIC_TRANSACTION("optimisticTransaction"),
  /** One write transaction at a time: the first write of a transaction locks every table. */
  PESSIMISTIC_TRANSACTION("pessimisticTransaction");

  private final String configName;

  SchedulerType(String configName) {
    this.configName = configName;
  }

  public static SchedulerType byName(String name) {
    for (SchedulerType t : values()) {
      if (t.configName.equals(name)) {
        return t;
      }
    }
    throw new IllegalArgumentException("unknown scheduler '" + name + "': use optimisticTransaction, "
        + "pessimisticTransaction or query");
  }

  public String configName() {
    return configName;
  }
}
