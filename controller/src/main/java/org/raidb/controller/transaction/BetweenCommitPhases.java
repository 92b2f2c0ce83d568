package org.raidb.controller.transaction;

/**
 * Called after every backend prepared a two-phase commit and before any commits it. Production runs
 * {@link #NONE}; the crash test injects a hook that halts the JVM here, to show that a restart
 * finishes the transaction.
 */
@FunctionalInterface
public interface BetweenCommitPhases {
    BetweenCommitPhases NONE = () -> {};

    void reached();
}
