package org.raidb.driver.protocol;

import java.lang.reflect.Array;
import java.util.List;

/**
 * An SQL array on the wire: the name of its element type as the backend knows it ({@code int4},
 * {@code text}, {@code uuid}...) and its elements, Java null for SQL NULL. A multi-dimensional
 * array holds one SqlArray per element of its first dimension.
 */
public record SqlArray(String elementTypeName, List<Object> elements) {
    /**
     * The elements as nested Java arrays, the shape {@code Connection.createArrayOf} takes: an
     * {@code Object[][]} for two dimensions, so that a driver sees the dimensions in the array's class.
     */
    public Object[] toNestedArray() {
        int depth = depth();
        Class<?> component = depth == 1
                ? Object.class
                : Array.newInstance(Object.class, new int[depth - 1]).getClass();
        Object[] out = (Object[]) Array.newInstance(component, elements.size());
        for (int i = 0; i < out.length; i++) {
            Object e = elements.get(i);
            out[i] = e instanceof SqlArray inner ? inner.toNestedArray() : e;
        }
        return out;
    }

    /** Dimensions: 1 plus those of the first element that is an array. */
    public int depth() {
        for (Object e : elements) {
            if (e instanceof SqlArray inner) {
                return 1 + inner.depth();
            }
        }
        return 1;
    }
}
