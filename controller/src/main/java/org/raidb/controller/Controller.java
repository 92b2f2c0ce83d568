package org.raidb.controller;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.raidb.controller.admin.AdminServer;
import org.raidb.controller.config.ControllerSettings;
import org.raidb.controller.config.RaidbConfig;
import org.raidb.controller.config.VirtualDatabaseConfig;
import org.raidb.controller.files.PrivateFiles;
import org.raidb.controller.group.ActiveReplication;
import org.raidb.controller.group.GroupException;
import org.raidb.controller.group.ReplicationProtocol;
import org.raidb.controller.metrics.ControllerMetrics;
import org.raidb.controller.metrics.MetricsListener;
import org.raidb.controller.net.ClientListener;
import org.raidb.controller.pgwire.PostgresFrontEnd;
import org.raidb.controller.session.SessionRegistry;
import org.raidb.controller.session.SessionRequests;
import org.raidb.controller.tls.TlsAcceptor;
import org.raidb.controller.vdb.ControllerResources;
import org.raidb.controller.vdb.VirtualDatabase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A running controller: the client listener and the virtual databases it serves. */
public final class Controller implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    private final Map<String, VirtualDatabase> virtualDatabases;
    private final Map<String, ReplicationProtocol> protocols;
    private final ClientListener listener;
    /** The PostgreSQL front end's listener; null when it is off. */
    private final ClientListener pgListener;

    private final long shutdownTimeoutMillis;
    private final ControllerResources shared;
    private final SessionRegistry sessions;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private AdminServer admin;
    private MetricsListener metricsListener;

    private Controller(
            Map<String, VirtualDatabase> virtualDatabases,
            Map<String, ReplicationProtocol> protocols,
            ClientListener listener,
            ClientListener pgListener,
            SessionRegistry sessions,
            long shutdownTimeoutMillis,
            ControllerResources shared) {
        this.pgListener = pgListener;
        this.shared = shared;
        this.sessions = sessions;
        this.virtualDatabases = virtualDatabases;
        this.protocols = protocols;
        this.listener = listener;
        this.shutdownTimeoutMillis = shutdownTimeoutMillis;
    }

    /** Starts every virtual database of the configuration, then listens for clients. */
    public static Controller start(RaidbConfig config) throws Exception {
        return start(config, ControllerResources.standard());
    }

    /**
     * Starts every virtual database of the configuration with {@code shared} resources, then listens for clients.
     *
     * @param shared what the controller lends its virtual databases; closed with the controller
     */
    public static Controller start(RaidbConfig config, ControllerResources shared) throws Exception {
        // A key store that cannot serve (missing, wrong password, expired certificate) stops the start at once.
        TlsAcceptor tls = config.controller().tls() == null
                ? null
                : TlsAcceptor.load(config.controller().tls());
        Map<String, VirtualDatabase> vdbs = new LinkedHashMap<>();
        Map<String, String> unavailable = new LinkedHashMap<>();
        Map<String, ReplicationProtocol> protocols = new java.util.concurrent.ConcurrentHashMap<>();
        // Everything under dataDir (recovery logs, dumps, backends' logins) is for the controller's user only.
        PrivateFiles.createDirectories(config.controller().dataDir());
        try {
            for (VirtualDatabaseConfig vc : config.virtualDatabases()) {
                VirtualDatabase vdb =
                        new VirtualDatabase(vc, config.controller().dataDir(), shared);
                try {
                    vdb.start();
                } catch (java.sql.SQLException e) {
                    // One virtual database that cannot log its writes must not take the others down with it.
                    log.error("virtual database {} is not served: {}", vc.name(), e.getMessage());
                    vdb.close();
                    unavailable.put(vc.name(), e.getMessage());
                    continue;
                }
                vdbs.put(vc.name(), vdb);
            }
            if (vdbs.isEmpty()) {
                throw new IllegalStateException("no virtual database could start: " + unavailable);
            }
            SessionRegistry registry =
                    new SessionRegistry(vdbs, protocols, unavailable, config.controller(), version(), tls);
            joinGroups(config, vdbs, unavailable, protocols, registry);
            if (vdbs.isEmpty()) {
                throw new IllegalStateException("no virtual database could start: " + unavailable);
            }
            // Bound before the first client connects, so that every request is counted.
            ControllerMetrics metrics = new ControllerMetrics(shared.meters(), vdbs, protocols);
            ClientListener listener = new ClientListener(
                    config.controller().host(), config.controller().port(), registry);
            for (ReplicationProtocol p : protocols.values()) {
                if (p instanceof ActiveReplication group) {
                    group.servesClientsAt(config.controller().host() + ":" + listener.port());
                }
            }
            log.info(
                    "RAIDb controller {} listening on {}:{} for virtual database(s) {}",
                    version(),
                    config.controller().host(),
                    listener.port(),
                    vdbs.keySet());
            ClientListener pgListener;
            try {
                pgListener = PostgresFrontEnd.listen(config.controller(), registry);
            } catch (Exception | Error e) {
                listener.close(); // the virtual databases are closed below
                throw e;
            }
            Controller controller = new Controller(
                    vdbs,
                    protocols,
                    listener,
                    pgListener,
                    registry,
                    config.controller().shutdownTimeoutMillis(),
                    shared);
            try {
                controller.admin = AdminServer.start(
                        config,
                        vdbs,
                        protocols,
                        metrics,
                        tls != null && config.controller().tls().admin() ? tls.context() : null,
                        controller::close);
                if (config.controller().metricsPort() != ControllerSettings.NO_METRICS_PORT) {
                    controller.metricsListener =
                            MetricsListener.start(config.controller().metricsPort(), metrics);
                }
            } catch (Exception | Error e) {
                controller.clientListeners().forEach(ClientListener::close); // the virtual databases are closed below
                if (controller.admin != null) {
                    controller.admin.close();
                }
                throw e;
            }
            return controller;
        } catch (Exception | Error e) {
            protocols.values().forEach(ReplicationProtocol::close);
            vdbs.values().forEach(VirtualDatabase::close);
            shared.close();
            throw e;
        }
    }

    /**
     * Each virtual database that names a controller group joins it; one that cannot (its stack file, no
     * fitting member) is not served, and the others go on.
     */
    private static void joinGroups(
            RaidbConfig config,
            Map<String, VirtualDatabase> vdbs,
            Map<String, String> unavailable,
            Map<String, ReplicationProtocol> protocols,
            SessionRegistry registry) {
        String name = config.controller().host() + ":" + config.controller().port() + " (pid "
                + ProcessHandle.current().pid() + ")";
        for (VirtualDatabase vdb : List.copyOf(vdbs.values())) {
            if (!vdb.config().grouped()) {
                continue;
            }
            try {
                protocols.put(
                        vdb.name(),
                        ActiveReplication.join(
                                vdb, new SessionRequests(vdb, registry.recentOutcomes(vdb.name())), name));
            } catch (GroupException e) {
                log.error("virtual database {} is not served: {}", vdb.name(), e.getMessage());
                vdbs.remove(vdb.name());
                vdb.close();
                unavailable.put(vdb.name(), e.getMessage());
            }
        }
    }

    /** The protocol of a virtual database's controller group; null when it has none. */
    public ActiveReplication group(String vdbName) {
        return protocols.get(vdbName) instanceof ActiveReplication a ? a : null;
    }

    static String version() {
        String v = Controller.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }

    /** The port clients connect to (the configured one, or the one picked when 0 was configured). */
    public int port() {
        return listener.port();
    }

    /** The PostgreSQL front end's port (the configured one, or the one picked when 0 was configured); -1 when off. */
    public int pgPort() {
        return pgListener == null ? -1 : pgListener.port();
    }

    private List<ClientListener> clientListeners() {
        return pgListener == null ? List.of(listener) : List.of(listener, pgListener);
    }

    /** The admin HTTP API's port (the configured one, or the one picked when 0 was configured). */
    public int adminPort() {
        return admin.port();
    }

    /** The port of the unauthenticated metrics listener on 127.0.0.1; -1 when none is configured. */
    public int metricsPort() {
        return metricsListener == null ? ControllerSettings.NO_METRICS_PORT : metricsListener.port();
    }

    /** Where the admin HTTP API listens: {@code adminHost} and the admin port. */
    public java.net.InetSocketAddress adminAddress() {
        return admin.address();
    }

    public VirtualDatabase virtualDatabase(String name) {
        return virtualDatabases.get(name);
    }

    /** The controller's client sessions: the recent outcomes they remember per virtual database, test hooks. */
    public SessionRegistry sessions() {
        return sessions;
    }

    /**
     * What clients see when the controller process is killed, for tests of their failover: from now on no
     * connection is accepted and every client connection is closed at once, with no answer to the request it
     * was waiting on. Each session then ends as when its client leaves (its transaction rolled back); the
     * rest stays up until {@link #close}.
     */
    public void dropClients() {
        clientListeners().forEach(ClientListener::stopAccepting);
        try {
            for (ClientListener l : clientListeners()) {
                l.endSessions(System.nanoTime()); // closes every client socket, waits for none
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Blocks until {@link #close} is called from another thread or a shutdown hook. */
    public void awaitTermination() throws InterruptedException {
        stopped.await();
    }

    /**
     * Stops in the order {@link ControllerShutdown} gives: clients, sessions (open transactions rolled
     * back), background operations, writes in flight, final checkpoints, pools, and the recovery logs last.
     */
    @Override
    public synchronized void close() {
        if (stopped.getCount() == 0) {
            return;
        }
        if (metricsListener != null) {
            metricsListener.close();
        }
        new ControllerShutdown(
                        shutdownTimeoutMillis, admin, clientListeners(), virtualDatabases.values(), protocols.values())
                .run();
        shared.close(); // the parser threads, once no virtual database parses any more
        log.info("RAIDb controller stopped");
        stopped.countDown();
    }
}
