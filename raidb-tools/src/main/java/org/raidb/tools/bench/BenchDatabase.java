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
import java.util.List;
import java.util.OptionalLong;
import org.raidb.controller.Controller;
import org.raidb.controller.config.AuthenticationConfig;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.config.ConfigDefaults;
import org.raidb.controller.config.ControllerSettings;
import org.raidb.controller.config.RaidbConfig;
import org.raidb.controller.config.ReplicationConfig;
import org.raidb.controller.config.UserCredentials;
import org.raidb.controller.config.VirtualDatabaseConfig;
import org.raidb.embedded.EmbeddedPostgresCluster;
import org.raidb.embedded.EmbeddedPostgresServer;

/**
 * The benchmark's two ways to one and the same data: one embedded PostgreSQL server holding
 * {@code bench_accounts}, reached either straight with pgjdbc or through an in-process controller
 * (RAIDb-1 over that single backend). Same pattern as {@code raidb demo}.
 */
final class BenchDatabase implements AutoCloseable {
  /** Database name on PostgreSQL and virtual database name on the controller. */
  static final String NAME = "bench";
  private static final String USER = "bench";
  private static final String PASSWORD = "bench";

  private final EmbeddedPostgresCluster cluster;
  private final Controller controller;
  private final Path dataDir;
  private final String postgresVersion;

  private BenchDatabase(EmbeddedPostgresCluster cluster, Controller controller, Path dataDir, String postgresVersion) {
    this.cluster = cluster;
    this.controller = controller;
    this.dataDir = dataDir;
    this.postgresVersion = postgresVersion;
  }

  /** Starts the server, fills the table with keys 1..rows directly, then starts the controller. */
  static BenchDatabase start(int rows) throws Exception {
    EmbeddedPostgresCluster cluster = EmbeddedPostgresCluster.start(1, NAME);
    try {
      EmbeddedPostgresServer server = cluster.servers().get(0);
      String version = createTable(server, rows);
      Path dataDir = Files.createTempDirectory("raidb-bench");
      Controller controller = Controller.start(configuration(server, dataDir));
      return new BenchDatabase(cluster, controller, dataDir, version);
    } catch (Exception | Error e) {
      cluster.close();
      throw e;
    }
  }

  static String createTable(EmbeddedPostgresServer server, int rows) throws SQLException {
    try (Connection c = server.connect(); Statement st = c.createStatement()) {
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

  private static RaidbConfig configuration(EmbeddedPostgresServer server, Path dataDir) {
    BackendConfig backend = new BackendConfig(server.name(), server.jdbcUrl(), server.user(), server.password(),
        ConfigDefaults.BACKEND_WEIGHT, ConfigDefaults.BACKEND_POOL_SIZE, List.of());
    VirtualDatabaseConfig vdb = new VirtualDatabaseConfig(NAME,
        new AuthenticationConfig(new UserCredentials("admin", "admin"), List.of(new UserCredentials(USER, PASSWORD))),
        List.of(backend), new ReplicationConfig("raidb1", "roundRobin", "all"));
    // Port 0: a free port, so that a running demo or another benchmark does not get in the way.
    ControllerSettings settings = new ControllerSettings("127.0.0.1", 0, ConfigDefaults.ADMIN_HOST, 0, dataDir,
        ConfigDefaults.MAX_FRAME_BYTES, false);
    return new RaidbConfig(settings, List.of(vdb));
  }

  /** Largest useful client thread count: beyond it RAIDb clients would queue for a backend connection. */
  static int backendPoolSize() {
    return ConfigDefaults.BACKEND_POOL_SIZE;
  }

  Connection connect(Side side) throws SQLException {
    return side == Side.PGJDBC ? cluster.servers().get(0).connect()
        : DriverManager.getConnection(raidbUrl(), USER, PASSWORD);
  }

  String raidbUrl() {
    return "jdbc:raidb://127.0.0.1:" + controller.port() + "/" + NAME;
  }

  String pgjdbcUrl() {
    return cluster.servers().get(0).jdbcUrl();
  }

  /** The server's postmaster, whose processes' CPU time the benchmark reports. */
  OptionalLong postmasterPid() {
    return cluster.servers().get(0).postmasterPid();
  }

  String postgresVersion() {
    return postgresVersion;
  }

  @Override
  public void close() {
    try {
      controller.close();
    } finally {
      cluster.close();
      try {
        Files.deleteIfExists(dataDir);
      } catch (IOException ignored) {
        // the controller left files in its data directory: a temp directory, harmless
      }
    }
  }
}
