package org.raidb.balancer;

/**
 * Builds the balancer of a RAIDb level from its configuration. A new level is a new
 * {@link LoadBalancer} and a name here (and in {@link RaidbLevel}); the controller only asks the
 * balancer it gets.
 */
public final class LoadBalancers {
    private LoadBalancers() {}

    /**
     * Builds the balancer that {@code c} configures.
     *
     * @throws IllegalArgumentException for an unknown level name, read policy or completion, or settings
     *     the level cannot work with (error checking without nodes, RAIDb-0 rules placing several
     *     copies), saying what to change
     */
    public static LoadBalancer of(LevelConfig c) {
        return switch (RaidbLevel.byName(c.level())) {
            case RAIDB_0 -> new Raidb0LoadBalancer(c.createTablePolicy(Raidb0LoadBalancer.defaultCreateTableRule()));
            case RAIDB_1 -> raidb1(c);
            case RAIDB_1EC -> new ErrorCheckingLoadBalancer(raidb1(c), c.requireNodes());
            case RAIDB_2 -> raidb2(c);
            case RAIDB_2EC -> new ErrorCheckingLoadBalancer(raidb2(c), c.requireNodes());
        };
    }

    private static Raidb1LoadBalancer raidb1(LevelConfig c) {
        c.requireNoCreateTableRules();
        return new Raidb1LoadBalancer(c.buildReadPolicy(), c.buildCompletion());
    }

    private static Raidb2LoadBalancer raidb2(LevelConfig c) {
        return new Raidb2LoadBalancer(
                c.buildReadPolicy(), c.buildCompletion(), c.createTablePolicy(CreateTableRule.all()));
    }
}
