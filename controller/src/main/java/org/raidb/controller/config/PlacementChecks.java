package org.raidb.controller.config;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.raidb.balancer.LoadBalancer;
import org.raidb.balancer.PlacementProblem;
import org.raidb.controller.config.ElementLocations.Located;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the tables of a RAIDb-0 or RAIDb-2 virtual database are, checked when the file is loaded: the
 * static placement ({@code <backend><table/></backend>}) against the level and the create-table rules,
 * as the level judges it ({@link LoadBalancer#placementProblems}). Errors point at the element to
 * change; warnings (less fault tolerance than the level promises) are logged. A placement read from
 * the backends' schemas is checked when the virtual database starts, by the same level.
 */
final class PlacementChecks {
    private static final Logger log = LoggerFactory.getLogger(PlacementChecks.class);

    private final VirtualDatabaseConfig vdb;
    private final String source;
    private final ElementLocations locations;
    private final List<String> problems;
    private final Located vdbElement;
    private final Located levelElement;

    private PlacementChecks(
            VirtualDatabaseConfig vdb, String source, ElementLocations locations, List<String> problems) {
        this.vdb = vdb;
        this.source = source;
        this.locations = locations;
        this.problems = problems;
        this.vdbElement = locations
                .firstAfter(null, "virtualDatabase", "name", vdb.name())
                .orElse(null);
        this.levelElement = locations.namedAfter(vdbElement, vdb.replication().level(), "virtualDatabase").stream()
                .findFirst()
                .orElse(vdbElement);
    }

    static void check(VirtualDatabaseConfig vdb, String source, ElementLocations locations, List<String> problems) {
        new PlacementChecks(vdb, source, locations, problems).check();
    }

    private void check() {
        ReplicationConfig replication = vdb.replication();
        List<BackendConfig> configured =
                vdb.backends().stream().filter(b -> b.tables() != null).toList();
        if (!replication.placementLevel(List.of()).partial()) {
            for (BackendConfig b : configured) {
                error(
                        tableOf(b.name(), b.tables().get(0)),
                        "backend " + b.name() + " lists its tables, but " + replication.level()
                                + " keeps every table on every backend: remove its <table> elements, or use raidb0 or raidb2");
            }
            return;
        }
        boolean staticPlacement = !configured.isEmpty();
        if (staticPlacement && configured.size() < vdb.backends().size()) {
            BackendConfig without = vdb.backends().stream()
                    .filter(b -> b.tables() == null)
                    .findFirst()
                    .orElseThrow();
            error(
                    backend(without.name()),
                    "backend " + without.name() + " lists no <table> while "
                            + configured.get(0).name()
                            + " does: give every backend of virtual database " + vdb.name()
                            + " its tables, or none of them (their tables"
                            + " are then read from their schemas)");
            return;
        }
        Optional<LoadBalancer> level = levelWithItsRules();
        if (level.isEmpty()) {
            return;
        }
        Map<String, Set<String>> tablesByBackend = new LinkedHashMap<>();
        for (BackendConfig b : vdb.backends()) {
            tablesByBackend.put(b.name(), staticPlacement ? lowerCase(b.tables()) : Set.of());
        }
        // Read from the schemas: only the rules can be checked now; the tables are, when the database starts.
        Set<String> declared = staticPlacement ? lowerCase(replication.tables()) : Set.of();
        for (PlacementProblem p : level.get().placementProblems(tablesByBackend, declared)) {
            SourcePosition at = locate(p);
            if (p.severity() == PlacementProblem.Severity.ERROR) {
                problems.add(at.describe(p.message()));
            } else {
                log.warn("{}", at.describe(p.message()));
            }
        }
    }

    /**
     * The level with its create-table rules, or empty after reporting why they cannot be built. Each rule
     * is put to the level alone, so that every rule it cannot follow is reported at its element.
     */
    private Optional<LoadBalancer> levelWithItsRules() {
        List<ReplicationConfig.CreateTableConfig> rules = vdb.replication().createTables();
        List<Located> elements = locations.namedAfter(levelElement, "createTable", "virtualDatabase");
        boolean built = true;
        int defaults = 0;
        for (int i = 0; i < rules.size(); i++) {
            ReplicationConfig.CreateTableConfig rule = rules.get(i);
            Located at = i < elements.size() ? elements.get(i) : levelElement;
            if (rule.tables() == null && ++defaults > 1) {
                error(
                        at,
                        "a second <createTable> without a tables pattern: only one rule may be the default; give this one a "
                                + "tables pattern, or remove it");
                built = false;
                continue;
            }
            try {
                vdb.replication().placementLevel(List.of(rule.toRule()));
            } catch (IllegalArgumentException e) {
                error(at, e.getMessage());
                built = false;
            }
        }
        if (!built) {
            return Optional.empty();
        }
        return Optional.of(vdb.replication().placementLevel());
    }

    private SourcePosition locate(PlacementProblem p) {
        if (p.table() == null) {
            List<Located> elements = locations.namedAfter(levelElement, "createTable", "virtualDatabase");
            List<ReplicationConfig.CreateTableConfig> configs =
                    vdb.replication().createTables();
            for (int i = 0; i < configs.size() && i < elements.size(); i++) {
                if (p.message().contains(configs.get(i).toRule().toString())) {
                    return position(elements.get(i));
                }
            }
            return position(levelElement);
        }
        Optional<Located> declared = locations.namedAfter(levelElement, "table", "virtualDatabase").stream()
                .filter(t -> p.table().equalsIgnoreCase(t.attribute("name")))
                .findFirst();
        if (declared.isPresent()) {
            return position(declared.get());
        }
        for (String b : p.backends()) {
            Located table = tableOf(b, p.table());
            if (table != null) {
                return position(table);
            }
        }
        return position(levelElement);
    }

    private Located backend(String name) {
        return locations.firstAfter(vdbElement, "backend", "name", name).orElse(vdbElement);
    }

    /** The {@code <table>} element naming {@code table} in backend {@code name}'s list. */
    private Located tableOf(String backendName, String table) {
        Located b = backend(backendName);
        return locations.following(b, Set.of("login", "table")).stream()
                .filter(t -> t.name().equals("table") && table.equalsIgnoreCase(t.attribute("name")))
                .findFirst()
                .orElse(null);
    }

    private void error(Located at, String message) {
        problems.add(position(at).describe(message));
    }

    private SourcePosition position(Located at) {
        return at == null ? new SourcePosition(source, -1, -1) : new SourcePosition(source, at.line(), at.column());
    }

    private static Set<String> lowerCase(List<String> tables) {
        Set<String> out = new LinkedHashSet<>();
        tables.forEach(t -> out.add(t.toLowerCase(java.util.Locale.ROOT)));
        return out;
    }
}
