package org.raidb.balancer;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Where CREATE TABLE puts a new table: the first rule whose table pattern matches the name decides,
 * else the default rule. Immutable but for the rules' round-robin turns; thread-safe.
 */
public final class CreateTablePolicy {
    private final List<CreateTableRule> tableRules;
    private final CreateTableRule defaultRule;

    /**
     * @param tableRules rules with a table pattern, tried in order
     * @param defaultRule the rule for names no pattern matches; it has no pattern
     */
    public CreateTablePolicy(List<CreateTableRule> tableRules, CreateTableRule defaultRule) {
        for (CreateTableRule r : tableRules) {
            if (r.tables() == null) {
                throw new IllegalArgumentException(
                        "only the default create-table rule may omit the table pattern: " + r);
            }
        }
        if (defaultRule.tables() != null) {
            throw new IllegalArgumentException(
                    "the default create-table rule applies to every table and takes no table pattern: " + defaultRule);
        }
        this.tableRules = List.copyOf(tableRules);
        this.defaultRule = defaultRule;
    }

    /** A new table goes to every candidate backend: RAIDb-1's rule, and RAIDb-2's when nothing is configured. */
    public static CreateTablePolicy everywhere() {
        return new CreateTablePolicy(List.of(), CreateTableRule.all());
    }

    public CreateTableRule ruleFor(String table) {
        for (CreateTableRule r : tableRules) {
            if (r.appliesTo(table)) {
                return r;
            }
        }
        return defaultRule;
    }

    /** The table rules in order, then the default rule. */
    public List<CreateTableRule> rules() {
        List<CreateTableRule> all = new ArrayList<>(tableRules);
        all.add(defaultRule);
        return all;
    }

    /** The backends that must create {@code table}, in the order of {@code backends}. */
    public <B extends BackendView> List<B> place(String table, List<B> backends) throws NotEnoughBackendsException {
        return place(table, Set.of(), backends);
    }

    /**
     * The backends that must create {@code table}, a CREATE TABLE … AS SELECT or a table whose foreign
     * keys reference {@code sourceTables}: only backends holding them all can.
     */
    public <B extends BackendView> List<B> place(String table, Set<String> sourceTables, List<B> backends)
            throws NotEnoughBackendsException {
        return ruleFor(table).place(table, sourceTables, backends);
    }
}
