package org.raidb.controller.config;

import java.util.List;

/** One {@code <virtualDatabase>}: its users, its backends and how requests are spread over them. */
public record VirtualDatabaseConfig(
    String name,
    AuthenticationConfig authentication,
    List<BackendConfig> backends,
    ReplicationConfig replication) {}
