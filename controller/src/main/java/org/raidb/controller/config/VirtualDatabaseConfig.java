package org.raidb.controller.config;

import java.util.List;

/** One {@code <virtualDatabase>}: its users, its backends, how writes are ordered and how requests are spread. */
public record VirtualDatabaseConfig(
    String name,
    AuthenticationConfig authentication,
    List<BackendConfig> backends,
    ReplicationConfig replication,
    SchedulerConfig scheduler) {

  /** A virtual database with the default scheduler. */
  public VirtualDatabaseConfig(
      String name, AuthenticationConfig authentication, List<BackendConfig> backends, ReplicationConfig replication) {
    this(name, authentication, backends, replication, SchedulerConfig.DEFAULT);
  }
}
