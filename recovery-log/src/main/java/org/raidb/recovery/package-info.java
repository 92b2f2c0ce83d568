/**
 * The recovery log: the durable, JDBC-stored record of every write and transaction demarcation in
 * write order, with checkpoints, backend states and the dump registry, and replay from a checkpoint.
 * It records and answers; it never connects to a backend. Start at {@link
 * org.raidb.recovery.RecoveryLog}; docs/recovery-log.md explains the design.
 */
package org.raidb.recovery;
