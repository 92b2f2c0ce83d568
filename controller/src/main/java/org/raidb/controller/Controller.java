package org.raidb.controller;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.raidb.controller.admin.AdminServer;
import org.raidb.controller.config.RaidbConfig;
import org.raidb.controller.config.VirtualDatabaseConfig;
import org.raidb.controller.files.PrivateFiles;
import org.raidb.controller.net.ClientListener;
import org.raidb.controller.session.SessionRegistry;
import org.raidb.controller.vdb.ControllerResources;
import org.raidb.controller.vdb.VirtualDatabase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A running controller: the client listener and the virtual databases it serves. */
public final class Controller implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    private final Map<String, VirtualDatabase> virtualDatabases;
    private final ClientListener listener;
    private final long shutdownTimeoutMillis;
    private final ControllerResources shared;
    private final SessionRegistry sessions;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private AdminServer admin;

    private Controller(
            Map<String, VirtualDatabase> virtualDatabases,
            ClientListener listener,
            SessionRegistry sessions,
            long shutdownTimeoutMillis,
            ControllerResources shared) {
        this.shared = shared;
        this.sessions = sessions;
        this.virtualDatabases = virtualDatabases;
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
        Map<String, VirtualDatabase> vdbs = new LinkedHashMap<>();
        Map<String, String> unavailable = new LinkedHashMap<>();
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
            SessionRegistry registry = new SessionRegistry(vdbs, unavailable, config.controller(), version());
            ClientListener listener = new ClientListener(
                    config.controller().host(), config.controller().port(), registry);
            log.info(
                    "RAIDb controller {} listening on {}:{} for virtual database(s) {}",
                    version(),
                    config.controller().host(),
                    listener.port(),
                    vdbs.keySet());
            Controller controller =
                    new Controller(vdbs, listener, registry, config.controller().shutdownTimeoutMillis(), shared);
            try {
                controller.admin = AdminServer.start(config, vdbs, controller::close);
            } catch (Exception | Error e) {
                listener.close(); // the virtual databases are closed below
                throw e;
            }
            return controller;
        } catch (Exception | Error e) {
            vdbs.values().forEach(VirtualDatabase::close);
            shared.close();
            throw e;
        }
    }

    static String version() {
        String v = Controller.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }

    /** The port clients connect to (the configured one, or the one picked when 0 was configured). */
    public int port() {
        return listener.port();
    }

    /** The admin HTTP API's port (the configured one, or the one picked when 0 was configured). */
    public int adminPort() {
        return admin.port();
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
        listener.stopAccepting();
        try {
            listener.endSessions(System.nanoTime()); // closes every client socket, waits for none
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
        new ControllerShutdown(shutdownTimeoutMillis, admin, listener, virtualDatabases.values()).run();
        shared.close(); // the parser threads, once no virtual database parses any more
        log.info("RAIDb controller stopped");
        stopped.countDown();
    }
}
