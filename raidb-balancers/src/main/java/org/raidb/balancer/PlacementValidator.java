package org.raidb.balancer;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.raidb.balancer.PlacementProblem.Severity;

/**
 * Checks a configured placement of tables on backends against the level and the create-table rules,
 * before the virtual database starts, so that a mistake is reported once, at load, with what to
 * change, rather than as refused statements later.
 */
public final class PlacementValidator {
    /** Copies a table needs for error checking to outvote one wrong answer (RAIDb paper, section 3.5). */
    private static final int ERROR_CHECKING_COPIES = 3;

    private PlacementValidator() {}

    /**
     * Returns every problem of the placement: errors the virtual database cannot start with, and
     * warnings.
     *
     * @param tablesByBackend each backend's configured tables, in the virtual database's backend order
     * @param tables the tables the virtual database must serve; tables named only by backends are
     *     checked too
     * @return every problem found, errors and warnings, tables in name order; empty when all is well
     */
    public static List<PlacementProblem> validate(
            RaidbLevel level,
            Map<String, Set<String>> tablesByBackend,
            Set<String> tables,
            CreateTablePolicy createTable) {
        List<PlacementProblem> problems = new ArrayList<>();
        checkRules(createTable, tablesByBackend.keySet(), problems);
        if (!level.partial()) {
            if (level.errorChecking() && tablesByBackend.size() < ERROR_CHECKING_COPIES) {
                problems.add(new PlacementProblem(
                        Severity.WARNING,
                        null,
                        List.copyOf(tablesByBackend.keySet()),
                        level.configName()
                                + " has " + tablesByBackend.size() + " backends: error checking needs "
                                + ERROR_CHECKING_COPIES
                                + " to outvote a wrong answer, so any disagreement fails the read; add a backend"));
            }
            return problems;
        }
        Set<String> all = new TreeSet<>(tables);
        tablesByBackend.values().forEach(all::addAll);
        for (String table : all) {
            List<String> holders = new ArrayList<>();
            tablesByBackend.forEach((backend, held) -> {
                if (held.contains(table)) {
                    holders.add(backend);
                }
            });
            checkTable(level, table, holders, createTable.ruleFor(table), problems);
        }
        return problems;
    }

    private static void checkTable(
            RaidbLevel level,
            String table,
            List<String> holders,
            CreateTableRule rule,
            List<PlacementProblem> problems) {
        String on = String.join(", ", holders);
        if (holders.isEmpty()) {
            problems.add(new PlacementProblem(
                    Severity.ERROR,
                    table,
                    holders,
                    "table " + table + " is on no backend: add it to the " + "tables of "
                            + (level == RaidbLevel.RAIDB_0 ? "one backend" : "at least two backends")));
        } else if (level == RaidbLevel.RAIDB_0) {
            if (holders.size() > 1) {
                problems.add(
                        new PlacementProblem(
                                Severity.ERROR,
                                table,
                                holders,
                                "table " + table + " is on backends " + on
                                        + ", but RAIDb-0 keeps each table on exactly one backend: remove it from all but one, or use raidb2 to replicate it"));
            }
        } else if (holders.size() < requiredCopies(rule)) {
            problems.add(new PlacementProblem(
                    Severity.ERROR,
                    table,
                    holders,
                    "table " + table + " is on " + count(holders) + " ("
                            + on + ") but the " + rule + " gives tables of that name " + requiredCopies(rule)
                            + " copies: add " + table
                            + " to more backends, or change the rule"));
        } else if (holders.size() == 1) {
            problems.add(new PlacementProblem(
                    Severity.WARNING,
                    table,
                    holders,
                    "table " + table + " is on one backend only (" + on + "): it cannot be read or written while " + on
                            + " is down; add it to another backend"));
        } else if (level.errorChecking() && holders.size() < ERROR_CHECKING_COPIES) {
            problems.add(new PlacementProblem(
                    Severity.WARNING,
                    table,
                    holders,
                    "table " + table + " is on " + count(holders)
                            + " (" + on + "): error checking needs " + ERROR_CHECKING_COPIES
                            + " copies to outvote a wrong answer, so any "
                            + "disagreement fails the read; add it to another backend"));
        }
    }

    /** An unrestricted all rule places as many copies as there are candidates: it demands nothing of existing tables. */
    private static int requiredCopies(CreateTableRule rule) {
        return rule.choice() == CreateTableRule.Choice.ALL ? rule.backends().size() : rule.nodes();
    }

    private static void checkRules(
            CreateTablePolicy createTable, Set<String> backends, List<PlacementProblem> problems) {
        for (CreateTableRule rule : createTable.rules()) {
            Set<String> unknown = new LinkedHashSet<>(rule.backends());
            unknown.removeAll(backends);
            if (!unknown.isEmpty()) {
                problems.add(new PlacementProblem(
                        Severity.ERROR,
                        null,
                        List.copyOf(unknown),
                        "the " + rule + " names "
                                + String.join(", ", unknown) + ", not "
                                + (unknown.size() > 1 ? "backends" : "a backend")
                                + " of this virtual database: use one of " + String.join(", ", backends)));
            }
            int candidates = rule.backends().isEmpty()
                    ? backends.size()
                    : rule.backends().size() - unknown.size();
            if (rule.choice() != CreateTableRule.Choice.ALL && rule.nodes() > candidates) {
                problems.add(new PlacementProblem(
                        Severity.ERROR,
                        null,
                        rule.backends(),
                        "the " + rule + " asks for " + rule.nodes()
                                + " copies but can choose among " + candidates
                                + (candidates == 1 ? " backend" : " backends")
                                + ": every CREATE TABLE it applies to would fail; "
                                + "lower nodes or allow more backends"));
            }
        }
    }

    private static String count(List<String> backends) {
        return backends.size() + (backends.size() == 1 ? " backend" : " backends");
    }
}
