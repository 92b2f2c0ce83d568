package org.raidb.controller.it.support;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.raidb.controller.admin.client.AdminClient;
import org.raidb.test.ControllerConfigXml;

/**
 * A controller in a JVM of its own: with a capped heap, which exits on OutOfMemoryError, it proves
 * that a large result streams through it rather than being held; as a process of its own, it can be
 * stopped with SIGTERM as a service manager stops it, and restarted on the same data.
 */
public final class ForkedController implements AutoCloseable {
    /** What a JVM ended by SIGTERM exits with, after its shutdown hooks ran (128 + 15). */
    public static final int SIGTERM_EXIT_STATUS = 143;

    private final Process process;
    private final Path configFile;
    private final Path log;
    private final String vdb;
    private final String maxHeap;
    private final boolean exitOnOutOfMemory;
    private final int port;
    private final Map<String, String> environment;

    private ForkedController(
            Process process,
            Path configFile,
            Path log,
            String vdb,
            String maxHeap,
            boolean exitOnOutOfMemory,
            Map<String, String> environment) {
        this.process = process;
        this.configFile = configFile;
        this.log = log;
        this.vdb = vdb;
        this.maxHeap = maxHeap;
        this.exitOnOutOfMemory = exitOnOutOfMemory;
        this.environment = environment;
        this.port = awaitPort(Pattern.compile("RAIDb controller \\S+ listening on [^:]*:(\\d+)"));
    }

    public static ForkedController start(ControllerConfigXml config, String vdb, String maxHeap) throws IOException {
        return start(config, vdb, maxHeap, true);
    }

    /**
     * @param exitOnOutOfMemory exit at the first OutOfMemoryError (a test that proves none happens), or go on
     *     (a test of what the controller does when one happens)
     */
    public static ForkedController start(
            ControllerConfigXml config, String vdb, String maxHeap, boolean exitOnOutOfMemory) throws IOException {
        Path dir = Files.createTempDirectory("raidb-forked");
        Path file = config.dataDir(dir.resolve("data")).writeTo(dir.resolve("raidb.xml"));
        return launch(file, vdb, maxHeap, exitOnOutOfMemory, 0, Map.of());
    }

    /** A controller whose process has these environment variables too (the passwords its file gives as ${NAME}). */
    public static ForkedController startWithEnvironment(
            ControllerConfigXml config, String vdb, String maxHeap, Map<String, String> environment)
            throws IOException {
        Path dir = Files.createTempDirectory("raidb-forked");
        Path file = config.dataDir(dir.resolve("data")).writeTo(dir.resolve("raidb.xml"));
        return launch(file, vdb, maxHeap, true, 0, environment);
    }

    /**
     * A controller that cannot write any file larger than {@code maxFileKilobytes} (bash's {@code ulimit -f}):
     * a write past it fails with an IOException "File too large" (the JVM ignores SIGXFSZ), as a write on
     * a full disk fails with ENOSPC. The limit is per file: it is the largest file (the recovery log's
     * store) that reaches it.
     */
    public static ForkedController startWithFileSizeLimit(
            ControllerConfigXml config, String vdb, String maxHeap, long maxFileKilobytes) throws IOException {
        Path dir = Files.createTempDirectory("raidb-forked");
        Path file = config.dataDir(dir.resolve("data")).writeTo(dir.resolve("raidb.xml"));
        return launch(file, vdb, maxHeap, true, maxFileKilobytes, Map.of());
    }

    /**
     * Another controller process on the same configuration and data, without any file-size limit: a
     * restart, once this one has stopped.
     */
    public ForkedController restart() throws IOException {
        return launch(configFile, vdb, maxHeap, exitOnOutOfMemory, 0, environment);
    }

    /**
     * A restart, once this one has stopped, listening on the port this one had (its configuration asked
     * for a free one): what points at it (a parent controller's backend URL) reaches it again.
     */
    public ForkedController restartOnSamePort() throws IOException {
        String xml = Files.readString(configFile);
        Files.writeString(configFile, xml.replaceFirst("<controller port=\"0\"", "<controller port=\"" + port + "\""));
        return launch(configFile, vdb, maxHeap, exitOnOutOfMemory, 0, environment);
    }

    /** {@code maxFileKilobytes}: 0 for no limit. */
    private static ForkedController launch(
            Path configFile,
            String vdb,
            String maxHeap,
            boolean exitOnOutOfMemory,
            long maxFileKilobytes,
            Map<String, String> environment)
            throws IOException {
        Path log = Files.createTempFile(configFile.getParent(), "controller-", ".log");
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        List<String> limit = maxFileKilobytes <= 0
                ? List.of()
                : List.of("bash", "-c", "ulimit -f \"$0\" && exec \"$@\"", Long.toString(maxFileKilobytes));
        List<String> command = new java.util.ArrayList<>(limit);
        command.addAll(List.of(
                java,
                "-Xmx" + maxHeap,
                exitOnOutOfMemory ? "-XX:+ExitOnOutOfMemoryError" : "-XX:-ExitOnOutOfMemoryError",
                "-cp",
                System.getProperty("java.class.path"),
                "org.raidb.controller.cli.ControllerCommand",
                "--config",
                configFile.toString()));
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        try {
            return new ForkedController(process, configFile, log, vdb, maxHeap, exitOnOutOfMemory, environment);
        } catch (RuntimeException e) {
            process.destroyForcibly();
            throw e;
        }
    }

    public String url() {
        return "jdbc:raidb://127.0.0.1:" + port + "/" + vdb;
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), ControllerFixture.USER, ControllerFixture.PASSWORD);
    }

    /** The admin API as the configuration's admin (admin/adminpw by default). */
    public AdminClient admin() {
        int adminPort = awaitPort(Pattern.compile("admin API listening on https?://[^:]*:(\\d+)"));
        return new AdminClient(URI.create("http://127.0.0.1:" + adminPort), "admin", "adminpw");
    }

    /** The controller's data directory, as {@link #start} configured it. */
    /** The port of the controller's PostgreSQL front end (its configuration asked for one). */
    public int pgPort() {
        return awaitPort(Pattern.compile("PostgreSQL front end listening on [^:]*:(\\d+)"));
    }

    public Path dataDir() {
        return configFile.resolveSibling("data");
    }

    /**
     * Sends SIGTERM, as a service manager stops the controller, and returns the exit status once the
     * process has ended (its clean stop is bounded, so a process still there after two minutes fails).
     */
    public int terminate() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the controller was still running 120 s after SIGTERM:\n" + log());
        }
        return process.exitValue();
    }

    /** SIGKILL, as {@code kill -9}: no shutdown hook runs, and the OS closes its sockets (clients and backends). */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public String log() throws IOException {
        return Files.readString(log);
    }

    /**
     * The controller logs its ports once it serves (port 0 in the configuration picks a free one). A new JVM
     * loading the controller's classes took over a minute on a machine shared with other builds (load 26 on
     * 2 cores); a controller that exits early fails at once.
     */
    private int awaitPort(Pattern listening) {
        int[] found = new int[1];
        await().atMost(3, TimeUnit.MINUTES)
                .pollInterval(200, TimeUnit.MILLISECONDS)
                .until(() -> {
                    if (!process.isAlive()) {
                        throw new AssertionError("controller exited early:\n" + log());
                    }
                    Matcher m = listening.matcher(log());
                    if (m.find()) {
                        found[0] = Integer.parseInt(m.group(1));
                        return true;
                    }
                    return false;
                });
        return found[0];
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
