/**
 * The controller's integration tests, over real PostgreSQL servers (and the local MariaDB where
 * present), one package per feature:
 *
 * <ul>
 *   <li>{@code app}: applications built like real ones (HikariCP, Flyway, Hibernate) and the session
 *       settings they send;
 *   <li>{@code determinism}: writes whose values a backend would choose (now(), defaults, sequences,
 *       writing functions, long identifiers) leave identical rows everywhere;
 *   <li>{@code failures}: backends that die, hang, diverge or lose an answer, and the clients that must
 *       not notice;
 *   <li>{@code hostile}: hostile or broken input: the wire protocol, fuzzing, NUL, multi-statement
 *       strings, login throttling, frame and session memory, file permissions;
 *   <li>{@code parity}: the driver compared with pgjdbc ({@code PgjdbcParity} is their harness);
 *   <li>{@code recovery}: recovery log, checkpoints, replay, backup and restore, controller crashes and
 *       clean stops;
 *   <li>{@code replication}: the RAIDb levels, placement, error checking, reads and streaming;
 *   <li>{@code transactions}: schedulers, conflict classes, deadlocks, isolation and advisory locks;
 *   <li>{@code support}: what tests of several packages share (the in-process and forked controllers,
 *       checks on the replicas, the bank workload, MariaDB backends).
 * </ul>
 *
 * The servers themselves come from {@code org.raidb.test.PostgresClusterExtension}.
 */
package org.raidb.controller.it;
