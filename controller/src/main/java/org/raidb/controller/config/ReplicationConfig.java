package org.raidb.controller.config;

import java.util.List;
import org.raidb.balancer.CreateTablePolicy;
import org.raidb.balancer.CreateTableRule;
import org.raidb.balancer.LevelConfig;
import org.raidb.balancer.LoadBalancer;
import org.raidb.balancer.LoadBalancers;

/**
 * The RAIDb level element ({@code <raidb1 readPolicy="roundRobin" completion="all"/>},
 * {@code <raidb2 …><createTable …/></raidb2>}, …).
 *
 * @param level raidb0, raidb1, raidb1ec, raidb2 or raidb2ec
 * @param readPolicy a read policy name (roundRobin, weightedRoundRobin, leastPending) or a class name
 * @param completion first, majority or all (always all for raidb0)
 * @param nodes for the error-checking levels, the backends a read is sent to; else null
 * @param createTables the create-table rules in file order (raidb0, raidb2, raidb2ec)
 * @param tables the tables the virtual database must serve, if declared (each must be placed)
 */
public record ReplicationConfig(
        String level,
        String readPolicy,
        String completion,
        Integer nodes,
        List<CreateTableConfig> createTables,
        List<String> tables) {

    /** A level without create-table rules or declared tables (raidb1). */
    public ReplicationConfig(String level, String readPolicy, String completion) {
        this(level, readPolicy, completion, null, List.of(), List.of());
    }

    public ReplicationConfig {
        createTables = List.copyOf(createTables);
        tables = List.copyOf(tables);
    }

    /**
     * The level's settings as {@link LoadBalancers#of} takes them.
     *
     * @throws IllegalArgumentException for create-table rules that cannot be built (nodes with policy
     *     all), naming the rule
     */
    public LevelConfig levelConfig() {
        return new LevelConfig(
                level,
                readPolicy,
                completion,
                nodes,
                createTables.stream().map(CreateTableConfig::toRule).toList());
    }

    /**
     * The level as far as the placement of tables goes (whether backends hold subsets of the tables,
     * where new tables go, what a placement must satisfy), with {@code rules} as its create-table rules.
     * It has the built-in read policy: a read-policy class is loaded when the virtual database starts,
     * not when its file is checked.
     *
     * @throws IllegalArgumentException for rules the level cannot follow, saying why
     */
    LoadBalancer placementLevel(List<CreateTableRule> rules) {
        return LoadBalancers.of(new LevelConfig(level, ConfigDefaults.READ_POLICY, completion, nodes, rules));
    }

    /** {@link #placementLevel(List)} with the configured create-table rules. */
    LoadBalancer placementLevel() {
        return placementLevel(levelConfig().createTableRules());
    }

    /**
     * Where new tables go: the rules with a table pattern in file order, then the rule without one, or
     * the level's default (RAIDb-0: one backend in turn; the others: every backend).
     *
     * @throws IllegalArgumentException for rules that cannot be built or that the level cannot follow
     *     (two default rules, nodes with policy all, several copies under RAIDb-0), naming the rule
     */
    public CreateTablePolicy createTablePolicy() {
        return placementLevel().createTablePolicy();
    }

    /**
     * One {@code <createTable policy="…" nodes="…" tables="…"><backend name="…"/></createTable>}.
     *
     * @param tables the glob, or null for the default rule
     * @param nodes null when not given
     */
    public record CreateTableConfig(String tables, String policy, Integer nodes, List<String> backends) {
        public CreateTableConfig {
            backends = List.copyOf(backends);
        }

        CreateTableRule toRule() {
            CreateTableRule rule = CreateTableRule.of(policy, nodes);
            if (!backends.isEmpty()) {
                rule = rule.onBackends(backends);
            }
            return tables == null ? rule : rule.forTables(tables);
        }
    }
}
