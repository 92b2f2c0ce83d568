package org.raidb.controller.config;

import java.util.ArrayList;
import java.util.List;
import org.raidb.balancer.CreateTablePolicy;
import org.raidb.balancer.CreateTableRule;
import org.raidb.balancer.Raidb0LoadBalancer;
import org.raidb.balancer.RaidbLevel;

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
public record ReplicationConfig(String level, String readPolicy, String completion, Integer nodes,
    List<CreateTableConfig> createTables, List<String> tables) {

  /** A level without create-table rules or declared tables (raidb1). */
  public ReplicationConfig(String level, String readPolicy, String completion) {
    this(level, readPolicy, completion, null, List.of(), List.of());
  }

  public ReplicationConfig {
    createTables = List.copyOf(createTables);
    tables = List.copyOf(tables);
  }

  public RaidbLevel raidbLevel() {
    return RaidbLevel.byName(level);
  }

  /**
   * Where new tables go: the rules with a table pattern in file order, then the rule without one, or
   * the level's default (RAIDb-0: one backend in turn; the others: every backend).
   *
   * @throws IllegalArgumentException for rules that cannot be built (two default rules, nodes with
   *     policy all), naming the rule
   */
  public CreateTablePolicy createTablePolicy() {
    List<CreateTableRule> patterned = new ArrayList<>();
    CreateTableRule defaultRule = null;
    for (CreateTableConfig c : createTables) {
      CreateTableRule rule = c.toRule();
      if (c.tables() != null) {
        patterned.add(rule);
      } else if (defaultRule != null) {
        throw new IllegalArgumentException("two <createTable> rules without a tables pattern: only one default rule is "
            + "allowed; give the other a tables pattern");
      } else {
        defaultRule = rule;
      }
    }
    if (defaultRule == null) {
      defaultRule = raidbLevel() == RaidbLevel.RAIDB_0 ? Raidb0LoadBalancer.defaultCreateTablePolicy().rules().get(0)
          : CreateTableRule.all();
    }
    return new CreateTablePolicy(patterned, defaultRule);
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
