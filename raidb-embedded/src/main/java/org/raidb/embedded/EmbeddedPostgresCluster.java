package org.raidb.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * N independent real PostgreSQL servers on this machine, each with its own data directory (under
 * one temp directory, deleted on close) and its own loopback port, each holding one database of
 * the same name: the backends a RAIDb controller is tested and demonstrated against. A new
 * server's data directory is a copy of one initdb made once per JVM; the system property {@code
 * raidb.embedded.directory} or the environment variable {@code RAIDB_EMBEDDED_DIRECTORY} (the build
 * sets {@code /dev/shm}) says where the directories go: see {@link DataDirectories}.
 *
 * <p>Binaries: zonky's bundled PostgreSQL 15 where it can run; else (root with user namespaces
 * blocked) the machine's own {@code /usr/lib/postgresql/*}/bin run as user postgres. The log says
 * which. The system property {@code raidb.embedded.launcher} ({@code auto}, {@code zonky}, {@code
 * system}) forces one.
 */
public final class EmbeddedPostgresCluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresCluster.class);

    private final Path baseDirectory;
    private final String databaseName;
    private final PostgresLauncher launcher;
    private final List<EmbeddedPostgresServer> servers;
    private final Duration startupTime;
    private final Thread shutdownHook;
    private boolean closed;

    private EmbeddedPostgresCluster(
            Path baseDirectory,
            String databaseName,
            PostgresLauncher launcher,
            List<EmbeddedPostgresServer> servers,
            Duration startupTime) {
        this.baseDirectory = baseDirectory;
        this.databaseName = databaseName;
        this.launcher = launcher;
        this.servers = List.copyOf(servers);
        this.startupTime = startupTime;
        // The demo may be stopped with Ctrl-C: servers must not outlive the JVM.
        this.shutdownHook = new Thread(this::closeServersAndFiles, "embedded-postgres-cluster-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts {@code servers} PostgreSQL servers in parallel (pg1, pg2, ...) and creates {@code
     * databaseName} (owner postgres) on each. Returns once all accept connections.
     */
    public static EmbeddedPostgresCluster start(int servers, String databaseName) {
        return start(servers, databaseName, Map.of(), false);
    }

    /**
     * As {@link #start(int, String)}, every server run with the usual settings where {@code settings}
     * replaces or adds postgresql.conf values (e.g. {@code fsync=off} for a benchmark; they are passed
     * as {@code -c name=value}, so they hold across restarts and cannot be changed by ALTER SYSTEM).
     */
    public static EmbeddedPostgresCluster start(int servers, String databaseName, Map<String, String> settings) {
        return start(servers, databaseName, settings, false);
    }

    /**
     * The same, with {@code onDisk}: the data directories in the system's temp directory even where
     * {@link DataDirectories} would put them on tmpfs, for a test whose clients must commit at a disk's
     * pace (on tmpfs they commit many times faster, and a replay chasing them takes longer).
     */
    public static EmbeddedPostgresCluster start(int servers, String databaseName, boolean onDisk) {
        return start(servers, databaseName, Map.of(), onDisk);
    }

    private static EmbeddedPostgresCluster start(
            int servers, String databaseName, Map<String, String> settings, boolean onDisk) {
        if (servers < 1) {
            throw new IllegalArgumentException("at least one server, not " + servers);
        }
        EmbeddedPostgresServer.quoteIdentifier(databaseName); // reject unusable names before any work
        PostgresLauncher launcher = LauncherChoice.first().withSettings(settings);
        try {
            return startWith(launcher, servers, databaseName, onDisk);
        } catch (RuntimeException e) {
            Optional<PostgresLauncher> fallback = LauncherChoice.fallbackAfter(launcher);
            if (fallback.isEmpty()) {
                throw e;
            }
            log.warn(
                    "could not start PostgreSQL with {} ({}); falling back to {}",
                    launcher.description(),
                    e.toString(),
                    fallback.get().description());
            return startWith(fallback.get().withSettings(settings), servers, databaseName, onDisk);
        }
    }

    private static EmbeddedPostgresCluster startWith(
            PostgresLauncher launcher, int count, String databaseName, boolean onDisk) {
        Path base;
        try {
            base = DataDirectories.newClusterDirectory(onDisk);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp directory for the servers", e);
        }
        log.info("starting {} PostgreSQL server(s) with {} under {}", count, launcher.description(), base);
        long begin = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(count, r -> {
            Thread t = new Thread(r, "embedded-postgres-start");
            t.setDaemon(true);
            return t;
        });
        List<Future<EmbeddedPostgresServer>> futures = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            String name = "pg" + i;
            Path serverDirectory = base.resolve(name);
            futures.add(pool.submit(() -> {
                EmbeddedPostgresServer server =
                        EmbeddedPostgresServer.startNew(name, databaseName, serverDirectory, launcher);
                try {
                    server.createDatabase();
                } catch (SQLException e) {
                    server.close();
                    throw e;
                }
                log.info(
                        "{}: PostgreSQL on 127.0.0.1:{}, database {}, data directory {}",
                        name,
                        server.port(),
                        databaseName,
                        server.dataDirectory());
                return server;
            }));
        }
        pool.shutdown();
        List<EmbeddedPostgresServer> started = new ArrayList<>();
        Throwable failure = null;
        for (Future<EmbeddedPostgresServer> future : futures) {
            try {
                started.add(future.get());
            } catch (ExecutionException e) {
                failure = failure == null ? e.getCause() : failure;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            started.forEach(EmbeddedPostgresServer::close);
            DirectoryCleaner.deleteRecursively(base);
            throw new IllegalStateException(
                    "could not start " + count + " PostgreSQL servers with " + launcher.description(), failure);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - begin);
        log.info(
                "{} PostgreSQL server(s) ready in {} ms (data directory, start, CREATE DATABASE {}), ports {}",
                count,
                took.toMillis(),
                databaseName,
                started.stream().map(EmbeddedPostgresServer::port).toList());
        return new EmbeddedPostgresCluster(base, databaseName, launcher, started, took);
    }

    /** pg1, pg2, ... in order. */
    public List<EmbeddedPostgresServer> servers() {
        return servers;
    }

    /** By name: "pg1", "pg2", ... */
    public EmbeddedPostgresServer server(String name) {
        return servers.stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no server " + name + " in " + servers));
    }

    public String databaseName() {
        return databaseName;
    }

    /** The temp directory holding every server's directory; deleted on close. */
    public Path baseDirectory() {
        return baseDirectory;
    }

    /** Which binaries run the servers (zonky's or the machine's own), as said in the log. */
    public String launcherDescription() {
        return launcher.description();
    }

    /** Wall-clock time the parallel first start took, data directories and CREATE DATABASE included. */
    public Duration startupTime() {
        return startupTime;
    }

    /** Continues every server that was frozen, and starts again every one that was killed or stopped. */
    public void ensureAllRunning() {
        for (EmbeddedPostgresServer server : servers) {
            server.unfreeze();
            if (!server.isRunning()) {
                server.start();
            }
        }
    }

    /** Drops and creates the database again on every server, all at once: empty databases, servers kept. */
    public void recreateDatabases() {
        servers.parallelStream().forEach(server -> {
            try {
                server.recreateDatabase();
            } catch (SQLException e) {
                throw new IllegalStateException(server.name() + ": could not recreate database " + databaseName, e);
            }
        });
    }

    /** Stops every server and deletes their data directories. */
    @Override
    public void close() {
        closeServersAndFiles();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // close() called from another shutdown hook: ours runs too, and does nothing.
        }
    }

    private synchronized void closeServersAndFiles() {
        if (closed) {
            return;
        }
        closed = true;
        servers.parallelStream().forEach(EmbeddedPostgresServer::close);
        // At JVM exit zonky's own shutdown hook may be stopping a server at the same time, and our close
        // then returns before it is down: files it writes while shutting down would outlive the deletion.
        servers.forEach(EmbeddedPostgresServer::awaitNoPostmaster);
        DirectoryCleaner.deleteRecursively(baseDirectory);
        log.info("stopped {} PostgreSQL server(s) and deleted {}", servers.size(), baseDirectory);
    }
}
