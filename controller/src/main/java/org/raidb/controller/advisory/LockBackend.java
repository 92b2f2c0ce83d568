package org.raidb.controller.advisory;

import java.util.List;
import org.raidb.controller.backend.DatabaseBackend;

/**
 * The one backend of a virtual database where advisory locks live: every advisory-lock call goes
 * there, so that two sessions asking for the same key meet in one lock table, as on one server.
 *
 * <p>It is the first enabled backend in configuration order, and it stays the lock backend while it
 * is enabled, even when a backend listed before it comes back: sessions hold locks on it. When it
 * leaves the array, the next call chooses the first enabled backend again; the locks held on the old
 * one are lost, and their sessions are told ({@code request.AdvisoryLockPath}).
 */
public final class LockBackend {
    private final List<DatabaseBackend> backends;
    private DatabaseBackend current;

    /** @param backends the virtual database's backends, in configuration order (a live list) */
    public LockBackend(List<DatabaseBackend> backends) {
        this.backends = backends;
    }

    /** The lock backend now, or null when no backend is enabled. */
    public synchronized DatabaseBackend current() {
        if (current == null || !current.isEnabled()) {
            current = backends.stream()
                    .filter(DatabaseBackend::isEnabled)
                    .findFirst()
                    .orElse(null);
        }
        return current;
    }
}
