package org.raidb.controller.backend;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.raidb.balancer.BackendView;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.config.LoginConfig;
import org.raidb.driver.protocol.SqlStates;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One real database of a virtual database: its connection pools (one HikariCP pool per real login),
 * its state, and the counters routing reads.
 */
public final class DatabaseBackend implements BackendView {
  private static final Logger log = LoggerFactory.getLogger(DatabaseBackend.class);

  private final String virtualDatabase;
  private final BackendConfig config;
  /** Whether routing asks which tables this backend holds (RAIDb-0 and -2); RAIDb-1 backends hold everything. */
  private final boolean routesByTables;
  private final BackendTables tables;
  private final Map<String, HikariDataSource> poolsByRealUser = new ConcurrentHashMap<>();
  private final AtomicInteger pending = new AtomicInteger();
  private final LongAdder served = new LongAdder();
  private final Map<String, LongAdder> writesByTable = new ConcurrentHashMap<>();
  private volatile BackendState state = BackendState.DISABLED;
  private volatile String disabledReason = "not started";
  private volatile ProductInfo productInfo;
  /** The recovery log checkpoint a disabled backend stopped at (null while enabled, or when unknown). */
  private volatile String lastCheckpoint;

  /** A backend of a RAIDb-1 virtual database: it holds every table. */
  public DatabaseBackend(String virtualDatabase, BackendConfig config) {
    this(virtualDatabase, config, false);
  }

  /**
   * @param routesByTables whether it holds only some tables, so that routing must ask
   *     {@link #holdsTable} (RAIDb-0, RAIDb-2)
   */
  public DatabaseBackend(String virtualDatabase, BackendConfig config, boolean routesByTables) {
    this.virtualDatabase = virtualDatabase;
    this.config = config;
    this.routesByTables = routesByTables;
    this.tables = new BackendTables(config.tables());
  }

  /**
   * Opens the backend's default pool and reads its product and tables. A backend that cannot be
   * reached stays disabled with a warning naming it, so that a virtual database starts with whatever
   * is up.
   */
  public boolean start() {
    if (!readProduct()) {
      return false;
    }
    try {
      refreshTables();
    } catch (SQLException e) {
      closePools();
      disabledReason = "cannot read its tables at start-up: " + e.getMessage();
      log.warn("backend {} of virtual database {} starts disabled: cannot read its tables: {}", name(), virtualDatabase,
          e.getMessage());
      return false;
    }
    pool(config.loginFor(null)); // opened now so that the first requests find connections ready
    state = BackendState.ENABLED;
    disabledReason = null;
    lastCheckpoint = null;
    log.info("backend {} of virtual database {} enabled: {} {}", name(), virtualDatabase,
        productInfo.name(), productInfo.version());
    return true;
  }

  /**
   * Leaves the backend out at start-up because the recovery log says it was disabled; it waits for
   * an administrator's enable, which replays what it missed since {@code checkpoint}.
   */
  public void startDisabled(String reason, String checkpoint) {
    readProduct();
    state = BackendState.DISABLED;
    disabledReason = reason;
    lastCheckpoint = checkpoint;
    log.warn("backend {} of virtual database {} starts disabled: {}", name(), virtualDatabase, reason);
  }

  /** Reads the product; false (and a warning) when the backend cannot be reached. */
  private boolean readProduct() {
    LoginConfig login = config.loginFor(null);
    // A direct connection first: it fails at once on a refused port, where a pool would wait its timeout.
    try (Connection c = java.sql.DriverManager.getConnection(config.url(), login.user(), login.password())) {
      DatabaseMetaData md = c.getMetaData();
      productInfo = new ProductInfo(md.getDatabaseProductName(), md.getDatabaseProductVersion(),
          md.getDatabaseMajorVersion(), md.getDatabaseMinorVersion(), md.getIdentifierQuoteString());
      return true;
    } catch (SQLException e) {
      closePools();
      disabledReason = "unreachable at start-up: " + e.getMessage();
      log.warn("backend {} of virtual database {} is unreachable at start-up and starts disabled: {}",
          name(), virtualDatabase, e.getMessage());
      return false;
    }
  }

  /** A pooled connection as the real login mapped to this virtual user, in auto-commit mode. */
  public Connection connection(String virtualUser) throws SQLException {
    if (state != BackendState.ENABLED) {
      throw new SQLException("backend " + name() + " is disabled", SqlStates.CONNECTION_FAILURE);
    }
    try {
      return pool(config.loginFor(virtualUser)).getConnection();
    } catch (java.sql.SQLTransientConnectionException e) {
      if (e.getCause() == null) {
        // The pool is exhausted but the backend is fine: not a backend failure, so not class 08.
        throw new SQLException("no free connection to backend " + name() + " within 5 s (poolSize " + config.poolSize()
            + "): raise poolSize in the backend's configuration or lower the number of concurrent requests",
            FailureClassifier.TOO_MANY_CONNECTIONS, e);
      }
      throw e;
    }
  }

  private HikariDataSource pool(LoginConfig login) {
    return poolsByRealUser.computeIfAbsent(login.user(), u -> {
      HikariConfig hc = new HikariConfig();
      hc.setPoolName("raidb-" + virtualDatabase + "-" + name() + "-" + u);
      hc.setJdbcUrl(config.url());
      hc.setUsername(login.user());
      hc.setPassword(login.password());
      hc.setMaximumPoolSize(config.poolSize());
      // A fixed-size pool, as HikariCP advises: no session waits for a connection to be opened in a burst.
      hc.setMinimumIdle(config.poolSize());
      hc.setConnectionTimeout(5_000);
      // Fail fast at start-up instead of retrying: a down backend is reported and left disabled.
      hc.setInitializationFailTimeout(-1);
      return new HikariDataSource(hc);
    });
  }

  /**
   * Takes the backend out of the array at once: new requests stop coming. Its pools stay open until
   * {@link #closePools} is called, once the work already running on it has been answered: closing a
   * pool aborts the connections in use, and a statement aborted while the server commits it would
   * leave unknown whether the backend applied it.
   */
  public synchronized boolean disable(String reason) {
    if (state != BackendState.ENABLED) {
      return false;
    }
    state = BackendState.DISABLED;
    disabledReason = reason;
    return true;
  }

  /** The backend is being restored or replayed into: still out of the array. */
  public synchronized void recovering(String what) {
    state = BackendState.RECOVERING;
    disabledReason = what;
  }

  /** Back to disabled after a recovery operation stopped short, or with a new checkpoint. */
  public synchronized void disabledAt(String reason, String checkpoint) {
    if (state != BackendState.ENABLED) {
      state = BackendState.DISABLED;
    }
    disabledReason = reason;
    lastCheckpoint = checkpoint;
  }

  /**
   * Opens the default pool ahead of {@link #enable}, so that the moment writes wait for the backend
   * to join is not spent connecting.
   */
  public void preparePool() throws SQLException {
    if (productInfo == null && !readProduct()) {
      throw new SQLException("backend " + name() + " cannot be reached: " + disabledReason, "08001");
    }
    pool(config.loginFor(null));
  }

  /** Joins the array: the caller has made it identical to the others. */
  public synchronized void enable() {
    state = BackendState.ENABLED;
    disabledReason = null;
    lastCheckpoint = null;
    log.info("backend {} of virtual database {} enabled", name(), virtualDatabase);
  }

  private synchronized List<HikariDataSource> takePools() {
    List<HikariDataSource> pools = new ArrayList<>(poolsByRealUser.values());
    poolsByRealUser.clear();
    return pools;
  }

  /** Closes the pools of a backend that is out of the array (they are opened again on enable). */
  public void closePools() {
    takePools().forEach(HikariDataSource::close);
  }

  public void close() {
    state = BackendState.DISABLED;
    disabledReason = "controller shut down";
    closePools();
  }

  public void requestStarted() {
    pending.incrementAndGet();
  }

  public void requestEnded() {
    pending.decrementAndGet();
    served.increment();
  }

  @Override
  public String name() {
    return config.name();
  }

  @Override
  public boolean isEnabled() {
    return state == BackendState.ENABLED;
  }

  /** RAIDb-1: every backend holds every table. RAIDb-0 and -2: the tables it holds and has not disabled. */
  @Override
  public boolean holdsTable(String table) {
    return !routesByTables || tables.holds(table);
  }

  @Override
  public boolean isTableDisabled(String table) {
    return routesByTables && tables.isDisabled(table);
  }

  /** The tables this backend holds and those disabled on it. */
  public BackendTables tables() {
    return tables;
  }

  /**
   * Reads the tables of the backend's current schema again (unless the configuration lists them): at
   * start-up, and when it joins the array after a replay or a restore.
   */
  public void refreshTables() throws SQLException {
    if (tables.isConfigured()) {
      return;
    }
    try (Connection c = directConnection(null)) {
      tables.readFrom(c);
    } catch (SQLException e) {
      if (routesByTables) {
        throw e; // routing would be wrong without them
      }
      // RAIDb-1 routes without them; they are only shown to administrators.
      log.warn("backend {} of virtual database {}: cannot read its tables ({}); the admin API will not list them",
          name(), virtualDatabase, e.getMessage());
    }
  }

  @Override
  public int pendingRequests() {
    return pending.get();
  }

  @Override
  public int weight() {
    return config.weight();
  }

  public BackendState state() {
    return state;
  }

  public String disabledReason() {
    return disabledReason;
  }

  public String lastCheckpoint() {
    return lastCheckpoint;
  }

  /** A direct connection as the real login of {@code virtualUser}, outside the pools (recovery work). */
  public Connection directConnection(String virtualUser) throws SQLException {
    LoginConfig login = config.loginFor(virtualUser);
    return java.sql.DriverManager.getConnection(config.url(), login.user(), login.password());
  }

  public long requestsServed() {
    return served.sum();
  }

  /** A write statement succeeded here: counted per table, to show where partial replication sends writes. */
  public void wrote(java.util.Collection<String> tables) {
    for (String t : tables) {
      writesByTable.computeIfAbsent(t, k -> new LongAdder()).increment();
    }
  }

  /** Write statements this backend applied, by table written, since the controller started. */
  public Map<String, Long> writesByTable() {
    Map<String, Long> out = new java.util.TreeMap<>();
    writesByTable.forEach((t, n) -> out.put(t, n.sum()));
    return out;
  }

  public ProductInfo productInfo() {
    return productInfo;
  }

  public BackendConfig config() {
    return config;
  }

  @Override
  public String toString() {
    return name();
  }
}
