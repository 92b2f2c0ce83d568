package org.raidb.controller.config;

import java.util.List;

/** A whole controller configuration file, after validation against config/raidb.xsd. */
public record RaidbConfig(ControllerSettings controller, List<VirtualDatabaseConfig> virtualDatabases) {
    public VirtualDatabaseConfig virtualDatabase(String name) {
        return virtualDatabases.stream()
                .filter(v -> v.name().equals(name))
                .findFirst()
                .orElse(null);
    }
}
