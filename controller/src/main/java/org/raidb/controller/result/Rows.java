package org.raidb.controller.result;

import java.util.function.Function;
import java.util.function.LongFunction;

/** A result set, in memory or still on its backend as a cursor. */
public record Rows(RowSource source) implements Result {

    @Override
    public <T> T map(LongFunction<T> onCount, Function<RowSource, T> onRows) {
        return onRows.apply(source);
    }

    @Override
    public String signature() {
        return source.knownRowCount() + " rows";
    }

    @Override
    public void discard() {
        source.close();
    }
}
