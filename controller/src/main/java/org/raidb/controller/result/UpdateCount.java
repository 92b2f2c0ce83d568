package org.raidb.controller.result;

import java.util.function.Function;
import java.util.function.LongFunction;

/** The number of rows a statement changed. */
public record UpdateCount(long count) implements Result {

    @Override
    public <T> T map(LongFunction<T> onCount, Function<RowSource, T> onRows) {
        return onCount.apply(count);
    }

    @Override
    public String signature() {
        return "update count " + count;
    }

    @Override
    public void discard() {
        // nothing is held for a number
    }
}
