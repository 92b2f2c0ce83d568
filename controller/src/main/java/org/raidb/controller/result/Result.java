package org.raidb.controller.result;

import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * One result of a statement, as a client receives it: an update count or rows. Sealed so that the
 * two cases are handled where they are told apart ({@link #map}), not guessed at with casts.
 */
public sealed interface Result permits UpdateCount, Rows {

    /** What this result becomes for each case (the wire item, a flag, a hash). */
    <T> T map(LongFunction<T> count, Function<RowSource, T> rows);

    /** What must agree between backends for them to be called identical: the count, or the number of rows. */
    String signature();

    /** Frees what a result not handed to a client holds on its backend (an open cursor). */
    void discard();
}
