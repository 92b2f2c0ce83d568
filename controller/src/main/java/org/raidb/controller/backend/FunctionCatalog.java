package org.raidb.controller.backend;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.raidb.controller.analysis.FunctionVolatility;
import org.raidb.controller.analysis.ReadOnlyFunctions;
import org.raidb.controller.analysis.RoutineChange;

/**
 * Whether a function a SELECT calls may write, for one virtual database: from its backends'
 * catalogues ({@link BackendRoutines}), merged so that a function that may write on any backend may
 * write, and from {@link ReadOnlyFunctions} for names no catalogue knows. Answered from memory on
 * every execution of a SELECT that calls functions: no catalogue query on the request path.
 *
 * <p>Function DDL keeps it current. While DDL naming a function runs, and until its transaction has
 * ended on every backend, that function may write (conservative: its new definition is not visible
 * outside the transaction); then every enabled backend's catalogue is read again. DDL that may
 * change any function ({@code CREATE EXTENSION}, {@code DO}) makes every function a possible writer
 * for that time.
 */
public final class FunctionCatalog implements FunctionVolatility {
    private final List<DatabaseBackend> backends;
    /** Function DDL not yet settled, by owner: a transaction id, or one auto-commit statement's. */
    private final Map<Long, RoutineChange> changing = new ConcurrentHashMap<>();
    /** All of {@link #changing} at once, or null: what the hot path reads. */
    private volatile RoutineChange changingNow;

    /** @param backends the virtual database's backends, as the list changes */
    public FunctionCatalog(List<DatabaseBackend> backends) {
        this.backends = backends;
    }

    @Override
    public boolean mayWrite(String name) {
        RoutineChange c = changingNow;
        if (c != null && c.covers(name)) {
            return true;
        }
        boolean readOnly = ReadOnlyFunctions.contains(name);
        for (DatabaseBackend b : backends) {
            Boolean writes = b.routines().mayWrite(name);
            if (writes != null) {
                if (writes) {
                    return true;
                }
                readOnly = true;
            }
        }
        return !readOnly;
    }

    /** Function DDL of {@code owner} is about to run: its functions may write until it has {@link #settled}. */
    public void changing(long owner, RoutineChange change) {
        changing.merge(owner, change, RoutineChange::plus);
        recompute();
    }

    /**
     * The function DDL of {@code owner} has committed or been undone on every backend: the enabled
     * backends' catalogues are read again, then its functions are judged by them. Nothing happens for
     * an owner that ran no function DDL.
     */
    public void settled(long owner) {
        if (!changing.containsKey(owner)) {
            return;
        }
        for (DatabaseBackend b : backends) {
            if (b.isEnabled()) {
                b.refreshRoutines();
            }
        }
        changing.remove(owner);
        recompute();
    }

    private synchronized void recompute() {
        RoutineChange all = null;
        for (RoutineChange c : changing.values()) {
            all = c.plus(all);
        }
        changingNow = all;
    }
}
