package org.raidb.controller.scheduler;

/**
 * A conflict class a statement takes before it is sent to the backends, held until its transaction
 * has ended on every backend (an auto-commit statement is a transaction of its own). That includes
 * sequences, whose calls no rollback undoes: the recovery log replays transactions whole in commit
 * order, so the calls of one sequence must be in commit order too.
 */
public record Claim(ConflictClass conflictClass, LockMode mode) {

    public static Claim exclusive(ConflictClass c) {
        return new Claim(c, LockMode.EXCLUSIVE);
    }

    public static Claim shared(ConflictClass c) {
        return new Claim(c, LockMode.SHARED);
    }
}
