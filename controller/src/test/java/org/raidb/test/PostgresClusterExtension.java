package org.raidb.test;

import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.raidb.embedded.EmbeddedPostgresCluster;
import org.raidb.embedded.EmbeddedPostgresServer;

/**
 * Real PostgreSQL servers for a test class:
 *
 * <pre>
 * &#64;RegisterExtension
 * static PostgresClusterExtension pg = PostgresClusterExtension.servers(3).database("shop");
 * </pre>
 *
 * Register it on a static field: the servers start before all tests and stop (data deleted)
 * after all. After each test, any server the test killed or stopped is started again, so the next
 * test begins with every server up; the data is not reset ({@link
 * EmbeddedPostgresCluster#recreateDatabases()} does that when a test wants it). A server a test
 * {@linkplain FrozenServer froze} and left so is continued too.
 */
public final class PostgresClusterExtension implements BeforeAllCallback, AfterAllCallback, AfterEachCallback {

    private final int servers;
    private String database = "test";
    private boolean onDisk;
    private EmbeddedPostgresCluster cluster;

    private PostgresClusterExtension(int servers) {
        this.servers = servers;
    }

    public static PostgresClusterExtension servers(int count) {
        return new PostgresClusterExtension(count);
    }

    /** The database created on every server (default "test"). */
    public PostgresClusterExtension database(String name) {
        this.database = name;
        return this;
    }

    /**
     * Data directories on disk even where the build puts them on tmpfs: for tests that enable a backend
     * by replay while many clients write as fast as they can, which on tmpfs write many times faster
     * than the replay catches up (see {@link EmbeddedPostgresCluster#start(int, String, boolean)}).
     */
    public PostgresClusterExtension onDisk() {
        this.onDisk = true;
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster = EmbeddedPostgresCluster.start(servers, database, onDisk);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (cluster != null) {
            cluster.ensureAllRunning();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
    }

    public EmbeddedPostgresCluster cluster() {
        if (cluster == null) {
            throw new IllegalStateException("cluster not started: register the extension on a static field");
        }
        return cluster;
    }

    /** Server by 0-based index: server(0) is pg1. */
    public EmbeddedPostgresServer server(int index) {
        return cluster().servers().get(index);
    }

    /** Server by name: "pg1", "pg2", ... */
    public EmbeddedPostgresServer server(String name) {
        return cluster().server(name);
    }

    /**
     * Writes a controller configuration with every server as a backend and the defaults of {@link
     * ControllerConfigXml}, {@code extraXml} inside the virtual database before the replication
     * element. Returns {@code file}.
     */
    public Path writeControllerConfig(Path file, String vdbName, String extraXml) {
        return controllerConfig(vdbName).extraXml(extraXml).writeTo(file);
    }

    /** A configuration to adjust (replication element, users, ports, backends) before writing it. */
    public ControllerConfigXml controllerConfig(String vdbName) {
        return ControllerConfigXml.forCluster(cluster(), vdbName);
    }

    /** The tables of a server's public schema, read directly with pgjdbc, in name order. */
    public static java.util.SortedSet<String> publicTables(EmbeddedPostgresServer server) {
        try (java.sql.Connection c = server.connect();
                java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery(
                        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")) {
            java.util.SortedSet<String> out = new java.util.TreeSet<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(server.name() + ": cannot list its tables", e);
        }
    }

    /** Whether the machine's MariaDB answers on 127.0.0.1:3306 as root: see {@link MariaDbServer}. */
    public static boolean mariaDbAvailable() {
        return MariaDbServer.mariaDbAvailable();
    }
}
