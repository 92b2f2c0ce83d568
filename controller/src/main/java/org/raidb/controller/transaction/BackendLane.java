package org.raidb.controller.transaction;

import java.sql.Connection;
import java.util.concurrent.CompletableFuture;
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

  /** Completes when everything submitted so far has run. */
  public synchronized CompletableFuture<?> idle() {
    return tail.handle((ignored, error) -> null);
  }
}
