package org.raidb.controller.scheduler;

/** How the write order is kept; see {@link ClassLockManager} and docs/architecture.md, step 4. */
public enum SchedulerType {
    /**
     * Table locks held for one statement; a transaction's row locks are left to the backends. Writes of
     * different transactions interleave statement by statement.
     */
    QUERY("query"),
    /**
     * Conflict classes (rows, unique values, foreign-key parents, sequences, else tables) taken as a
     * transaction first claims them and held to its end, with deadlock detection: the default.
     */
    OPTIMISTIC_TRANSACTION("optimisticTransaction"),
    /** One write transaction at a time: the first write of a transaction claims every class. */
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
        throw new IllegalArgumentException(
                "unknown scheduler '" + name + "': use optimisticTransaction, " + "pessimisticTransaction or query");
    }

    public String configName() {
        return configName;
    }
}
