package org.raidb.controller.analysis;

/** Transaction demarcation written as SQL text rather than through the JDBC API. */
public enum TransactionCommand {
    BEGIN,
    COMMIT,
    ROLLBACK,
    SAVEPOINT,
    ROLLBACK_TO_SAVEPOINT,
    RELEASE_SAVEPOINT
}
