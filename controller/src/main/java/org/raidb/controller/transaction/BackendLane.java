package org.raidb.controller.transaction;

import java.sql.Connection;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.raidb.controller.backend.DatabaseBackend;

/**
 * The work of one transaction on one backend, in the order the client sent it. Once a completion
 * policy lets the client go on before every backend has answered, a slower backend still has earlier
 * statements to run when later ones arrive: the lane chains them on its connection.
 */
public final class BackendLane {
    private final DatabaseBackend backend;
    private final Connection connection;
    private CompletableFuture<?> tail = CompletableFuture.completedFuture(null);
    /** The tables the transaction wrote on this backend (empty for an auto-commit lane). */
    private final Set<String> written = ConcurrentHashMap.newKeySet();
    /** A statement whose tables the controller cannot tell wrote here. */
    private volatile boolean wroteUnknownTables;

    public BackendLane(DatabaseBackend backend, Connection connection) {
        this.backend = backend;
        this.connection = connection;
    }

    public DatabaseBackend backend() {
        return backend;
    }

    public Connection connection() {
        return connection;
    }

    /**
     * Runs the work after everything submitted before. When the lane is idle and {@code inline} is set,
     * the work runs on the calling thread: that saves a thread hand-off on the common path.
     */
    public synchronized <T> CompletableFuture<T> submit(Supplier<T> work, Executor executor, boolean inline) {
        CompletableFuture<T> next;
        if (inline && tail.isDone()) {
            next = CompletableFuture.completedFuture(work.get());
        } else {
            next = tail.handle((ignored, error) -> null).thenApplyAsync(ignored -> work.get(), executor);
        }
        tail = next;
        return next;
    }

    /** A write of the transaction succeeded here; {@code unknown}: its tables could not be told. */
    public void wrote(Set<String> tables, boolean unknown) {
        written.addAll(tables);
        if (unknown) {
            wroteUnknownTables = true;
        }
    }

    /** Whether the transaction has written on this backend. */
    public boolean hasWritten() {
        return wroteUnknownTables || !written.isEmpty();
    }

    /** The tables the transaction wrote here, or null when it wrote some it could not name. */
    public Set<String> writtenTables() {
        return wroteUnknownTables ? null : Set.copyOf(written);
    }

    /** Completes when everything submitted so far has run. */
    public synchronized CompletableFuture<?> idle() {
        return tail.handle((ignored, error) -> null);
    }
}
