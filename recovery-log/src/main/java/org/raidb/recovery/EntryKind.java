package org.raidb.recovery;

/**
 * What a log entry records. Stored as its {@link #code()}, a small number that never changes (not the
 * ordinal: a kind added later must not renumber the stored ones); docs/recovery-log.md lists them.
 */
public enum EntryKind {
    BEGIN(1),
    WRITE(2),
    /** A write outside any transaction: replayed on its own. */
    AUTOCOMMIT_WRITE(3),
    DDL(4),
    COMMIT(5),
    ROLLBACK(6),
    SAVEPOINT(7),
    ROLLBACK_TO_SAVEPOINT(8),
    RELEASE_SAVEPOINT(9);

    private final int code;

    EntryKind(int code) {
        this.code = code;
    }

    /** The stored form. */
    public int code() {
        return code;
    }

    static EntryKind ofCode(int code) {
        for (EntryKind k : values()) {
            if (k.code == code) {
                return k;
            }
        }
        throw new IllegalArgumentException("no entry kind has code " + code + " (a log written by a newer RAIDb?)");
    }

    /** True for the kinds that end a transaction. */
    public boolean endsTransaction() {
        return this == COMMIT || this == ROLLBACK;
    }

    /** True for the kinds whose savepoint name travels in the entry's SQL field. */
    public boolean isSavepoint() {
        return this == SAVEPOINT || this == ROLLBACK_TO_SAVEPOINT || this == RELEASE_SAVEPOINT;
    }
}
