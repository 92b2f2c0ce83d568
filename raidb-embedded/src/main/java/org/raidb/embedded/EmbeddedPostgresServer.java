package org.raidb.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.Properties;
import org.raidb.embedded.PostgresLauncher.LaunchedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One real PostgreSQL server of an {@link EmbeddedPostgresCluster}: its own data directory, its
 * own port, kept across {@link #kill()} and {@link #start()} so that crash tests see the data
 * committed before the crash.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresServer.class);
    private static final Duration DEATH_WAIT = Duration.ofSeconds(30);
    private static final Duration REAP_WAIT = Duration.ofSeconds(10);
    private static final int FIRST_START_ATTEMPTS = 3;

    private final String name;
    private final String databaseName;
    private final Path serverDirectory;
    private final PostgresLauncher launcher;
    private int port;
    private LaunchedPostgres launched;
    /** The postmaster {@link #kill()} killed and its launch, released by the next start or stop. */
    private long killedPostmaster;

    private LaunchedPostgres killedLaunch;
    /** The processes {@link #freeze} stopped, until they are continued. */
    private List<Long> frozen = List.of();

    private EmbeddedPostgresServer(String name, String databaseName, Path serverDirectory, PostgresLauncher launcher) {
        this.name = name;
        this.databaseName = databaseName;
        this.serverDirectory = serverDirectory;
        this.launcher = launcher;
    }

    /**
     * First start on a free port, on a copy of the launcher's initialised data directory (see {@link
     * DataDirectories}). A port picked free may be taken before postgres binds it (other builds run on
     * this machine): then it retries on another port.
     */
    static EmbeddedPostgresServer startNew(
            String name, String databaseName, Path serverDirectory, PostgresLauncher launcher) throws IOException {
        return firstStart(new EmbeddedPostgresServer(name, databaseName, serverDirectory, launcher), true);
    }

    /**
     * initdb into {@code serverDirectory}, one start and a clean stop: a data directory for {@link
     * DataDirectories} to copy. Returns the data directory.
     */
    static Path initialiseStopped(Path serverDirectory, PostgresLauncher launcher) throws IOException {
        EmbeddedPostgresServer template =
                firstStart(new EmbeddedPostgresServer("template", "postgres", serverDirectory, launcher), false);
        template.stop();
        return template.dataDirectory();
    }

    private static EmbeddedPostgresServer firstStart(EmbeddedPostgresServer server, boolean fromTemplate)
            throws IOException {
        IOException last = null;
        for (int attempt = 1; attempt <= FIRST_START_ATTEMPTS; attempt++) {
            server.port = FreePort.pick();
            try {
                if (fromTemplate) {
                    DataDirectories.copyTemplate(server.launcher, server.dataDirectory());
                }
                server.launch();
                return server;
            } catch (IOException | RuntimeException e) {
                last = e instanceof IOException io ? io : new IOException(e);
                log.warn(
                        "{}: first start on port {} failed (attempt {}/{}): {}",
                        server.name,
                        server.port,
                        attempt,
                        FIRST_START_ATTEMPTS,
                        e.toString());
                Postmaster.pid(server.dataDirectory()).ifPresent(Postmaster::killHard);
                DirectoryCleaner.deleteRecursively(server.serverDirectory);
            }
        }
        throw last;
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    /** The database the cluster created on this server. */
    public String databaseName() {
        return databaseName;
    }

    public String jdbcUrl() {
        return jdbcUrl(databaseName);
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    public String user() {
        return "postgres";
    }

    /** Empty: the servers use trust authentication on loopback. */
    public String password() {
        return "";
    }

    public Path dataDirectory() {
        return PostgresLauncher.dataDirectory(serverDirectory);
    }

    /** A plain pgjdbc connection to this server's database. */
    public Connection connect() throws SQLException {
        return connect(databaseName);
    }

    /** A plain pgjdbc connection to another database of this server, e.g. "postgres". */
    public Connection connect(String database) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user());
        properties.setProperty("password", password());
        properties.setProperty("connectTimeout", "10");
        properties.setProperty("ApplicationName", "raidb-embedded-" + name);
        return DriverManager.getConnection(jdbcUrl(database), properties);
    }

    /** The postmaster's pid, while it runs. */
    public OptionalLong postmasterPid() {
        return Postmaster.pid(dataDirectory());
    }

    /** Whether the postmaster was started by us and is alive (a killed or stopped server is not). */
    public synchronized boolean isRunning() {
        if (launched == null) {
            return false;
        }
        OptionalLong pid = postmasterPid();
        return pid.isPresent() && Postmaster.isAlive(pid.getAsLong());
    }

    /**
     * kill -9 of the postmaster and its children, as a crash would; returns once every one of them
     * has died and the port refuses connections. The data directory is kept for {@link #start()}.
     */
    public synchronized void kill() {
        if (launched == null) {
            throw new IllegalStateException(name + " is not running");
        }
        long pid = postmasterPid()
                .orElseThrow(() -> new IllegalStateException(name + ": no postmaster.pid in " + dataDirectory()));
        long begin = System.nanoTime();
        List<Long> killed = Postmaster.killHard(pid);
        frozen = List.of();
        long deadline = System.nanoTime() + DEATH_WAIT.toNanos();
        while (killed.stream().anyMatch(Postmaster::isAlive) || FreePort.accepts(port)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        name + ": processes " + killed + " or port " + port + " still alive after kill -9");
            }
            sleep(20);
        }
        log.info(
                "{}: killed -9 postmaster {} and {} child processes; port {} refuses connections after {} ms",
                name,
                pid,
                killed.size() - 1,
                port,
                (System.nanoTime() - begin) / 1_000_000);
        killedPostmaster = pid;
        killedLaunch = launched;
        launched = null;
    }

    /**
     * kill -STOP of the postmaster and of every process it started, as a hung machine or a partition
     * that drops packets would leave it: connections stay open, nothing answers. {@link #unfreeze()}
     * continues it (so does the cluster's {@code ensureAllRunning}). Returns how many processes stopped.
     */
    public synchronized int freeze() {
        if (launched == null) {
            throw new IllegalStateException(name + " is not running");
        }
        long pid = postmasterPid()
                .orElseThrow(() -> new IllegalStateException(name + ": no postmaster.pid in " + dataDirectory()));
        frozen = Postmaster.stop(pid);
        log.info("{}: stopped (SIGSTOP) postmaster {} and {} child processes", name, pid, frozen.size() - 1);
        return frozen.size();
    }

    /** SIGCONT to what {@link #freeze()} stopped; nothing if it is not frozen. */
    public synchronized void unfreeze() {
        if (!frozen.isEmpty()) {
            Postmaster.resume(frozen);
            log.info("{}: continued (SIGCONT) {} processes", name, frozen.size());
            frozen = List.of();
        }
    }

    /**
     * Starts this server again on the same port and data directory, after {@link #kill()} or {@link
     * #stop()}; returns once it accepts connections (after crash recovery when it was killed).
     */
    public synchronized void start() {
        if (launched != null) {
            throw new IllegalStateException(name + " is already running");
        }
        long begin = System.nanoTime();
        releaseKilled();
        try {
            launch();
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": could not start again on port " + port, e);
        }
        log.info("{}: started again on port {} in {} ms", name, port, (System.nanoTime() - begin) / 1_000_000);
    }

    /**
     * Lets go of the postmaster {@link #kill()} killed: waits until it is reaped, then has the launcher
     * forget it. The killed postmaster was re-parented (pg_ctl had daemonised it) and whoever inherited
     * it reaps it, usually at once, sometimes a second or two later; PostgreSQL refuses to start on a
     * data directory whose postmaster.pid names a process that still exists, even as a zombie, and
     * zonky's release waits on it too. The kill itself does not wait: a test usually has more to do
     * after a kill than restart at once.
     */
    private void releaseKilled() {
        if (killedLaunch == null) {
            return;
        }
        long pid = killedPostmaster;
        long begin = System.nanoTime();
        long reapDeadline = begin + REAP_WAIT.toNanos();
        while (!Postmaster.isGone(pid) && System.nanoTime() < reapDeadline) {
            sleep(20);
        }
        if (Postmaster.isGone(pid)) {
            log.info(
                    "{}: killed postmaster {} reaped; waited {} ms for it",
                    name,
                    pid,
                    (System.nanoTime() - begin) / 1_000_000);
        } else {
            log.warn(
                    "{}: killed postmaster {} is still an unreaped zombie after {} s; a restart may be refused",
                    name,
                    pid,
                    REAP_WAIT.toSeconds());
        }
        LaunchedPostgres dead = killedLaunch;
        killedLaunch = null;
        dead.forgetKilled();
    }

    /** Clean fast shutdown (pg_ctl stop -m fast), data directory kept; {@link #start()} restarts. */
    public synchronized void stop() {
        releaseKilled();
        if (launched != null) {
            LaunchedPostgres running = launched;
            launched = null;
            running.stop();
            log.info("{}: stopped (port {})", name, port);
        }
    }

    /**
     * Waits (at most 30 s) until no postmaster runs on the data directory: PostgreSQL removes
     * postmaster.pid last when it shuts down, and a killed one leaves it naming a dead process.
     */
    void awaitNoPostmaster() {
        long deadline = System.nanoTime() + DEATH_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            OptionalLong pid = postmasterPid();
            if (pid.isEmpty() || !Postmaster.isAlive(pid.getAsLong())) {
                return;
            }
            sleep(20);
        }
        log.warn(
                "{}: a postmaster still runs on {} {} s after the stop", name, dataDirectory(), DEATH_WAIT.toSeconds());
    }

    /** Stops the server if running. The cluster deletes the data directory afterwards. */
    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return name + "@127.0.0.1:" + port;
    }

    /** Creates the cluster's database (owner postgres) on this server; called once, after first start. */
    void createDatabase() throws SQLException {
        try (Connection c = connect("postgres");
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + quoteIdentifier(databaseName) + " OWNER postgres");
        }
    }

    /** Drops and creates the cluster's database again: an empty database for the next test. */
    synchronized void recreateDatabase() throws SQLException {
        try (Connection c = connect("postgres");
                Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + quoteIdentifier(databaseName) + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + quoteIdentifier(databaseName) + " OWNER postgres");
        }
    }

    private void launch() throws IOException {
        LaunchedPostgres started = launcher.start(serverDirectory, port);
        try {
            checkItIsOurs();
        } catch (IOException | RuntimeException e) {
            started.stop();
            throw e;
        }
        launched = started;
    }

    /**
     * Guards against answering for someone else's server: if another process took the port between
     * our pick and postgres' bind, a readiness probe could succeed against it.
     */
    private void checkItIsOurs() throws IOException {
        try (Connection c = connect("postgres");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT current_setting('data_directory')")) {
            rs.next();
            Path served = Path.of(rs.getString(1));
            if (!Files.isSameFile(served, dataDirectory())) {
                throw new IOException(
                        name + ": port " + port + " is served by another PostgreSQL (data directory " + served + ")");
            }
        } catch (SQLException e) {
            throw new IOException(name + ": started but does not answer on port " + port, e);
        }
    }

    static String quoteIdentifier(String identifier) {
        if (identifier.isEmpty() || identifier.indexOf('"') >= 0 || identifier.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("unusable database name: " + identifier);
        }
        return '"' + identifier + '"';
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
