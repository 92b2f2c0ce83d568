package org.raidb.controller.backend;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.raidb.balancer.BackendView;
import org.raidb.controller.analysis.IdentifierLength;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.config.HealthSettings;
import org.raidb.controller.config.LoginConfig;
import org.raidb.controller.jdbcurl.DriverFamily;
import org.raidb.controller.tree.ControllerChain;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.recovery.DisableCause;
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
    private final BackendRoutines routines = new BackendRoutines();
    private final HealthSettings health;
    private final HealthProbe probe;
    private final BackendPools pools;
    private final AtomicInteger pending = new AtomicInteger();
    private final LongAdder served = new LongAdder();
    private final Map<String, LongAdder> writesByTable = new ConcurrentHashMap<>();
    private volatile BackendState state = BackendState.DISABLED;
    /** Why it is out of the array; null while it is enabled. */
    private volatile DisableCause cause = DisableCause.failure("not started");

    private volatile ProductInfo productInfo;
    /** Where this backend's virtual database sits in a tree of controllers; null: outside any (tests). */
    private volatile ControllerChain chain;
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
        this(
                virtualDatabase,
                config,
                routesByTables,
                IdentifierLength.of(List.of(DriverFamily.dialectOf(config.url()))),
                HealthSettings.DEFAULT);
    }

    /**
     * @param tableNames how long the names its virtual database's backends keep may be
     * @param health how long it may leave a statement or a connection request unanswered
     */
    public DatabaseBackend(
            String virtualDatabase,
            BackendConfig config,
            boolean routesByTables,
            IdentifierLength tableNames,
            HealthSettings health) {
        this.virtualDatabase = virtualDatabase;
        this.config = config;
        this.routesByTables = routesByTables;
        this.tables = new BackendTables(config.tables(), tableNames);
        this.health = health;
        this.probe = new HealthProbe(config.name(), () -> directConnection(null));
        this.pools = new BackendPools(
                "raidb-" + virtualDatabase + "-" + config.name(), config, this::driverProperties, health, probe);
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
            refreshSchema();
        } catch (SQLException e) {
            closePools();
            cause = DisableCause.failure("cannot read its tables at start-up: " + e.getMessage());
            log.warn(
                    "backend {} of virtual database {} starts disabled: cannot read its tables: {}",
                    name(),
                    virtualDatabase,
                    e.getMessage());
            return false;
        }
        pools.open(config.loginFor(null)); // opened now so that the first requests find connections ready
        state = BackendState.ENABLED;
        cause = null;
        lastCheckpoint = null;
        log.info(
                "backend {} of virtual database {} enabled: {} {}",
                name(),
                virtualDatabase,
                productInfo.name(),
                productInfo.version());
        return true;
    }

    /**
     * Leaves the backend out at start-up because the recovery log says it was disabled; it waits for
     * an administrator's enable, which replays what it missed since {@code checkpoint}.
     */
    public void startDisabled(DisableCause why, String checkpoint) {
        readProduct();
        state = BackendState.DISABLED;
        cause = why;
        lastCheckpoint = checkpoint;
        log.warn("backend {} of virtual database {} starts disabled: {}", name(), virtualDatabase, why.reason());
    }

    /** Reads the product; false (and a warning) when the backend cannot be reached. */
    private boolean readProduct() {
        LoginConfig login = config.loginFor(null);
        // A direct connection first: it fails at once on a refused port, where a pool would wait its timeout.
        try (Connection c = java.sql.DriverManager.getConnection(config.url(), connectionProperties(login))) {
            DatabaseMetaData md = c.getMetaData();
            productInfo = new ProductInfo(
                    md.getDatabaseProductName(),
                    md.getDatabaseProductVersion(),
                    md.getDatabaseMajorVersion(),
                    md.getDatabaseMinorVersion(),
                    md.getIdentifierQuoteString());
            if (isController()) {
                // A child controller answers HELLO even with no backend enabled: only one that serves is a backend.
                try (java.sql.Statement st = c.createStatement()) {
                    st.execute("SELECT 1");
                }
            }
            return true;
        } catch (SQLException e) {
            closePools();
            cause = DisableCause.failure("unreachable at start-up: " + e.getMessage());
            log.warn(
                    "backend {} of virtual database {} is unreachable at start-up and starts disabled: {}",
                    name(),
                    virtualDatabase,
                    e.getMessage());
            return false;
        }
    }

    /** A pooled connection as the real login mapped to this virtual user, in auto-commit mode. */
    public Connection connection(String virtualUser) throws SQLException {
        if (state != BackendState.ENABLED) {
            throw new SQLException("backend " + name() + " is disabled", SqlStates.CONNECTION_FAILURE);
        }
        return pools.borrow(config.loginFor(virtualUser));
    }

    /**
     * Takes the backend out of the array at once: new requests stop coming. Its pools stay open until
     * {@link #closePools} is called, once the work already running on it has been answered: closing a
     * pool aborts the connections in use, and a statement aborted while the server commits it would
     * leave unknown whether the backend applied it.
     */
    public synchronized boolean disable(DisableCause why) {
        if (state != BackendState.ENABLED) {
            return false;
        }
        state = BackendState.DISABLED;
        cause = why;
        return true;
    }

    /**
     * A hung backend (disabled already) lets go of every thread waiting on it: its connections, pooled
     * and in use, and the probe's, are aborted, and what ran on them is in doubt there.
     */
    public void cutLoose() {
        pools.abortAll();
        probe.disconnect();
    }

    /** The backend is being restored or replayed into: still out of the array, for the same kind of reason. */
    public synchronized void recovering(String what) {
        state = BackendState.RECOVERING;
        cause = cause == null ? DisableCause.administrator(what) : cause.because(what);
    }

    /** Back to disabled after a recovery operation stopped short, or with a new checkpoint; the kind of cause stays. */
    public synchronized void disabledAt(String reason, String checkpoint) {
        disabledAt(cause == null ? DisableCause.administrator(reason) : cause.because(reason), checkpoint);
    }

    /** Back to disabled, with a new cause (a restore clears a divergence; a failed check finds one). */
    public synchronized void disabledAt(DisableCause why, String checkpoint) {
        if (state != BackendState.ENABLED) {
            state = BackendState.DISABLED;
        }
        cause = why;
        lastCheckpoint = checkpoint;
    }

    /**
     * Opens the default pool ahead of {@link #enable}, so that the moment writes wait for the backend
     * to join is not spent connecting.
     */
    public void preparePool() throws SQLException {
        if (productInfo == null && !readProduct()) {
            throw new SQLException(
                    "backend " + name() + " cannot be reached: " + disabledReason(), SqlStates.CONNECTION_UNABLE);
        }
        pools.open(config.loginFor(null));
    }

    /** Joins the array: the caller has made it identical to the others. */
    public synchronized void enable() {
        state = BackendState.ENABLED;
        cause = null;
        lastCheckpoint = null;
        log.info("backend {} of virtual database {} enabled", name(), virtualDatabase);
    }

    /** Closes the pools of a backend that is out of the array (they are opened again on enable). */
    public void closePools() {
        pools.close();
        probe.disconnect();
    }

    public void close() {
        state = BackendState.DISABLED;
        cause = DisableCause.administrator("controller shut down");
        closePools();
        probe.stop();
    }

    /**
     * Its connection pools publish their meters to {@code registry} (HikariCP's {@code hikaricp_*}, tagged
     * {@code pool="raidb-VDB-BACKEND-LOGIN"}); set before its pools open.
     */
    public void publishPoolMetricsTo(io.micrometer.core.instrument.MeterRegistry registry) {
        pools.publishTo(registry);
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
     * Reads the tables of the backend's current schema again (unless the configuration lists them), and
     * what its functions may do: at start-up, and when it joins the array after a replay or a restore.
     */
    public void refreshSchema() throws SQLException {
        try (Connection c = directConnection(null)) {
            if (isController()) {
                routines.forget(); // not a database's catalogue (CatalogReads): every user function may write
            } else {
                readRoutines(c);
            }
            tables.readFrom(c);
        } catch (SQLException e) {
            if (routesByTables && !tables.isConfigured()) {
                throw e; // routing would be wrong without them
            }
            // RAIDb-1 routes without them; they are only shown to administrators.
            log.warn(
                    "backend {} of virtual database {}: cannot read its tables ({}); the admin API will not list them",
                    name(),
                    virtualDatabase,
                    e.getMessage());
        }
    }

    /** Reads what its functions may do again, after function DDL; a failure leaves every user function writing. */
    public void refreshRoutines() {
        if (isController()) {
            return;
        }
        try (Connection c = directConnection(null)) {
            readRoutines(c);
        } catch (SQLException e) {
            routinesUnread(e);
        }
    }

    private void readRoutines(Connection c) {
        try {
            routines.readFrom(c);
        } catch (SQLException e) {
            routinesUnread(e);
        }
    }

    private void routinesUnread(SQLException e) {
        routines.forget();
        log.warn(
                "backend {} of virtual database {}: cannot read its functions ({}); SELECTs calling a function not on"
                        + " the built-in read-only list run on every backend",
                name(),
                virtualDatabase,
                e.getMessage());
    }

    /** What this backend's catalogue says its functions may do. */
    public BackendRoutines routines() {
        return routines;
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
        DisableCause c = cause;
        return c == null ? null : c.reason();
    }

    /** Why it is out of the array (failure, divergence, administrator); null while it is enabled. */
    public DisableCause disableCause() {
        return cause;
    }

    /** Its health probe: does it still answer a trivial query on a connection of its own. */
    public HealthProbe probe() {
        return probe;
    }

    public HealthSettings health() {
        return health;
    }

    public String lastCheckpoint() {
        return lastCheckpoint;
    }

    /**
     * Its virtual database's place in a tree of controllers: a backend that is another controller is told
     * it with every connection, so that a cycle of controllers is refused ({@link ControllerChain}).
     */
    public void placeIn(ControllerChain chain) {
        this.chain = chain;
    }

    /** Whether this backend is another controller's virtual database ({@code jdbc:raidb:}). */
    public boolean isController() {
        return DriverFamily.of(config.url()).orElse(null) == DriverFamily.RAIDB;
    }

    /** What the driver is given with every connection: its safe defaults and, to a controller, the chain. */
    private Map<String, String> driverProperties() {
        ControllerChain c = chain;
        if (c == null || !isController()) {
            return safeDefaults(config);
        }
        Map<String, String> out = new java.util.HashMap<>(safeDefaults(config));
        out.put(ControllerChain.PROPERTY, c.forChild());
        return out;
    }

    /** What every connection to this backend is opened with: the login, and the driver's properties. */
    private Properties connectionProperties(LoginConfig login) {
        Properties properties = new Properties();
        properties.putAll(driverProperties());
        // As DriverManager.getConnection(url, user, password) does: a missing value is left out, not set to null.
        if (login.user() != null) {
            properties.setProperty("user", login.user());
        }
        if (login.password() != null) {
            properties.setProperty("password", login.password());
        }
        return properties;
    }

    private static Map<String, String> safeDefaults(BackendConfig config) {
        return DriverFamily.of(config.url()).map(DriverFamily::safeDefaults).orElse(Map.of());
    }

    /** A direct connection as the real login of {@code virtualUser}, outside the pools (recovery work). */
    public Connection directConnection(String virtualUser) throws SQLException {
        LoginConfig login = config.loginFor(virtualUser);
        return java.sql.DriverManager.getConnection(config.url(), connectionProperties(login));
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
