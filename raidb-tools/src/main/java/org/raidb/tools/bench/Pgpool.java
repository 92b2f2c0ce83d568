package org.raidb.tools.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.raidb.embedded.EmbeddedPostgresServer;

/**
 * pgpool-II, the peer RAIDb is weighed against: native replication (every write to every backend)
 * with load balancing of reads, over the same PostgreSQL servers the controller uses. Started by
 * the benchmark as a child process ({@code pgpool -n}) on a port the OS picked, from a temp
 * directory of its own holding pgpool.conf, pool_hba.conf (trust on loopback) and pcp.conf, so that
 * nothing of the machine's own pgpool service (its configuration, port 9999, sockets) is used.
 */
final class Pgpool implements AutoCloseable {
    private static final List<Path> USUAL_PLACES = List.of(
            Path.of("/usr/sbin/pgpool"),
            Path.of("/usr/local/sbin/pgpool"),
            Path.of("/usr/bin/pgpool"),
            Path.of("/usr/local/bin/pgpool"));
    private static final long START_WAIT_MILLIS = 30_000;

    private final Process process;
    private final Path directory;
    private final int port;
    private final String version;

    private Pgpool(Process process, Path directory, int port, String version) {
        this.process = process;
        this.directory = directory;
        this.port = port;
        this.version = version;
    }

    /** The pgpool binary: on the PATH, else where Debian and source builds put it (/usr/sbin is not on every PATH). */
    static Optional<Path> binary() {
        String path = System.getenv().getOrDefault("PATH", "");
        List<Path> candidates = new ArrayList<>();
        for (String dir : path.split(java.io.File.pathSeparator, -1)) {
            if (!dir.isEmpty()) {
                candidates.add(Path.of(dir, "pgpool"));
            }
        }
        candidates.addAll(USUAL_PLACES);
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    /** "pgpool-II version 4.3.5 (tamahomeboshi)", from {@code pgpool --version}. */
    static String version(Path binary) throws IOException {
        Process p = new ProcessBuilder(binary.toString(), "--version")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException(binary + " --version failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        return out;
    }

    /**
     * Starts pgpool over {@code servers} (native replication, load balance, one connection cached per
     * child) and returns once it answers a query; {@code children} is pgpool's process count, the
     * most clients it serves at once.
     */
    static Pgpool start(Path binary, List<EmbeddedPostgresServer> servers, int children) throws IOException {
        String version = version(binary);
        Path dir = Files.createTempDirectory("raidb-bench-pgpool-");
        try {
            int port = freePort();
            Files.writeString(
                    dir.resolve("pgpool.conf"),
                    configuration(
                            dir,
                            port,
                            freePort(),
                            servers.stream().map(EmbeddedPostgresServer::port).toList(),
                            children));
            Files.writeString(dir.resolve("pool_hba.conf"), "local all all trust\nhost all all 127.0.0.1/32 trust\n");
            Files.writeString(dir.resolve("pcp.conf"), "");
            Files.createDirectories(dir.resolve("oiddir"));
            Process process = new ProcessBuilder(
                            binary.toString(),
                            "-n",
                            "-f",
                            dir.resolve("pgpool.conf").toString(),
                            "-F",
                            dir.resolve("pcp.conf").toString(),
                            "-a",
                            dir.resolve("pool_hba.conf").toString())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("pgpool.log").toFile())
                    .start();
            Pgpool pgpool = new Pgpool(process, dir, port, version);
            try {
                pgpool.awaitReady(servers.get(0).databaseName());
            } catch (IOException | RuntimeException e) {
                pgpool.close();
                throw e;
            }
            return pgpool;
        } catch (IOException | RuntimeException e) {
            deleteTree(dir);
            throw e;
        }
    }

    /** pgpool.conf: everything pgpool writes or listens on is in {@code dir} or on the ports given. */
    static String configuration(Path dir, int port, int pcpPort, List<Integer> backendPorts, int children) {
        StringBuilder c = new StringBuilder();
        c.append(
                "# Written by raidb bench overhead: native replication with load balancing over the bench's servers.\n");
        c.append("backend_clustering_mode = 'native_replication'\n");
        c.append("listen_addresses = '127.0.0.1'\n");
        c.append("port = ").append(port).append('\n');
        c.append("socket_dir = '").append(dir).append("'\n");
        c.append("pcp_listen_addresses = ''\n");
        c.append("pcp_port = ").append(pcpPort).append('\n');
        c.append("pcp_socket_dir = '").append(dir).append("'\n");
        c.append("wd_ipc_socket_dir = '").append(dir).append("'\n");
        c.append("pid_file_name = '").append(dir.resolve("pgpool.pid")).append("'\n");
        c.append("logdir = '").append(dir).append("'\n");
        c.append("memqcache_oiddir = '").append(dir.resolve("oiddir")).append("'\n");
        for (int i = 0; i < backendPorts.size(); i++) {
            c.append(String.format(
                    Locale.ROOT,
                    "backend_hostname%d = '127.0.0.1'%nbackend_port%d = %d%nbackend_weight%d = 1%n"
                            + "backend_flag%d = 'DISALLOW_TO_FAILOVER'%n",
                    i,
                    i,
                    backendPorts.get(i),
                    i,
                    i));
        }
        c.append("num_init_children = ").append(children).append('\n');
        c.append("max_pool = 1\n");
        c.append("load_balance_mode = on\n");
        c.append("replicate_select = off\n");
        c.append("insert_lock = off\n");
        c.append("replication_stop_on_mismatch = off\n");
        c.append("failover_if_affected_tuples_mismatch = off\n");
        c.append("failover_on_backend_error = off\n");
        c.append("health_check_period = 0\n");
        c.append("sr_check_period = 0\n");
        c.append("use_watchdog = off\n");
        c.append("enable_pool_hba = on\n");
        c.append("pool_passwd = ''\n");
        c.append("ssl = off\n");
        c.append("memory_cache_enabled = off\n");
        c.append("log_destination = 'stderr'\n");
        c.append("logging_collector = off\n");
        c.append("log_min_messages = warning\n");
        return c.toString();
    }

    /** A port free on the loopback now: bound on port 0 (the OS picks), then released for pgpool to bind. */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private void awaitReady(String database) throws IOException {
        long deadline = System.currentTimeMillis() + START_WAIT_MILLIS;
        SQLException last = null;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("pgpool exited with " + process.exitValue() + " at start: " + logTail());
            }
            try (Connection c = connect(database)) {
                c.createStatement().execute("SELECT 1");
                return;
            } catch (SQLException e) {
                last = e;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for pgpool", e);
            }
        }
        throw new IOException("pgpool did not answer on port " + port + " within " + START_WAIT_MILLIS / 1000 + " s ("
                + last + "): " + logTail());
    }

    /** A pgjdbc connection through pgpool, as the servers' own user. */
    Connection connect(String database) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "postgres");
        p.setProperty("password", "");
        p.setProperty("connectTimeout", "10");
        return DriverManager.getConnection(jdbcUrl(database), p);
    }

    String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** The pgpool parent process: its own CPU time and its children's are pgpool's cost. */
    long pid() {
        return process.pid();
    }

    String version() {
        return version;
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(directory.resolve("pgpool.log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Fast shutdown (SIGINT) of pgpool and its children; killed if it lingers; its directory deleted. */
    @Override
    public void close() {
        List<ProcessHandle> children = process.descendants().toList();
        if (process.isAlive()) {
            try {
                new ProcessBuilder("kill", "-INT", Long.toString(process.pid()))
                        .start()
                        .waitFor(10, TimeUnit.SECONDS);
                if (!process.waitFor(15, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            } catch (IOException e) {
                process.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        deleteTree(directory);
    }

    /** Deletes a temp directory and what it holds, as far as it can. */
    static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temp directory: harmless if left
        }
    }
}
