package org.raidb.recovery;

/** What a log entry records. Stored by name so that an administrator can read the table. */
public enum EntryKind {
    BEGIN,
    WRITE,
    /** A write outside any transaction: replayed on its own. */
    AUTOCOMMIT_WRITE,
    DDL,
    COMMIT,
    ROLLBACK,
    SAVEPOINT,
    ROLLBACK_TO_SAVEPOINT,
    RELEASE_SAVEPOINT;

    /** True for the kinds that end a transaction. */
    public boolean endsTransaction() {
        return this == COMMIT || this == ROLLBACK;
    }

    /** True for the kinds whose savepoint name travels in the entry's SQL field. */
    public boolean isSavepoint() {
        return this == SAVEPOINT || this == ROLLBACK_TO_SAVEPOINT || this == RELEASE_SAVEPOINT;
    }
}
