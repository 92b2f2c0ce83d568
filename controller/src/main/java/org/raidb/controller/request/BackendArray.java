package org.raidb.controller.request;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import org.raidb.balancer.LoadBalancer;
import org.raidb.controller.analysis.SqlAnalyzer;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backend.FunctionCatalog;
import org.raidb.controller.cache.ResultCache;
import org.raidb.controller.defaults.VolatileDefaults;
import org.raidb.controller.determinism.SqlDialect;
import org.raidb.controller.health.HealthMonitor;
import org.raidb.controller.keys.ConflictClaims;
import org.raidb.controller.keys.KeyCatalog;
import org.raidb.controller.recovery.WriteLog;
import org.raidb.controller.scheduler.WriteScheduler;
import org.raidb.recovery.DisableCause;

/**
 * What the request path needs of the virtual database it serves: the backends and the parts that
 * route, order, log and check their work. The virtual database (package {@code vdb}) builds and wires
 * these parts and implements this; the request path depends on this interface only, so that the
 * dependencies point one way (vdb → request, never back).
 */
public interface BackendArray {
    String name();

    List<DatabaseBackend> backends();

    LoadBalancer balancer();

    /** The SQL dialect literals are written in when non-deterministic calls are replaced. */
    SqlDialect dialect() throws SQLException;

    SqlAnalyzer analyzer();

    /** The query result cache; one that caches nothing when none is configured. */
    ResultCache resultCache();

    WriteScheduler scheduler();

    WriteLog writeLog();

    HealthMonitor health();

    FunctionCatalog functions();

    VolatileDefaults volatileDefaults();

    KeyCatalog keys();

    ConflictClaims conflictClaims();

    /** Where the statements of a write run, one task per backend. */
    ExecutorService backendThreads();

    RequestManager requests();

    /** Takes a backend out of the array, logging its position in the write order for a later replay. */
    CompletableFuture<String> disableBackend(DatabaseBackend backend, DisableCause cause);

    CompletableFuture<String> disableBackend(DatabaseBackend backend, String reason);

    /** Takes a backend out as {@link #disableBackend} does, without waiting for its checkpoint to be recorded. */
    void disableWithoutWaiting(DatabaseBackend backend, DisableCause cause);

    /** A backend failed where the others did not: it is disabled, saying what failed. */
    void disableFailed(DatabaseBackend backend, String what, SQLException failure);

    /** Some tables of a backend no longer match the others': they are disabled there. */
    void disableTables(DatabaseBackend backend, Set<String> tables, String reason);
}
