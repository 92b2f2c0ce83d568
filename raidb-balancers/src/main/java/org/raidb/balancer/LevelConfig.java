package org.raidb.balancer;

import java.util.ArrayList;
import java.util.List;

/**
 * What a virtual database's configuration says about its RAIDb level, as {@link LoadBalancers#of}
 * takes it. A level ignores what it has no use for.
 *
 * @param level the level's name: raidb0, raidb1, raidb1ec, raidb2 or raidb2ec
 * @param readPolicy a read policy's short name or class name ({@link ReadPolicies})
 * @param completion first, majority or all ({@link CompletionPolicy#byName})
 * @param nodes for the error-checking levels, the backends a read is sent to; else null
 * @param createTableRules where new tables go, in the configuration's order: rules with a table
 *     pattern, and at most one without, the default (the level's own default when there is none)
 */
public record LevelConfig(
        String level, String readPolicy, String completion, Integer nodes, List<CreateTableRule> createTableRules) {

    public LevelConfig {
        createTableRules = List.copyOf(createTableRules);
    }

    /** A level without error checking or create-table rules (raidb1). */
    public LevelConfig(String level, String readPolicy, String completion) {
        this(level, readPolicy, completion, null, List.of());
    }

    /** The same level with other create-table rules. */
    public LevelConfig withCreateTableRules(List<CreateTableRule> rules) {
        return new LevelConfig(level, readPolicy, completion, nodes, rules);
    }

    /** The same level with another read policy. */
    public LevelConfig withReadPolicy(String name) {
        return new LevelConfig(level, name, completion, nodes, createTableRules);
    }

    ReadPolicy buildReadPolicy() {
        return ReadPolicies.byName(readPolicy);
    }

    CompletionPolicy buildCompletion() {
        return CompletionPolicy.byName(completion);
    }

    /** {@code nodes}, which an error-checking level cannot do without. */
    int requireNodes() {
        if (nodes == null) {
            throw new IllegalArgumentException(
                    level + " sends each read to several backends and compares their answers: "
                            + "give nodes, how many (at least 2)");
        }
        return nodes;
    }

    /**
     * The create-table rules as a policy, with {@code levelDefault} for names no pattern matches unless
     * a rule without a pattern is configured.
     */
    CreateTablePolicy createTablePolicy(CreateTableRule levelDefault) {
        List<CreateTableRule> patterned = new ArrayList<>();
        CreateTableRule defaultRule = null;
        for (CreateTableRule rule : createTableRules) {
            if (rule.tables() != null) {
                patterned.add(rule);
            } else if (defaultRule != null) {
                throw new IllegalArgumentException("two create-table rules without a table pattern (" + defaultRule
                        + ", " + rule + "): only one may be the default; give the other a table pattern");
            } else {
                defaultRule = rule;
            }
        }
        return new CreateTablePolicy(patterned, defaultRule == null ? levelDefault : defaultRule);
    }

    /** For a level that keeps every table on every backend and so has no use for create-table rules. */
    void requireNoCreateTableRules() {
        if (!createTableRules.isEmpty()) {
            throw new IllegalArgumentException(
                    level + " keeps every table on every backend and takes no create-table rules: "
                            + "remove them, or use raidb0 or raidb2 to place tables");
        }
    }
}
