package org.raidb.recovery;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ids of the statement texts the writer has stored lately, so that a text is stored once and
 * entries refer to it. Bounded (least recently used out): a text that falls out, or that a
 * restarted log has not seen yet, is stored again under a new id, which costs a row, never a wrong
 * answer. Not thread-safe: the writer thread owns it.
 */
final class StatementIds {

    static final int MAX_CACHED = 4096;
    /** Longer texts are not kept in memory (each such entry gets its own statement row). */
    static final int MAX_CACHED_KEY_CHARS = 16_384;

    private final Map<String, Long> ids = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > MAX_CACHED;
        }
    };
    /** Added in the store transaction being written: forgotten again if it rolls back. */
    private final List<String> uncommitted = new ArrayList<>();

    private long lastId;

    StatementIds(long lastId) {
        this.lastId = lastId;
    }

    Long known(String key) {
        return ids.get(key);
    }

    /** A new id for {@code key}; the caller stores the statement in the current store transaction. */
    long add(String key) {
        long id = ++lastId;
        if (key.length() <= MAX_CACHED_KEY_CHARS) {
            ids.put(key, id);
            uncommitted.add(key);
        }
        return id;
    }

    void committed() {
        uncommitted.clear();
    }

    void rolledBack() {
        uncommitted.forEach(ids::remove);
        uncommitted.clear();
    }
}
