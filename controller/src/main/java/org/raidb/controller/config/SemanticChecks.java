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
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(String.join("\n", problems));
        }
    }

    /** Clients and the admin interface cannot share a port (0, "pick any free port", is fine for both). */
    private static void checkPortsDiffer(
            ControllerSettings settings, String source, ElementLocations locations, List<String> problems) {
        if (settings.port() != 0 && settings.port() == settings.adminPort()) {
            SourcePosition where = locations.named("controller").stream()
                    .findFirst()
                    .map(e -> new SourcePosition(source, e.line(), e.column()))
                    .orElse(new SourcePosition(source, -1, -1));
            problems.add(where.describe("<controller> port and adminPort are both " + settings.port()
                    + ": clients and the admin interface need different ports"));
        }
    }
}
