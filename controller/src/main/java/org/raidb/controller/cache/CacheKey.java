package org.raidb.controller.cache;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * What makes two reads the same read: the text, the bound values, and what the session sets that may
 * change a result (its virtual user, whose backend login may see other rows; its SET statements, such
 * as search_path; the row limit).
 *
 * @param parameters bound values with arrays replaced by lists, so that equal values make equal keys
 */
public record CacheKey(
        String sql, List<Object> parameters, String virtualUser, List<String> settings, long maxRows, boolean escapes) {

    public static CacheKey of(
            String sql,
            List<Object> parameters,
            String virtualUser,
            List<String> settings,
            long maxRows,
            boolean escapeProcessing) {
        return new CacheKey(
                sql,
                parameters == null ? null : comparable(parameters),
                virtualUser,
                List.copyOf(settings),
                maxRows,
                escapeProcessing);
    }

    private static List<Object> comparable(List<Object> values) {
        List<Object> out = new ArrayList<>(values.size());
        for (Object v : values) {
            out.add(comparable(v));
        }
        return Collections.unmodifiableList(out); // values may be null: List.copyOf would refuse them
    }

    private static Object comparable(Object v) {
        if (v instanceof byte[] b) {
            return ByteBuffer.wrap(b.clone());
        }
        if (v instanceof Object[] a) {
            return comparable(Arrays.asList(a));
        }
        return v;
    }
}
