package org.raidb.balancer;

/**
 * The RAIDb levels (RAIDb paper, section 3), by their configuration names: the names
 * {@link LoadBalancers} builds a balancer for, and the rules {@link PlacementValidator} checks a
 * placement against. The controller asks the {@link LoadBalancer}, not this.
 */
public enum RaidbLevel {
    RAIDB_0("raidb0", true, false),
    RAIDB_1("raidb1", false, false),
    RAIDB_1EC("raidb1ec", false, true),
    RAIDB_2("raidb2", true, false),
    RAIDB_2EC("raidb2ec", true, true);

    private final String configName;
    private final boolean partial;
    private final boolean errorChecking;

    RaidbLevel(String configName, boolean partial, boolean errorChecking) {
        this.configName = configName;
        this.partial = partial;
        this.errorChecking = errorChecking;
    }

    public String configName() {
        return configName;
    }

    /** Whether backends hold different sets of tables, so that the placement must be configured. */
    public boolean partial() {
        return partial;
    }

    /** Whether reads are voted on. */
    public boolean errorChecking() {
        return errorChecking;
    }

    public static RaidbLevel byName(String name) {
        for (RaidbLevel l : values()) {
            if (l.configName.equals(name)) {
                return l;
            }
        }
        throw new IllegalArgumentException(
                "unknown RAIDb level '" + name + "': use raidb0, raidb1, raidb1ec, raidb2 or raidb2ec");
    }
}
