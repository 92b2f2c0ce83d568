package org.raidb.controller.backend;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.config.HealthSettings;
import org.raidb.controller.config.LoginConfig;
import org.raidb.driver.protocol.SqlStates;

/**
 * A backend's HikariCP pools, one per real login, and what borrowing from them tells: a connection;
 * or none in time, which is a busy pool (53300) while the server answers its health probe, and a hung
 * server (08006) when it does not.
 */
final class BackendPools {
    /** A pool and the connections it opened, which a hung backend's abort reaches. */
    private record Pool(HikariDataSource dataSource, OpenedConnections opened) {}

    private final String name;
    private final BackendConfig config;
    /** What the backend's driver must be told whatever the URL says (MariaDB: no LOAD DATA LOCAL INFILE). */
    private final Supplier<Map<String, String>> driverProperties;

    private final HealthSettings health;
    private final HealthProbe probe;
    private final Map<String, Pool> byRealUser = new ConcurrentHashMap<>();
    /** Where HikariCP publishes the pools' meters (tagged with the pool's name); null: nowhere. */
    private volatile MeterRegistry meters;

    /**
     * @param name names the pools in HikariCP's log: {@code raidb-VDB-BACKEND}
     * @param driverProperties given to the driver with every connection it opens, read when a pool opens
     */
    BackendPools(
            String name,
            BackendConfig config,
            Supplier<Map<String, String>> driverProperties,
            HealthSettings health,
            HealthProbe probe) {
        this.name = name;
        this.config = config;
        this.driverProperties = driverProperties;
        this.health = health;
        this.probe = probe;
    }

    /** The pools opened from now on publish their meters (connections active, idle, pending; waits) there. */
    void publishTo(MeterRegistry registry) {
        this.meters = registry;
    }

    Connection borrow(LoginConfig login) throws SQLException {
        long askedAt = System.nanoTime();
        try {
            return open(login).dataSource().getConnection();
        } catch (SQLTransientConnectionException e) {
            throw noConnection(e, askedAt);
        }
    }

    /**
     * No connection in time: every connection in use (busy), or the pool's connections fail their validation
     * and new ones cannot be opened, against a server that failed or no longer answers (hung). The probe, on
     * a connection of its own, tells them apart.
     */
    private SQLException noConnection(SQLTransientConnectionException e, long askedAt) {
        long probeMillis = Math.max(250, health.backendTimeoutMillis() / 4);
        HealthProbe.Result r = probe.check(askedAt, probeMillis);
        if (r.verdict() == HealthProbe.Verdict.NO_ANSWER) {
            NoAnswerException hung =
                    new NoAnswerException("backend " + config.name() + " gave no pooled connection within "
                            + health.poolWaitMillis() + " ms and did not answer the health probe (SELECT 1) within "
                            + probeMillis
                            + " ms: it is hung or cut off; check its server and the network to it");
            hung.initCause(e);
            return hung;
        }
        if (e.getCause() != null) {
            return e; // the pool could not open connections: the driver's error says why
        }
        if (!r.answered()) {
            return new SQLException(
                    "backend " + config.name() + " gave no pooled connection and its health probe failed: "
                            + r.failure().getMessage(),
                    SqlStates.CONNECTION_FAILURE,
                    r.failure());
        }
        // The pool is exhausted but the backend is fine: not a backend failure, so not class 08.
        return new SQLException(
                "no free connection to backend " + config.name() + " within " + health.poolWaitMillis()
                        + " ms (poolSize " + config.poolSize()
                        + "): raise poolSize in the backend's configuration or lower the number"
                        + " of concurrent requests",
                SqlStates.TOO_MANY_CONNECTIONS,
                e);
    }

    /** The pool of this login, opened on first use. */
    Pool open(LoginConfig login) {
        return byRealUser.computeIfAbsent(login.user(), u -> {
            HikariConfig hc = new HikariConfig();
            hc.setPoolName(name + "-" + u);
            OpenedConnections opened =
                    new OpenedConnections(config.url(), driverProperties.get(), login.user(), login.password());
            hc.setDataSource(opened);
            hc.setMaximumPoolSize(config.poolSize());
            // A fixed-size pool, as HikariCP advises: no session waits for a connection to be opened in a burst.
            hc.setMinimumIdle(config.poolSize());
            // A session never waits for a connection longer than about backendTimeout, even when the server hangs and
            // each idle connection fails its validation in turn.
            hc.setConnectionTimeout(health.poolWaitMillis());
            hc.setValidationTimeout(Math.max(250, health.poolWaitMillis() / 2));
            // Fail fast at start-up instead of retrying: a down backend is reported and left disabled.
            hc.setInitializationFailTimeout(-1);
            MeterRegistry registry = meters;
            if (registry != null) {
                hc.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
            }
            return new Pool(new HikariDataSource(hc), opened);
        });
    }

    /** Aborts every connection the pools opened, in use or idle: whoever waits on one gets an error at once. */
    void abortAll() {
        byRealUser.values().forEach(p -> p.opened().abortAll());
    }

    /**
     * Closes the pools (they are opened again on first use). Their connections are aborted first: HikariCP
     * would abort those still in use too, but only after waiting for the connection attempts in progress,
     * which against a hung server take their whole login timeout; and a hung backend's {@link #abortAll}
     * racing this close must not find the pools already gone and leave their connections to that wait.
     */
    void close() {
        List<Pool> pools;
        synchronized (this) {
            pools = new ArrayList<>(byRealUser.values());
            byRealUser.clear();
        }
        for (Pool p : pools) {
            p.opened().abortAll();
            p.dataSource().close();
        }
    }
}
