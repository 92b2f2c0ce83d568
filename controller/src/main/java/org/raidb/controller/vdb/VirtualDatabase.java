package org.raidb.controller.vdb;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.raidb.balancer.LoadBalancer;
import org.raidb.balancer.LoadBalancers;
import org.raidb.balancer.PlacementProblem;
import org.raidb.controller.analysis.IdentifierLength;
import org.raidb.controller.analysis.SqlAnalyzer;
import org.raidb.controller.auth.AuthenticationManager;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backend.FailureClassifier;
import org.raidb.controller.backend.FunctionCatalog;
import org.raidb.controller.backend.NoAnswerException;
import org.raidb.controller.backend.ProductInfo;
import org.raidb.controller.cache.ResultCache;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.config.ConfigDefaults;
import org.raidb.controller.config.VirtualDatabaseConfig;
import org.raidb.controller.defaults.VolatileCatalog;
import org.raidb.controller.defaults.VolatileDefaults;
import org.raidb.controller.determinism.SqlDialect;
import org.raidb.controller.health.HealthMonitor;
import org.raidb.controller.jdbcurl.DriverFamily;
import org.raidb.controller.keys.ConflictClaims;
import org.raidb.controller.keys.KeyCatalog;
import org.raidb.controller.recovery.AddedBackends;
import org.raidb.controller.recovery.DisabledTables;
import org.raidb.controller.recovery.DumpManager;
import org.raidb.controller.recovery.RecoveryManager;
import org.raidb.controller.recovery.WriteLog;
import org.raidb.controller.request.BackendArray;
import org.raidb.controller.request.RequestManager;
import org.raidb.controller.scheduler.SchedulerType;
import org.raidb.controller.scheduler.WriteScheduler;
import org.raidb.controller.transaction.TransactionIds;
import org.raidb.controller.tree.ControllerChain;
import org.raidb.controller.verify.ReplicaVerifier;
import org.raidb.controller.verify.VerifySchedule;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.recovery.DisableCause;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One virtual database: the array of backends that clients see as a single database. */
public final class VirtualDatabase implements AutoCloseable, BackendArray {
    private static final Logger log = LoggerFactory.getLogger(VirtualDatabase.class);

    private final VirtualDatabaseConfig config;
    private final List<DatabaseBackend> backends = new CopyOnWriteArrayList<>();
    private final AuthenticationManager authentication;
    private final FunctionCatalog functions = new FunctionCatalog(backends);
    private final SqlAnalyzer analyzer;
    private final IdentifierLength tableNames;
    private final LoadBalancer balancer;
    private final WriteScheduler scheduler;
    private final ExecutorService backendThreads;
    private final RequestManager requestManager;
    private final Path dataDir;
    private volatile ProductInfo productInfo;
    private volatile WriteLog writeLog = WriteLog.none();
    private volatile RecoveryManager recovery;
    private volatile DumpManager dumps;
    private volatile ReplicaVerifier verifier;
    private volatile VerifySchedule verifySchedule;
    private final DisabledTables disabledTables;
    private final VolatileDefaults volatileDefaults;
    private final KeyCatalog keys;
    private final ConflictClaims conflictClaims;
    private final ResultCache resultCache;
    /** Its place in a tree of controllers, told to child controllers and checked on every HELLO. */
    private final ControllerChain chain;

    private final HealthMonitor health;
    private final TransactionIds transactionIds = new TransactionIds();
    private final io.micrometer.core.instrument.MeterRegistry meters;

    /** Standalone, with parser threads of its own and no commit hook (tests). */
    public VirtualDatabase(VirtualDatabaseConfig config, Path dataDir) {
        this(config, dataDir, ControllerResources.standard());
    }

    /** @param shared what the controller lends all its virtual databases */
    public VirtualDatabase(VirtualDatabaseConfig config, Path dataDir, ControllerResources shared) {
        this.config = config;
        this.chain = new ControllerChain(config.name());
        this.dataDir = dataDir;
        this.meters = shared.meters();
        this.authentication = new AuthenticationManager(config.name(), config.authentication());
        this.balancer = LoadBalancers.of(config.replication().levelConfig());
        this.scheduler = new WriteScheduler(
                SchedulerType.byName(config.scheduler().type()),
                config.scheduler().lockTimeoutMillis());
        List<BackendConfig> configured = new ArrayList<>(config.backends());
        configured.addAll(new AddedBackends(dataDir, config.name()).load()); // added online by an administrator
        // Statements are split, and table names cut, as each backend's dialect does; known from the URLs
        // before any backend is up.
        Set<SqlDialect> dialects = new LinkedHashSet<>();
        configured.forEach(b -> dialects.add(DriverFamily.dialectOf(b.url())));
        this.tableNames = IdentifierLength.of(dialects);
        for (BackendConfig b : configured) {
            backends.add(newBackend(b));
        }
        this.analyzer = new SqlAnalyzer(
                dialects,
                config.determinism().refuseMultiStatements(),
                functions,
                shared.parserThreads().executor());
        AtomicInteger n = new AtomicInteger();
        // Writes run on every backend at once; threads are created on demand and die when idle.
        this.backendThreads =
                new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
                    Thread t = new Thread(r, "raidb-" + config.name() + "-backend-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        this.health = new HealthMonitor(config.name(), config.health(), backends, this::disableHung, backendThreads);
        this.requestManager = new RequestManager(this, shared.betweenCommitPhases());
        this.disabledTables = new DisabledTables(dataDir, config.name());
        this.volatileDefaults = new VolatileDefaults(
                new VolatileCatalog(config.name(), config.determinism().refuseVolatileTriggers()),
                shared.parserThreads().executor());
        this.keys = new KeyCatalog(config.name());
        this.conflictClaims = new ConflictClaims(keys);
        this.resultCache = ResultCache.of(config.resultCache());
    }

    /**
     * Opens the recovery log, then starts every backend in parallel: those that are down, and those
     * the log says were disabled, start disabled.
     *
     * @throws SQLException if the recovery log cannot be opened: the virtual database does not start
     */
    public void start() throws SQLException {
        writeLog = WriteLog.open(name(), config.recoveryLog(), dataDir);
        recovery = new RecoveryManager(name(), writeLog, backends, analyzer, transactionIds);
        dumps = new DumpManager(
                name(),
                config.backup(),
                dataDir,
                writeLog,
                recovery,
                backends,
                new AddedBackends(dataDir, name()),
                this::newBackend,
                disabledTables);
        verifier = new ReplicaVerifier(name(), backends, writeLog);
        disabledTables.applyTo(backends);
        Set<DatabaseBackend> keptOut = recovery.beforeStart();
        Set<DatabaseBackend> unreachable = ConcurrentHashMap.newKeySet();
        backends.parallelStream().filter(b -> !keptOut.contains(b)).forEach(b -> {
            if (!b.start()) {
                unreachable.add(b);
            }
        });
        recovery.afterStart(unreachable);
        long up = backends.stream().filter(DatabaseBackend::isEnabled).count();
        backends.stream().filter(DatabaseBackend::isEnabled).findFirst().ifPresent(b -> productInfo = b.productInfo());
        if (up == 0) {
            log.warn(
                    "virtual database {} has no reachable backend: it refuses requests until a backend is enabled",
                    name());
        } else {
            log.info("virtual database {} serving with {} of {} backends enabled", name(), up, backends.size());
        }
        checkPlacementReadFromSchemas();
        volatileDefaults.catalog().readNewlyEnabled(backends); // warns about volatile triggers at start-up
        keys.readNewlyEnabled(backends);
        health.start();
        if (config.verifyEvery() != null) {
            verifySchedule = VerifySchedule.start(name(), verifier, config.verifyEvery());
        }
    }

    /**
     * A placement given in the configuration was checked when it was loaded; one read from the backends'
     * schemas only now. Problems are logged: the backends may be fixed (or come up) while it runs.
     */
    private void checkPlacementReadFromSchemas() {
        if (!balancer.partial() || backends.stream().anyMatch(b -> b.tables().isConfigured())) {
            return;
        }
        Map<String, Set<String>> tablesByBackend = new LinkedHashMap<>();
        backends.stream()
                .filter(DatabaseBackend::isEnabled)
                .forEach(b -> tablesByBackend.put(b.name(), b.tables().served()));
        Set<String> declared = new HashSet<>();
        config.replication().tables().forEach(t -> declared.add(t.toLowerCase(Locale.ROOT)));
        for (PlacementProblem p : balancer.placementProblems(tablesByBackend, declared)) {
            if (p.severity() == PlacementProblem.Severity.ERROR) {
                log.error("virtual database {}: tables read from the backends' schemas: {}", name(), p.message());
            } else {
                log.warn("virtual database {}: tables read from the backends' schemas: {}", name(), p.message());
            }
        }
    }

    /** A backend of this virtual database: one that holds only some tables where the level is partial. */
    private DatabaseBackend newBackend(BackendConfig b) {
        DatabaseBackend backend =
                new DatabaseBackend(config.name(), b, balancer.partial(), tableNames, config.health());
        backend.publishPoolMetricsTo(meters);
        backend.placeIn(chain);
        return backend;
    }

    /**
     * Takes a backend out of the array. The position in the write order is logged so that the backend
     * can later be brought back by replaying what it missed.
     */
    @Override
    public CompletableFuture<String> disableBackend(DatabaseBackend backend, DisableCause cause) {
        CompletableFuture<String> checkpoint = recovery.disable(backend, cause);
        if (checkpoint != null) {
            long remaining =
                    backends.stream().filter(DatabaseBackend::isEnabled).count();
            log.error(
                    "backend {} of virtual database {} disabled at write #{}: {} ({} backend(s) left enabled)",
                    backend.name(),
                    name(),
                    scheduler.position(),
                    cause.reason(),
                    remaining);
        }
        return checkpoint;
    }

    /**
     * Takes a backend out as {@link #disableBackend(DatabaseBackend, DisableCause)} does, for a request that
     * goes on without waiting for the checkpoint to be recorded: a checkpoint that fails is logged.
     */
    @Override
    public void disableWithoutWaiting(DatabaseBackend backend, DisableCause cause) {
        CompletableFuture<String> checkpoint = disableBackend(backend, cause);
        if (checkpoint != null) {
            checkpoint.exceptionally(e -> {
                log.error(
                        "backend {} of virtual database {}: recording where it stopped failed",
                        backend.name(),
                        name(),
                        e);
                return null;
            });
        }
    }

    /** A backend that failed (its connection broke, it cannot be reached) leaves the array; see above. */
    @Override
    public CompletableFuture<String> disableBackend(DatabaseBackend backend, String reason) {
        return disableBackend(backend, DisableCause.failure(reason));
    }

    /**
     * A backend that stopped answering leaves the array, and every thread blocked on it is freed at once:
     * its connections are aborted, so what it was running fails there (and is in doubt on it), and the
     * writes waiting for its answer, with their locks, go on with the others.
     */
    public void disableHung(DatabaseBackend backend, String reason) {
        disableWithoutWaiting(backend, DisableCause.failure(reason));
        backend.cutLoose();
    }

    /**
     * A failure a request met on a backend ({@code what}: what it was doing). A hang disables it only
     * while others answer, and also frees what waits on it; the caller checks whether it is still enabled.
     */
    @Override
    public void disableFailed(DatabaseBackend backend, String what, SQLException failure) {
        if (failure instanceof NoAnswerException) {
            health.hungUnlessAlone(backend, failure.getMessage());
        } else {
            disableWithoutWaiting(
                    backend, DisableCause.failure(what + ": " + FailureClassifier.failureReason(failure)));
        }
    }

    @Override
    public HealthMonitor health() {
        return health;
    }

    /**
     * RAIDb-2: a write or commit failed on this backend, or answered differently, while the others
     * agreed. Only the tables it wrote are out of step there: they are disabled on this backend, which
     * keeps serving its other tables (RAIDb paper, section 6.3). Recovery is whole-backend: a restore
     * from a dump brings them back.
     */
    @Override
    public void disableTables(DatabaseBackend backend, Set<String> tables, String reason) {
        List<String> newly = backend.tables().disable(tables);
        if (newly.isEmpty()) {
            return;
        }
        disabledTables.save(backends);
        log.error(
                "backend {} of virtual database {}: table(s) {} disabled there, the backend keeps serving its other tables;"
                        + " it {}. Restore the backend from a dump to serve them again",
                backend.name(),
                name(),
                String.join(", ", newly),
                reason);
    }

    @Override
    public WriteLog writeLog() {
        return writeLog;
    }

    public RecoveryManager recovery() {
        return recovery;
    }

    public DumpManager dumps() {
        return dumps;
    }

    /** Compares the backends' copies of every table while clients write ({@code verify}). */
    public ReplicaVerifier verifier() {
        return verifier;
    }

    public Path dataDir() {
        return dataDir;
    }

    public VirtualDatabaseConfig config() {
        return config;
    }

    /** The backend of that name, or an error naming the ones there are. */
    public DatabaseBackend backend(String backendName) throws SQLException {
        for (DatabaseBackend b : backends) {
            if (b.name().equals(backendName)) {
                return b;
            }
        }
        throw new SQLException(
                "unknown backend '" + backendName + "' in virtual database '" + name() + "': its backends are "
                        + backends.stream().map(DatabaseBackend::name).toList(),
                SqlStates.UNDEFINED_OBJECT);
    }

    @Override
    public String name() {
        return config.name();
    }

    @Override
    public List<DatabaseBackend> backends() {
        return backends;
    }

    public AuthenticationManager authentication() {
        return authentication;
    }

    @Override
    public SqlAnalyzer analyzer() {
        return analyzer;
    }

    @Override
    public ResultCache resultCache() {
        return resultCache;
    }

    /** What the functions of the backends may do; function DDL tells it when it runs and when it has settled. */
    @Override
    public FunctionCatalog functions() {
        return functions;
    }

    @Override
    public LoadBalancer balancer() {
        return balancer;
    }

    @Override
    public WriteScheduler scheduler() {
        return scheduler;
    }

    @Override
    public ExecutorService backendThreads() {
        return backendThreads;
    }

    /** The ids of its transactions, seeded by the recovery log at start. */
    public TransactionIds transactionIds() {
        return transactionIds;
    }

    @Override
    public RequestManager requests() {
        return requestManager;
    }

    /** The volatile column defaults and triggers of the backends' tables, and the rewriting of writes relying on them. */
    /** The keys, unique indexes, foreign keys, sequence defaults and triggers of the backends' tables. */
    @Override
    public KeyCatalog keys() {
        return keys;
    }

    /** What a write claims in the scheduler, from its analysis, {@link #keys} and its parameter values. */
    @Override
    public ConflictClaims conflictClaims() {
        return conflictClaims;
    }

    @Override
    public VolatileDefaults volatileDefaults() {
        return volatileDefaults;
    }

    /** Its place in a tree of controllers (docs/admin.md, "Trees of controllers"). */
    public ControllerChain controllerChain() {
        return chain;
    }

    /** The SQL dialect literals are written in when non-deterministic calls are replaced. */
    @Override
    public org.raidb.controller.determinism.SqlDialect dialect() throws SQLException {
        ProductInfo p = productInfo();
        return org.raidb.controller.determinism.SqlDialect.of(p == null ? null : p.name());
    }

    /** The product of the backends, as clients must see it; read from the first backend that came up. */
    public ProductInfo productInfo() throws SQLException {
        ProductInfo p = productInfo;
        if (p == null) {
            p = backends.stream()
                    .filter(DatabaseBackend::isEnabled)
                    .map(DatabaseBackend::productInfo)
                    .findFirst()
                    .orElse(null);
            productInfo = p;
        }
        return p;
    }

    // ---- stopping: ControllerShutdown orders the steps across the virtual databases -----------------

    /** Closes every backend's pools and the threads that ran work on them: after the final checkpoint. */
    public void closeBackends() {
        if (verifySchedule != null) {
            verifySchedule.close(); // before the pools: a verify running now fails, not a client
        }
        health.close(); // no probe may disable a backend whose pools are closing
        backends.forEach(DatabaseBackend::close);
        backendThreads.shutdownNow();
    }

    /** Closes the recovery log, last: what it has queued (the outcomes of the last writes) is written first. */
    public void closeLog() {
        if (recovery != null) {
            recovery.close();
        }
        try {
            writeLog.close();
        } catch (SQLException e) {
            log.warn("virtual database {}: closing the recovery log failed: {}", name(), e.getMessage());
        }
    }

    /**
     * Stops this virtual database alone, when the controller could not start (no client was served):
     * operations, final checkpoint, pools, log.
     */
    @Override
    public void close() {
        boolean interrupted = false;
        if (recovery != null) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ConfigDefaults.SHUTDOWN_TIMEOUT_MILLIS);
            recovery.stopOperations();
            try {
                recovery.awaitOperations(deadline);
            } catch (InterruptedException e) {
                interrupted = true; // restored once the log is closed: its store's driver may give up on an interrupted
                // thread
            }
            recovery.recordCleanStop(deadline);
        }
        closeBackends();
        closeLog();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
