package org.raidb.controller.analysis;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The advisory-lock functions a statement calls: PostgreSQL's {@code pg_advisory_*} family and
 * MariaDB's {@code GET_LOCK} family. Such a statement must run where the locks are, on one lock
 * backend, on the session's own connection there; see {@code request.AdvisoryLockPath}.
 *
 * @param functions the names called, lower-case
 */
public record AdvisoryLockCalls(Set<String> functions) {
    /** Calls that take or release locks held until the session ends or releases them. */
    private static final Set<String> SESSION_LEVEL = Set.of(
            "pg_advisory_lock",
            "pg_advisory_lock_shared",
            "pg_try_advisory_lock",
            "pg_try_advisory_lock_shared",
            "pg_advisory_unlock",
            "pg_advisory_unlock_shared",
            "pg_advisory_unlock_all",
            "get_lock",
            "release_lock",
            "release_all_locks");
    /** Locks held until the transaction ends, and calls that only look at locks. */
    private static final Set<String> OTHERS = Set.of(
            "pg_advisory_xact_lock",
            "pg_advisory_xact_lock_shared",
            "pg_try_advisory_xact_lock",
            "pg_try_advisory_xact_lock_shared",
            "is_free_lock",
            "is_used_lock");

    public AdvisoryLockCalls {
        functions = Set.copyOf(functions);
    }

    /** The advisory-lock calls among the functions a statement calls (lower-case names), or null if none. */
    public static AdvisoryLockCalls of(Set<String> calls) {
        Set<String> found = new LinkedHashSet<>();
        for (String name : calls) {
            if (SESSION_LEVEL.contains(name) || OTHERS.contains(name)) {
                found.add(name);
            }
        }
        return found.isEmpty() ? null : new AdvisoryLockCalls(found);
    }

    /** Whether the statement may change what the session holds beyond its transaction. */
    public boolean changesSessionLocks() {
        return functions.stream().anyMatch(SESSION_LEVEL::contains);
    }

    /**
     * MariaDB: whether it may take a lock (GET_LOCK). MariaDB cannot tell which locks a connection
     * holds, so its connection is kept from the first GET_LOCK until RELEASE_ALL_LOCKS.
     */
    public boolean mayTakeMariaDbLock() {
        return functions.contains("get_lock");
    }

    /** MariaDB: whether it releases every lock of the connection (RELEASE_ALL_LOCKS). */
    public boolean releasesAllMariaDbLocks() {
        return functions.contains("release_all_locks");
    }
}
