package org.raidb.controller.analysis;

/**
 * What the analyser asks about a function a SELECT calls: may the call change data, so that the
 * SELECT must run on every backend, in the write order? Answered from the backends' catalogues
 * (PostgreSQL {@code pg_proc.provolatile}, MariaDB {@code information_schema.ROUTINES}) and {@link
 * ReadOnlyFunctions}; a name known to neither may write (DESIGN: unknown means conservative).
 *
 * <p>Asked on every execution of a SELECT that calls functions, never cached with the analysis, so
 * that function DDL takes effect at once: an implementation answers from memory.
 */
@FunctionalInterface
public interface FunctionVolatility {

    /** Without a catalogue: the built-in read-only functions read, everything else may write. */
    FunctionVolatility BUILT_INS_ONLY = name -> !ReadOnlyFunctions.contains(name);

    /**
     * Whether a call of the function may write, which makes the statement calling it a write.
     *
     * @param name lower-case, unqualified
     */
    boolean mayWrite(String name);
}
