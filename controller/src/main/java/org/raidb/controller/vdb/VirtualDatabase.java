package org.raidb.controller.vdb;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.LinkedHashMap;
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
import org.raidb.balancer.CompletionPolicy;
import org.raidb.balancer.ErrorCheckingLoadBalancer;
import org.raidb.balancer.LoadBalancer;
import org.raidb.balancer.PlacementProblem;
import org.raidb.balancer.PlacementValidator;
import org.raidb.balancer.Raidb0LoadBalancer;
import org.raidb.balancer.Raidb1LoadBalancer;
import org.raidb.balancer.Raidb2LoadBalancer;
import org.raidb.balancer.RaidbLevel;
import org.raidb.balancer.ReadPolicies;
import org.raidb.balancer.ReadPolicy;
import org.raidb.controller.analysis.SqlAnalyzer;
import org.raidb.controller.auth.AuthenticationManager;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backend.ProductInfo;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.config.ReplicationConfig;
import org.raidb.controller.config.VirtualDatabaseConfig;
import org.raidb.controller.recovery.AddedBackends;
import org.raidb.controller.recovery.DisabledTables;
import org.raidb.controller.recovery.DumpManager;
import org.raidb.controller.recovery.RecoveryManager;
import org.raidb.controller.recovery.WriteLog;
import org.raidb.controller.request.RequestManager;
import org.raidb.controller.scheduler.SchedulerType;
import org.raidb.controller.scheduler.WriteScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One virtual database: the array of backends that clients see as a single database. */
public final class VirtualDatabase implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(VirtualDatabase.class);

  private final VirtualDatabaseConfig config;
  private final List<DatabaseBackend> backends = new CopyOnWriteArrayList<>();
  private final AuthenticationManager authentication;
  private final SqlAnalyzer analyzer = new SqlAnalyzer();
  private final RaidbLevel level;
  private final LoadBalancer balancer;
  private final WriteScheduler scheduler;
  private final ExecutorService backendThreads;
  private final RequestManager requestManager;
  private final Path dataDir;
  private volatile ProductInfo productInfo;
  private volatile WriteLog writeLog = WriteLog.none();
  private volatile RecoveryManager recovery;
  private volatile DumpManager dumps;
  private final DisabledTables disabledTables;

  public VirtualDatabase(VirtualDatabaseConfig config, Path dataDir) {
    this.config = config;
    this.dataDir = dataDir;
    this.authentication = new AuthenticationManager(config.name(), config.authentication());
    this.level = config.replication().raidbLevel();
    this.balancer = balancerFor(config.replication());
    this.scheduler = new WriteScheduler(SchedulerType.byName(config.scheduler().type()),
        config.scheduler().lockTimeoutMillis());
    for (BackendConfig b : config.backends()) {
      backends.add(newBackend(b));
    }
    for (BackendConfig b : new AddedBackends(dataDir, config.name()).load()) {
      backends.add(newBackend(b)); // added online by an administrator
    }
    AtomicInteger n = new AtomicInteger();
    // Writes run on every backend at once; threads are created on demand and die when idle.
    this.backendThreads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
      Thread t = new Thread(r, "raidb-" + config.name() + "-backend-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.requestManager = new RequestManager(this);
    this.disabledTables = new DisabledTables(dataDir, config.name());
  }

  /**
   * Opens the recovery log, then starts every backend in parallel: those that are down, and those
   * the log says were disabled, start disabled.
   *
   * @throws SQLException if the recovery log cannot be opened: the virtual database does not start
   */
  public void start() throws SQLException {
    writeLog = WriteLog.open(name(), config.recoveryLog(), dataDir);
    recovery = new RecoveryManager(name(), writeLog, backends, analyzer);
    dumps = new DumpManager(name(), config.backup(), dataDir, writeLog, recovery, backends,
        new AddedBackends(dataDir, name()), this::newBackend, disabledTables);
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
      log.warn("virtual database {} has no reachable backend: it refuses requests until a backend is enabled", name());
    } else {
      log.info("virtual database {} serving with {} of {} backends enabled", name(), up, backends.size());
    }
    checkPlacementReadFromSchemas();
  }

  /**
   * A placement given in the configuration was checked when it was loaded; one read from the backends'
   * schemas only now. Problems are logged: the backends may be fixed (or come up) while it runs.
   */
  private void checkPlacementReadFromSchemas() {
    if (!level.partial() || backends.stream().anyMatch(b -> b.tables().isConfigured())) {
      return;
    }
    Map<String, Set<String>> tablesByBackend = new LinkedHashMap<>();
    backends.stream().filter(DatabaseBackend::isEnabled).forEach(b -> tablesByBackend.put(b.name(), b.tables().served()));
    Set<String> declared = new HashSet<>();
    config.replication().tables().forEach(t -> declared.add(t.toLowerCase(Locale.ROOT)));
    for (PlacementProblem p : PlacementValidator.validate(level, tablesByBackend, declared,
        config.replication().createTablePolicy())) {
      if (p.severity() == PlacementProblem.Severity.ERROR) {
        log.error("virtual database {}: tables read from the backends' schemas: {}", name(), p.message());
      } else {
        log.warn("virtual database {}: tables read from the backends' schemas: {}", name(), p.message());
      }
    }
  }

  /** A backend of this virtual database: one that holds only some tables unless the level is RAIDb-1. */
  private DatabaseBackend newBackend(BackendConfig b) {
    return new DatabaseBackend(config.name(), b, level.partial());
  }

  private static LoadBalancer balancerFor(ReplicationConfig r) {
    ReadPolicy reads = ReadPolicies.byName(r.readPolicy());
    CompletionPolicy completion = CompletionPolicy.byName(r.completion());
    return switch (r.raidbLevel()) {
      case RAIDB_0 -> new Raidb0LoadBalancer(r.createTablePolicy());
      case RAIDB_1 -> new Raidb1LoadBalancer(reads, completion);
      // Reads are not voted on yet: the error-checking balancers route them as their level does.
      case RAIDB_1EC -> new ErrorCheckingLoadBalancer(new Raidb1LoadBalancer(reads, completion), r.nodes());
      case RAIDB_2 -> new Raidb2LoadBalancer(reads, completion, r.createTablePolicy());
      case RAIDB_2EC -> new ErrorCheckingLoadBalancer(new Raidb2LoadBalancer(reads, completion, r.createTablePolicy()),
          r.nodes());
    };
  }

  /**
   * Takes a backend out of the array. The position in the write order is logged so that the backend
   * can later be brought back by replaying what it missed.
   */
  public CompletableFuture<String> disableBackend(DatabaseBackend backend, String reason) {
    CompletableFuture<String> checkpoint = recovery.disable(backend, reason);
    if (checkpoint != null) {
      long remaining = backends.stream().filter(DatabaseBackend::isEnabled).count();
      log.error("backend {} of virtual database {} disabled at write #{}: {} ({} backend(s) left enabled)",
          backend.name(), name(), scheduler.position(), reason, remaining);
    }
    return checkpoint;
  }

  /** RAIDb-0: each table has one copy, so a transaction writing on several backends commits in two phases. */
  public boolean commitsInTwoPhases() {
    return level() == org.raidb.balancer.RaidbLevel.RAIDB_0;
  }

  /**
   * RAIDb-2: a write or commit failed on this backend, or answered differently, while the others
   * agreed. Only the tables it wrote are out of step there: they are disabled on this backend, which
   * keeps serving its other tables (RAIDb paper, section 6.3). Recovery is whole-backend: a restore
   * from a dump brings them back.
   */
  public void disableTables(DatabaseBackend backend, Set<String> tables, String reason) {
    List<String> newly = backend.tables().disable(tables);
    if (newly.isEmpty()) {
      return;
    }
    disabledTables.save(backends);
    log.error("backend {} of virtual database {}: table(s) {} disabled there, the backend keeps serving its other tables;"
        + " it {}. Restore the backend from a dump to serve them again", backend.name(), name(), String.join(", ", newly),
        reason);
  }

  public WriteLog writeLog() {
    return writeLog;
  }

  public RecoveryManager recovery() {
    return recovery;
  }

  public DumpManager dumps() {
    return dumps;
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
    throw new SQLException("unknown backend '" + backendName + "' in virtual database '" + name() + "': its backends are "
        + backends.stream().map(DatabaseBackend::name).toList(), "42704");
  }

  public String name() {
    return config.name();
  }

  public List<DatabaseBackend> backends() {
    return backends;
  }

  public AuthenticationManager authentication() {
    return authentication;
  }

  public SqlAnalyzer analyzer() {
    return analyzer;
  }

  public LoadBalancer balancer() {
    return balancer;
  }

  public RaidbLevel level() {
    return level;
  }

  public WriteScheduler scheduler() {
    return scheduler;
  }

  public ExecutorService backendThreads() {
    return backendThreads;
  }

  public RequestManager requests() {
    return requestManager;
  }

  /** The SQL dialect literals are written in when non-deterministic calls are replaced. */
  public org.raidb.controller.determinism.SqlDialect dialect() throws SQLException {
    ProductInfo p = productInfo();
    return org.raidb.controller.determinism.SqlDialect.of(p == null ? null : p.name());
  }

  /** The product of the backends, as clients must see it; read from the first backend that came up. */
  public ProductInfo productInfo() throws SQLException {
    ProductInfo p = productInfo;
    if (p == null) {
      p = backends.stream().filter(DatabaseBackend::isEnabled).map(DatabaseBackend::productInfo).findFirst().orElse(null);
      productInfo = p;
    }
    return p;
  }

  @Override
  public void close() {
    if (recovery != null) {
      recovery.shutdown();
    }
    backends.forEach(DatabaseBackend::close);
    backendThreads.shutdownNow();
    try {
      writeLog.close();
    } catch (SQLException e) {
      log.warn("virtual database {}: closing the recovery log failed: {}", name(), e.getMessage());
    }
  }
}
