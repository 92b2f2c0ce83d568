package org.raidb.controller.config;

import java.util.ArrayList;
import java.util.List;

/** Rules XSD 1.0 cannot express, checked on the bound configuration; errors point at the element to fix. */
final class SemanticChecks {

    private SemanticChecks() {}

    static void check(RaidbConfig config, String source, ElementLocations locations) throws ConfigException {
        List<String> problems = new ArrayList<>();
        checkPortsDiffer(config.controller(), source, locations, problems);
        for (VirtualDatabaseConfig vdb : config.virtualDatabases()) {
            PlacementChecks.check(vdb, source, locations, problems);
            UrlChecks.check(vdb, source, locations, problems);
            checkGroupMembers(vdb, source, locations, problems);
        }
        ControllerBackendChecks.check(config, source, locations, problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(String.join("\n", problems));
        }
    }

    /**
     * A member list naming one address twice (this controller's own, typically, when a file is copied
     * between members) is a mistake the group would hide: the second entry would only cost lookups.
     */
    private static void checkGroupMembers(
            VirtualDatabaseConfig vdb, String source, ElementLocations locations, List<String> problems) {
        GroupConfig g = vdb.group();
        if (g == null) {
            return;
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (String m : g.members()) {
            String normal = m.toLowerCase(java.util.Locale.ROOT).replace("localhost:", "127.0.0.1:");
            if (!normal.matches("[^:\\s]+:\\d{1,5}")) {
                problems.add(position(source, locations)
                        .describe("<controllerGroup> of virtual database " + vdb.name() + ": member '" + m
                                + "' is not host:port"));
            } else if (!seen.add(normal)) {
                String self = g.bindAddress() + ":" + g.bindPort();
                problems.add(position(source, locations)
                        .describe("<controllerGroup> of virtual database " + vdb.name()
                                + ": members names " + m + " twice"
                                + (normal.equals(self.replace("localhost:", "127.0.0.1:"))
                                        ? " (this controller's own address)"
                                        : "")
                                + "; list each member once"));
            }
        }
    }

    private static SourcePosition position(String source, ElementLocations locations) {
        return locations.named("controllerGroup").stream()
                .findFirst()
                .map(e -> new SourcePosition(source, e.line(), e.column()))
                .orElse(new SourcePosition(source, -1, -1));
    }

    /** Clients, PostgreSQL clients and the admin interface cannot share a port (0, "pick any free port", is fine for both). */
    private static void checkPortsDiffer(
            ControllerSettings settings, String source, ElementLocations locations, List<String> problems) {
        SourcePosition where = locations.named("controller").stream()
                .findFirst()
                .map(e -> new SourcePosition(source, e.line(), e.column()))
                .orElse(new SourcePosition(source, -1, -1));
        if (settings.port() != 0 && settings.port() == settings.adminPort()) {
            problems.add(where.describe("<controller> port and adminPort are both " + settings.port()
                    + ": clients and the admin interface need different ports"));
        }
        int pgPort = settings.postgresWire().port();
        if (pgPort > 0 && (pgPort == settings.port() || pgPort == settings.adminPort())) {
            problems.add(where.describe("<controller> pgPort is " + pgPort
                    + ", as port or adminPort: the PostgreSQL front end needs a port of its own"));
        }
    }
}
