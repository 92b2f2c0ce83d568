package org.raidb.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.raidb.controller.Controller;
import org.raidb.controller.config.AuthenticationConfig;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.config.BackupSettings;
import org.raidb.controller.config.ConfigDefaults;
import org.raidb.controller.config.ControllerSettings;
import org.raidb.controller.config.DeterminismConfig;
import org.raidb.controller.config.GroupConfig;
import org.raidb.controller.config.HealthSettings;
import org.raidb.controller.config.RaidbConfig;
import org.raidb.controller.config.RecoveryLogSettings;
import org.raidb.controller.config.ReplicationConfig;
import org.raidb.controller.config.SchedulerConfig;
import org.raidb.controller.config.TlsConfig;
import org.raidb.controller.config.UserCredentials;
import org.raidb.controller.config.VirtualDatabaseConfig;
import org.raidb.controller.tls.SelfSignedCertificate;
import org.raidb.embedded.EmbeddedPostgresCluster;
import org.raidb.embedded.EmbeddedPostgresServer;

/**
 * The benchmark's ways to one and the same data: N embedded PostgreSQL servers holding {@code
 * bench_accounts}, reached straight with pgjdbc (the first server: one backend, the ratio a user
 * weighs), through in-process controllers (RAIDb-1 over all N servers, with the recovery log as the
 * product ships and, when asked, one without it) and through pgpool-II over the same N servers when
 * it is installed and asked for. Every server runs with the same {@code fsync} setting.
 */
final class BenchDatabase implements AutoCloseable {
    /** Database name on PostgreSQL and virtual database name on the controller. */
    static final String NAME = "bench";

    static final String USER = "bench";
    static final String PASSWORD = "bench";

    private final EmbeddedPostgresCluster cluster;
    private final Map<Side, Controller> controllers;
    private final List<Path> dataDirs;
    private final Pgpool pgpool;
    private final String postgresVersion;
    private Path tlsCertificate;

    private BenchDatabase(
            EmbeddedPostgresCluster cluster,
            Map<Side, Controller> controllers,
            List<Path> dataDirs,
            Pgpool pgpool,
            String postgresVersion) {
        this.cluster = cluster;
        this.controllers = controllers;
        this.dataDirs = dataDirs;
        this.pgpool = pgpool;
        this.postgresVersion = postgresVersion;
    }

    /**
     * Starts {@code backends} servers with {@code fsync} on or off, fills the table with keys 1..rows
     * on each directly, then starts a controller for each RAIDb side of {@code sides} and pgpool when
     * {@code sides} holds {@link Side#PGPOOL} ({@code pgpoolBinary} then present).
     */
    static BenchDatabase start(
            int rows, int backends, boolean fsync, Set<Side> sides, Optional<Path> pgpoolBinary, int pgpoolChildren)
            throws Exception {
        EmbeddedPostgresCluster cluster =
                EmbeddedPostgresCluster.start(backends, NAME, Map.of("fsync", fsync ? "on" : "off"));
        Map<Side, Controller> controllers = new EnumMap<>(Side.class);
        List<Path> dataDirs = new ArrayList<>();
        Pgpool pgpool = null;
        Path certificate = null;
        try {
            String version = null;
            for (EmbeddedPostgresServer server : cluster.servers()) {
                version = createTable(server, rows);
                checkFsync(server, fsync);
            }
            for (Side side : sides) {
                if (side.isRaidb()) {
                    Path dataDir = Files.createTempDirectory("raidb-bench");
                    dataDirs.add(dataDir);
                    RaidbConfig config = configuration(
                            cluster.servers(),
                            dataDir,
                            side == Side.RAIDB_LOG_OFF ? RecoveryLogSettings.DISABLED : RecoveryLogSettings.DEFAULT,
                            null);
                    if (side == Side.RAIDB_TLS) {
                        certificate = dataDir.resolve("bench.pem");
                        config = withTls(config, dataDir.resolve("bench.p12"), certificate);
                    }
                    controllers.put(side, Controller.start(config));
                }
            }
            if (sides.contains(Side.PGPOOL)) {
                pgpool = Pgpool.start(pgpoolBinary.orElseThrow(), cluster.servers(), pgpoolChildren);
            }
            BenchDatabase db = new BenchDatabase(cluster, controllers, dataDirs, pgpool, version);
            db.tlsCertificate = certificate;
            return db;
        } catch (Exception | Error e) {
            new BenchDatabase(cluster, controllers, dataDirs, pgpool, null).close();
            throw e;
        }
    }

    /** The setting as the server reports it: a benchmark that says fsync is off must have it off. */
    static void checkFsync(EmbeddedPostgresServer server, boolean fsync) throws SQLException {
        try (Connection c = server.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW fsync")) {
            rs.next();
            String actual = rs.getString(1);
            if (!actual.equals(fsync ? "on" : "off")) {
                throw new IllegalStateException(
                        server.name() + " runs with fsync=" + actual + ", not " + (fsync ? "on" : "off"));
            }
        }
    }

    static String createTable(EmbeddedPostgresServer server, int rows) throws SQLException {
        try (Connection c = server.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE bench_accounts (id int primary key, balance bigint not null, filler text)");
            // About 100 bytes of filler, so that a row is not unrealistically small.
            try (PreparedStatement fill = c.prepareStatement(
                    "INSERT INTO bench_accounts SELECT g, 0, repeat(md5(g::text), 3) FROM generate_series(1, ?) g")) {
                fill.setInt(1, rows);
                fill.executeUpdate();
            }
            st.execute("ANALYZE bench_accounts");
            try (ResultSet rs = st.executeQuery("SHOW server_version")) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    /**
     * RAIDb-1 over {@code servers} (read policy roundRobin, completion all), the controller on free
     * ports; a member of {@code group} when not null.
     */
    static RaidbConfig configuration(
            List<EmbeddedPostgresServer> servers, Path dataDir, RecoveryLogSettings log, GroupConfig group) {
        List<BackendConfig> backends = new ArrayList<>();
        for (EmbeddedPostgresServer server : servers) {
            backends.add(new BackendConfig(
                    server.name(),
                    server.jdbcUrl(),
                    server.user(),
                    server.password(),
                    ConfigDefaults.BACKEND_WEIGHT,
                    ConfigDefaults.BACKEND_POOL_SIZE,
                    List.of()));
        }
        VirtualDatabaseConfig vdb = new VirtualDatabaseConfig(
                NAME,
                new AuthenticationConfig(
                        new UserCredentials("admin", "admin"), List.of(new UserCredentials(USER, PASSWORD))),
                backends,
                new ReplicationConfig("raidb1", "roundRobin", "all"),
                SchedulerConfig.DEFAULT,
                log,
                BackupSettings.DEFAULT,
                DeterminismConfig.DEFAULT,
                HealthSettings.DEFAULT,
                group);
        // Port 0: a free port, so that a running demo or another benchmark does not get in the way.
        ControllerSettings settings = new ControllerSettings(
                "127.0.0.1", 0, ConfigDefaults.ADMIN_HOST, 0, dataDir, ConfigDefaults.MAX_FRAME_BYTES, false);
        return new RaidbConfig(settings, List.of(vdb));
    }

    /**
     * {@code config} with {@code <tls>}: a self-signed certificate for 127.0.0.1 made into {@code keyStore}, its PEM
     * into {@code pem}; TLS required of clients, the admin port on HTTPS as the product defaults.
     */
    static RaidbConfig withTls(RaidbConfig config, Path keyStore, Path pem) throws Exception {
        String password = "bench-tls";
        SelfSignedCertificate.write(keyStore, pem, password, "127.0.0.1", "ip:127.0.0.1,dns:localhost", null, 2);
        ControllerSettings s = config.controller();
        ControllerSettings settings = new ControllerSettings(
                s.host(),
                s.port(),
                s.adminHost(),
                s.adminPort(),
                s.dataDir(),
                s.maxFrameBytes(),
                s.allowH2BackendsFromAdmin(),
                s.shutdownTimeoutMillis(),
                s.clientLimits(),
                s.postgresWire(),
                new TlsConfig(keyStore, password, "PKCS12", true, true),
                s.metricsPort());
        return new RaidbConfig(settings, config.virtualDatabases());
    }

    /** Largest useful client thread count: beyond it RAIDb clients would queue for a backend connection. */
    static int backendPoolSize() {
        return ConfigDefaults.BACKEND_POOL_SIZE;
    }

    Connection connect(Side side) throws SQLException {
        return switch (side) {
            case PGJDBC -> cluster.servers().get(0).connect();
            case PGPOOL -> pgpool.connect(NAME);
            case RAIDB, RAIDB_LOG_OFF, RAIDB_TLS -> DriverManager.getConnection(raidbUrl(side), USER, PASSWORD);
        };
    }

    /** Where {@code side}'s clients connect to. */
    String url(Side side) {
        return switch (side) {
            case PGJDBC -> cluster.servers().get(0).jdbcUrl();
            case PGPOOL -> pgpool.jdbcUrl(NAME);
            case RAIDB, RAIDB_LOG_OFF, RAIDB_TLS -> raidbUrl(side);
        };
    }

    private String raidbUrl(Side side) {
        String url = "jdbc:raidb://127.0.0.1:" + controllers.get(side).port() + "/" + NAME;
        return side == Side.RAIDB_TLS ? url + "?sslmode=verify-full&sslrootcert=" + tlsCertificate : url;
    }

    /** Every server's postmaster, whose processes' CPU time the benchmark reports as PostgreSQL's. */
    List<Long> postmasterPids() {
        List<Long> pids = new ArrayList<>();
        cluster.servers().forEach(s -> s.postmasterPid().ifPresent(pids::add));
        return pids;
    }

    /** pgpool's parent process, when pgpool runs. */
    OptionalLong pgpoolPid() {
        return pgpool == null ? OptionalLong.empty() : OptionalLong.of(pgpool.pid());
    }

    String postgresVersion() {
        return postgresVersion;
    }

    /** The file system the servers' data directories are on ("ext4", "tmpfs"...): fsync means nothing on tmpfs. */
    String dataFileSystem() {
        return dataFileSystem(cluster);
    }

    static String dataFileSystem(EmbeddedPostgresCluster cluster) {
        try {
            return Files.getFileStore(cluster.baseDirectory()).type() + " ("
                    + cluster.baseDirectory().getParent() + ")";
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        try {
            if (pgpool != null) {
                pgpool.close();
            }
        } finally {
            try {
                controllers.values().forEach(Controller::close);
            } finally {
                cluster.close();
                dataDirs.forEach(Pgpool::deleteTree);
            }
        }
    }
}
